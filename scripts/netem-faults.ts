// Faults on the wire (docs/operations.md "Faults on the wire"): simulated gateways in network namespaces behind
// links that delay, drop and reorder packets as `tc netem` does, the built server, and a command stream through
// its API. Prints the command success rate and latency, reports acknowledged against stored, presence flaps and
// the time to agree once the faults are gone. Run as root: `npm run netem-faults -- --links 5`.
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { WIRE_FAULTS } from '../apps/server/src/test/lossy-link.fixtures.ts';
import { buildServerBundle, removeServerBundle } from '../apps/server/src/test/server-process.ts';
import { runWireFaults } from '../apps/server/src/test/wire-faults.ts';
import { nonNegativeOption } from '../apps/gateway-sim/src/cli-args.ts';

const USAGE = `Puts simulated gateways behind faulty links and measures how the platform copes.

  npm run netem-faults -- [--links N] [--per-link N] [--rate R] [--seconds S] [--delay MS] [--jitter MS] [--loss P] [--reorder P]

  --links     network namespaces, each behind its own link (default 5)
  --per-link  gateways in each namespace (default 2)
  --rate      identify commands per second through the API (default 10)
  --seconds   how long the faults stay on (default 60)
  --change    ms between the change reports of each gateway (default 500)
  --outage    seconds in the middle of the faults when every packet is dropped (default 0: none)
  --delay, --jitter, --loss, --reorder
              the faults, as tc netem takes them (default 200 ms, 50 ms, 5 %, 25 % with 50 % correlation)

Needs root, ip netns, and either the kernel's netem or /dev/net/tun with socat (a userspace link then does what
netem would). DATABASE_URL: the run makes (and drops) its own database there; PGlite otherwise. MQTT_URL: an
anonymous external broker; the server's embedded one otherwise. Ctrl-C stops it and removes what it made.`;

const positive = (value: string | undefined, fallback: number, name: string) => nonNegativeOption('netem-faults', name, value, fallback);

async function main() {
  const { values } = parseArgs({
    options: {
      links: { type: 'string' },
      'per-link': { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      change: { type: 'string' },
      outage: { type: 'string' },
      delay: { type: 'string' },
      jitter: { type: 'string' },
      loss: { type: 'string' },
      reorder: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return console.log(USAGE);
  const links = positive(values.links, 5, 'links');
  if (!Number.isInteger(links) || links < 1 || links > 250) {
    console.error('netem-faults: --links must be a whole number from 1 to 250');
    process.exit(1);
  }
  const abort = new AbortController();
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130);
    console.log('stopping: removing namespaces and processes (Ctrl-C again to leave them)');
    abort.abort();
  });
  process.on('SIGTERM', () => abort.abort());
  buildServerBundle();
  try {
    const figures = await runWireFaults({
      links,
      gatewaysPerLink: Math.max(1, Math.round(positive(values['per-link'], 2, 'per-link'))),
      commandsPerSecond: positive(values.rate, 10, 'rate') || 10,
      faultSeconds: positive(values.seconds, 60, 'seconds') || 60,
      changeEveryMs: positive(values.change, 500, 'change') || 500,
      outageSeconds: positive(values.outage, 0, 'outage'),
      faults: {
        ...WIRE_FAULTS,
        delayMs: positive(values.delay, WIRE_FAULTS.delayMs, 'delay'),
        jitterMs: positive(values.jitter, WIRE_FAULTS.jitterMs, 'jitter'),
        lossPercent: positive(values.loss, WIRE_FAULTS.lossPercent, 'loss'),
        reorderPercent: positive(values.reorder, WIRE_FAULTS.reorderPercent, 'reorder'),
      },
      databaseUrl: process.env.DATABASE_URL || undefined,
      mqttUrl: process.env.MQTT_URL || undefined,
      log: (line) => console.log(line),
      signal: abort.signal,
    });
    const { commands, executions, reports, presence } = figures;
    const rate = commands.sent ? (100 * commands.succeeded) / commands.sent : 0;
    console.log(`
faults on the wire: ${figures.gateways} gateways, ${figures.linkKind} links${figures.packetsDropped ? ` (${figures.packetsDropped} packets dropped)` : ''}
  commands        ${commands.succeeded}/${commands.sent} succeeded (${rate.toFixed(1)} %), p50 ${commands.p50Ms} ms, p99 ${commands.p99Ms} ms${
    Object.keys(commands.failures).length ? `, failures by code ${JSON.stringify(commands.failures)}` : ''
  }
  carried out     ${Object.entries(executions.byName)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ')}; ${executions.runMoreThanOnce} of them more than once; ${Math.max(
    0,
    (executions.byName['gateway.identify'] ?? 0) - commands.succeeded,
  )} identify carried out though the API answered a failure
  change reports  ${reports.acknowledged} acknowledged by the broker, ${reports.stored} stored, ${reports.lost} lost, ${reports.duplicated} duplicated
  presence        ${presence.offlineChanges} offline changes seen in the API while only lossy, ${presence.connectionsLost} connections lost by gateways${
    values.outage ? `, ${presence.offlineChangesAfterOutage} offline changes once the outage began` : ''
  }
  convergence     ${(figures.convergenceMs / 1000).toFixed(1)} s after the faults went; ${figures.statesDiffering} device states differing
  load            ${figures.load.before.toFixed(2)} before, ${figures.load.after.toFixed(2)} after (1-minute load average; ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} now)`);
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    console.log('stopped; the namespaces, links and processes it made are removed');
    process.exitCode = 130;
  } finally {
    removeServerBundle();
  }
}

await main();
