// The reference deployment on one machine (`npm run cluster -- --nodes 3 --port 8080`, docs/operations.md
// "A cluster on one machine"): N server processes from the built bundle on free ports, HAProxy in front with
// sticky sessions and health checks on /healthz, PostgreSQL from DATABASE_URL, the broker of MQTT_URL or (--broker
// nats) a three-node NATS cluster of its own. Ctrl-C drains every node and stops HAProxy (and NATS); SIGHUP restarts
// the nodes one at a time (an upgrade).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { NATS_SERVER } from '../apps/server/src/gateway-link/nats-cluster.ts';
import { DEFAULT_SERVER_BUNDLE, startLocalCluster, type LocalCluster } from '../apps/server/src/test/local-cluster.ts';

const USAGE = `Starts a Lumigrid cluster on this machine: N server nodes behind HAProxy.

  npm run cluster -- [--nodes N] [--port PORT] [--host HOST] [--broker mosquitto|nats]

  --nodes   server processes (default 2)
  --port    the port HAProxy listens on, the one address of the cluster (default 8080)
  --host    the address HAProxy listens on (default 127.0.0.1)
  --broker  mosquitto (default): the broker of MQTT_URL, mqtt://127.0.0.1:1883 by default, shared subscriptions;
            nats: a three-node NATS cluster with JetStream and MQTT on free loopback ports, the nodes taking the
            gateways' uplink through a NATS queue group (apt-get install -y nats-server)

Needs DATABASE_URL (PostgreSQL, shared by the nodes), HAProxy (apt-get install -y haproxy) and the built server
(npm run build -w @lumigrid/server; npm run cluster builds it).
Every other variable (ADMIN_PASSWORD, MODE, SMTP_URL...) is passed to the nodes. Ctrl-C stops everything;
kill -HUP <pid of this script> restarts the nodes one at a time from the bundle as it is now.`;

function fail(message: string): never {
  console.error(`cluster: ${message}`);
  process.exit(1);
}

async function main() {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '2' },
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      broker: { type: 'string', default: 'mosquitto' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const count = Number(values.nodes);
  const port = Number(values.port);
  const host = values.host;
  if (!Number.isInteger(count) || count < 1 || count > 32) fail(`--nodes must be a whole number from 1 to 32, not "${values.nodes}"`);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a port number, not "${values.port}"`);
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) fail('DATABASE_URL is not set: the nodes share one PostgreSQL database');
  if (!existsSync(DEFAULT_SERVER_BUNDLE)) fail('the server is not built: npm run build -w @lumigrid/server');
  if (spawnSync('haproxy', ['-v']).error) fail('haproxy is not installed: apt-get install -y haproxy');
  const broker = values.broker;
  if (broker !== 'mosquitto' && broker !== 'nats') fail(`--broker must be mosquitto or nats, not "${broker}"`);
  if (broker === 'nats' && !existsSync(NATS_SERVER)) fail(`${NATS_SERVER} is not installed: apt-get install -y nats-server`);

  let stopping = false;
  let restarting = false;
  const cluster: LocalCluster = await startLocalCluster({
    nodes: count,
    host,
    port,
    broker,
    databaseUrl,
    env: process.env,
    log: (line) => console.log(line),
    onHaproxyExit: () => void stop(1, 'HAProxy exited'),
  }).catch((error: Error) => fail(error.message));
  console.log(
    `ready: ${cluster.publicUrl} (HAProxy config ${cluster.haproxyConfig}, its view of the nodes http://127.0.0.1:${cluster.statsPort}/stats)`,
  );
  // Gateways know every broker node and move to the next one when theirs is gone (docs/operations.md).
  if (cluster.nats) console.log(`gateways: npm run sim -- --url ${cluster.nats.mqttUrls} (any broker node; the list is tried in turn)`);

  async function restartOneByOne() {
    if (restarting || stopping) return;
    restarting = true;
    try {
      await cluster.restartOneByOne();
    } catch (error) {
      return stop(1, (error as Error).message);
    } finally {
      restarting = false;
    }
    if (!stopping) console.log('restarted every node');
  }

  async function stop(code: number, why: string) {
    if (stopping) return;
    stopping = true;
    console.log(`stopping (${why}): the nodes drain`);
    await cluster.stop();
    console.log(`stopped; the logs stay in ${cluster.dir}`);
    process.exit(code);
  }

  process.on('SIGINT', () => void stop(0, 'SIGINT'));
  process.on('SIGTERM', () => void stop(0, 'SIGTERM'));
  process.on('SIGHUP', () => void restartOneByOne());
}

await main();
