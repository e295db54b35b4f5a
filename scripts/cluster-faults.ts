// The cluster under faults (docs/operations.md "The cluster under faults"): three server nodes behind HAProxy,
// the NATS cluster, PostgreSQL, simulated gateways, a STOMP client and a command stream; one server node and then
// one broker node killed, both restarted. Prints the figures; exits 1 when a rule does not hold.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { nonNegativeOption } from '../apps/gateway-sim/src/cli-args.ts';
import { WIRE_FAULTS } from '../apps/server/src/test/lossy-link.fixtures.ts';
import { NATS_SERVER } from '../apps/server/src/gateway-link/nats-cluster.ts';
import { runClusterFaults, type ClusterFaultFigures } from '../apps/server/src/test/cluster-faults.ts';
import { buildServerBundle, removeServerBundle } from '../apps/server/src/test/server-process.ts';

const USAGE = `Kills a server node and a broker node of a cluster on this machine under load, and checks what survived.

  npm run cluster-faults -- [--gateways N] [--rate R] [--phase-seconds S] [--change MS]
                            [--netem [--links N] [--delay MS] [--jitter MS] [--loss P] [--reorder P]]

  --gateways       simulated gateways, spread over the three broker nodes (default 200)
  --rate           device control calls per second through HAProxy (default 20)
  --phase-seconds  length of each of the six phases: steady, node killed, one node down, broker node killed,
                   restarting both, steady again (default 30)
  --change         ms between the change reports of each gateway (default 5000)
  --every-state    the nodes keep every reported state (HISTORY_HEARTBEAT_MINUTES 0) instead of the default
                   change-only history (15); each report the run counts is a change, so either way each is looked for
  --keep-database  leaves the run's database for a look afterwards
  --netem          the gateways behind faulty links, as npm run netem-faults makes them (as root): --links network
                   namespaces (default 5), the gateways spread over them, each reaching every broker node through
                   its link; the faults on through all six phases: --delay, --jitter, --loss, --reorder as tc netem
                   takes them (default 200 ms, 50 ms, 5 %, 25 % with 50 % correlation)

Needs DATABASE_URL (PostgreSQL: the run makes and drops its own database there), HAProxy and nats-server.
The rules: no command the API acknowledged lost or run twice, every report of the steady phases stored (but
those sent in the 2 s before a kill, which the killed node may have held in memory), the
STOMP client back on the map topic within 10 s of each kill. The nodes' logs stay in the folder it prints.`;

function fail(message: string): never {
  console.error(`cluster-faults: ${message}`);
  process.exit(1);
}

const seconds = (ms: number | undefined) => (ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)} s`);

function print(figures: ClusterFaultFigures) {
  const { commands, links } = figures;
  console.log(
    `\ncluster under faults: 3 server nodes, 3 NATS nodes, ${figures.gateways} gateways, ${figures.devicesControlled} devices controlled`,
  );
  if (links)
    console.log(
      `links      ${links.count} ${links.kind} links, the gateways behind them: delay ${links.faults.delayMs}ms ${links.faults.jitterMs}ms loss ${
        links.faults.lossPercent
      }% reorder ${links.faults.reorderPercent}% ${links.faults.reorderCorrelationPercent}%${
        links.kind === 'userspace' ? ` (${links.packetsDropped} packets dropped)` : ''
      }`,
    );
  console.table(
    Object.fromEntries(
      figures.phases.map((p) => [
        p.name,
        {
          s: p.seconds.toFixed(1),
          'commands sent': p.commands.sent,
          acknowledged: p.commands.acknowledged,
          'success %': p.commands.sent ? Number(((100 * p.commands.acknowledged) / p.commands.sent).toFixed(1)) : 0,
          'p50 ms': p.commands.p50Ms,
          'p99 ms': p.commands.p99Ms,
          failures: Object.entries(p.commands.failures)
            .map(([why, n]) => `${n} ${why}`)
            .join(', '),
          'acked not run': p.commands.acknowledgedNotRun,
          'run twice': p.commands.runMoreThanOnce,
          'ran though failed': p.commands.runThoughFailed,
          'went offline': p.wentOffline,
          reports: p.reports.acknowledged,
          stored: p.reports.stored,
          lost: p.reports.lost,
          'of them just before a kill': p.reports.lostInFlight,
          duplicated: p.reports.duplicated,
        },
      ]),
    ),
  );
  console.log(
    `commands   ${commands.acknowledged}/${commands.sent} acknowledged; ${commands.acknowledgedNotRun} acknowledged but not run, ${commands.runMoreThanOnce} run more than once, ${commands.runThoughFailed} run though the API answered a failure`,
  );
  for (const kill of figures.kills)
    console.log(
      `kill       ${kill.what}: client ${kill.clientDropped ? 'dropped' : 'kept its socket'}, on the map topic again after ${seconds(
        kill.backOnTopicMs,
      )}, its first map message after ${seconds(kill.firstMessageMs)}`,
    );
  const after = (ms: number | undefined) => (ms === undefined ? 'not by the end' : `after ${(ms / 1000).toFixed(1)} s`);
  console.log(
    `restart    server node in rotation ${after(figures.restart.nodeServingMs)}, broker node serving ${after(
      figures.restart.brokerServingMs,
    )}, its replicas current ${after(figures.restart.brokerCurrentMs)}`,
  );
  console.log(`gateways   ${figures.connectionsLost} connections lost`);
  console.log(
    `load       ${figures.load.before.toFixed(2)} before, ${figures.load.after.toFixed(2)} after (1-minute load average; ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} now)`,
  );
  console.log(`logs       ${figures.logs}${figures.database ? `; database ${figures.database}` : ''}`);
  if (figures.lostSamples.length) console.log(`not stored ${figures.lostSamples.join(', ')} (mac/addr/ts)`);
  for (const { rule, held } of figures.rules) console.log(`${held ? 'PASS' : 'FAIL'}       ${rule}`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      gateways: { type: 'string' },
      rate: { type: 'string' },
      'phase-seconds': { type: 'string' },
      change: { type: 'string' },
      'keep-database': { type: 'boolean' },
      'every-state': { type: 'boolean' },
      netem: { type: 'boolean' },
      links: { type: 'string' },
      delay: { type: 'string' },
      jitter: { type: 'string' },
      loss: { type: 'string' },
      reorder: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return console.log(USAGE);
  const option = (name: string, value: string | undefined, fallback: number) => nonNegativeOption('cluster-faults', name, value, fallback);
  const gateways = option('gateways', values.gateways, 200);
  if (!Number.isInteger(gateways) || gateways < 3 || gateways > 2000) fail('--gateways must be a whole number from 3 to 2000');
  const links = option('links', values.links, 5);
  if (!Number.isInteger(links) || links < 1 || links > 250) fail('--links must be a whole number from 1 to 250');
  const netemOnly = (['links', 'delay', 'jitter', 'loss', 'reorder'] as const).filter((name) => values[name] !== undefined);
  if (!values.netem && netemOnly.length) fail(`--${netemOnly[0]} describes the links of --netem`);
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) fail('DATABASE_URL is not set: the nodes share one PostgreSQL database');
  if (spawnSync('haproxy', ['-v']).error) fail('haproxy is not installed: apt-get install -y haproxy');
  if (!existsSync(NATS_SERVER)) fail(`${NATS_SERVER} is not installed: apt-get install -y nats-server`);
  // Exiting runs the cluster's and the gateways' exit hooks, which kill what they started.
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  buildServerBundle();
  try {
    const figures = await runClusterFaults({
      gateways,
      commandsPerSecond: option('rate', values.rate, 20) || 20,
      phaseSeconds: option('phase-seconds', values['phase-seconds'], 30) || 30,
      changeEveryMs: option('change', values.change, 5000) || 5000,
      databaseUrl,
      keepDatabase: values['keep-database'],
      everyState: values['every-state'],
      links: values.netem
        ? {
            count: links,
            faults: {
              ...WIRE_FAULTS,
              delayMs: option('delay', values.delay, WIRE_FAULTS.delayMs),
              jitterMs: option('jitter', values.jitter, WIRE_FAULTS.jitterMs),
              lossPercent: option('loss', values.loss, WIRE_FAULTS.lossPercent),
              reorderPercent: option('reorder', values.reorder, WIRE_FAULTS.reorderPercent),
            },
          }
        : undefined,
      log: (line) => console.log(line),
    });
    print(figures);
    if (figures.rules.some((r) => !r.held)) process.exitCode = 1;
  } finally {
    removeServerBundle();
  }
}

await main();
