// The reference deployment on one machine (`npm run cluster -- --nodes 3 --port 8080`, docs/operations.md
// "A cluster on one machine"): N server processes from the built bundle on free ports, HAProxy in front with
// sticky sessions and health checks on /healthz, PostgreSQL from DATABASE_URL, the broker of MQTT_URL or (--broker
// nats) a three-node NATS cluster of its own. Ctrl-C drains every node and stops HAProxy (and NATS); SIGHUP restarts
// the nodes one at a time (an upgrade).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../apps/server/src/lib/free-port.ts';
import { NATS_SERVER, startNatsCluster, type NatsCluster } from '../apps/server/src/gateway-link/nats-cluster.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..');
// LUMIGRID_SERVER_BUNDLE: another build of the server (the cluster test's own).
const BUNDLE = process.env.LUMIGRID_SERVER_BUNDLE ?? join(REPO_ROOT, 'apps/server/dist/main.js');
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

interface Node {
  name: string;
  port: number;
  child: ChildProcess;
  exited: Promise<void>;
}

function fail(message: string): never {
  console.error(`cluster: ${message}`);
  process.exit(1);
}

/** HAProxy in front of the nodes: sticky by cookie, a node whose /healthz is not 200 (draining, down) taken out. */
function haproxyConfig(input: { host: string; port: number; statsPort: number; nodes: Array<{ name: string; port: number }> }): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # SockJS over WebSocket and xhr-streaming stay open; the node closes them when it drains.
  timeout tunnel 1h
  # A node that refused the connection (stopped) is not the client's problem: the request goes to another one.
  retries 2
  retry-on conn-failure
  option redispatch

frontend lumigrid
  bind ${input.host}:${input.port}
  option forwardfor
  default_backend nodes

backend nodes
  balance roundrobin
  # Sticky sessions: a SockJS session over xhr-streaming or polling is many requests, which must reach the node
  # holding it. Browsers keep the cookie naming that node; clients without cookies are pinned by the session id
  # in the path (/ws/endpoint-homa/{server}/{session}/{transport}).
  cookie LGNODE insert indirect nocache httponly
  stick-table type string len 64 size 100k expire 30m
  stick on path,field(5,/) if { path_reg ^/ws/endpoint-homa/[^/]+/[^/]+/ }
  # A draining node answers 503 at once: with fall 1 it is out within one interval, in its grace.
  option httpchk GET /healthz
  http-check expect status 200
  default-server check inter 1s fall 1 rise 2
${input.nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.port} cookie ${node.name}`).join('\n')}

# Which nodes HAProxy sends to now (/stats, and /stats;csv for scripts); on the loopback only.
listen stats
  bind 127.0.0.1:${input.statsPort}
  stats enable
  stats uri /stats
`;
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
  if (!existsSync(BUNDLE)) fail('the server is not built: npm run build -w @lumigrid/server');
  if (spawnSync('haproxy', ['-v']).error) fail('haproxy is not installed: apt-get install -y haproxy');
  const broker = values.broker;
  if (broker !== 'mosquitto' && broker !== 'nats') fail(`--broker must be mosquitto or nats, not "${broker}"`);
  if (broker === 'nats' && !existsSync(NATS_SERVER)) fail(`${NATS_SERVER} is not installed: apt-get install -y nats-server`);

  const dir = await mkdtemp(join(tmpdir(), 'lumigrid-cluster-'));
  let nats: NatsCluster | undefined;
  if (broker === 'nats') {
    const started = await startNatsCluster({ dir }).catch((error: Error) => fail(`the NATS cluster did not start: ${error.message}`));
    nats = started;
    // However this script ends (fail() exits at once), the broker nodes end with it.
    process.on('exit', () => {
      for (const node of started.nodes) node.process?.kill('SIGKILL');
    });
    for (const node of nats.nodes)
      console.log(
        `${node.name}: pid ${node.process?.pid}, MQTT ${node.mqttUrl}, NATS ${node.natsUrl}, monitoring http://127.0.0.1:${node.ports.http}/, log ${join(dir, `${node.name}.log`)}`,
      );
  }
  const publicUrl = process.env.PUBLIC_URL || `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  const nodeEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    // With NATS: every node's MQTT listener (the link moves to the next when its node dies) and the queue group's.
    ...(nats ? { MQTT_URL: nats.mqttUrls, NATS_URL: nats.natsUrls } : { MQTT_URL: process.env.MQTT_URL || 'mqtt://127.0.0.1:1883' }),
    REALTIME_BUS: 'postgres',
    // The client's address comes from HAProxy's X-Forwarded-For (sign-in limits, audit).
    TRUST_PROXY: 'true',
    PUBLIC_URL: publicUrl,
    LOG_FORMAT: 'json',
  };
  const names = Array.from({ length: count }, (_, i) => `node${i + 1}`);
  const ports = new Map<string, number>();
  for (const name of names) ports.set(name, await freePort('127.0.0.1'));
  const nodes = new Map<string, Node>();
  let stopping = false;

  function startNode(name: string): Node {
    const nodePort = ports.get(name)!;
    const log = createWriteStream(join(dir, `${name}.log`), { flags: 'a' });
    const child = spawn(process.execPath, ['--enable-source-maps', BUNDLE], {
      cwd: join(REPO_ROOT, 'apps/server'),
      env: { ...nodeEnv, PORT: String(nodePort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    const exited = new Promise<void>((done) =>
      child.once('exit', (code, signal) => {
        if (!stopping && nodes.get(name)?.child === child) console.log(`${name} exited (${signal ?? `code ${code}`})`);
        done();
      }),
    );
    const node = { name, port: nodePort, child, exited };
    nodes.set(name, node);
    return node;
  }

  async function healthy(node: Node): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (node.child.exitCode !== null) fail(`${node.name} exited with ${node.child.exitCode}: see ${join(dir, `${node.name}.log`)}`);
      const answer = await fetch(`http://127.0.0.1:${node.port}/healthz`).catch(() => undefined);
      if (answer?.ok) {
        console.log(`${node.name}: pid ${node.child.pid}, http://127.0.0.1:${node.port}, log ${join(dir, `${node.name}.log`)}`);
        return;
      }
      await new Promise((wake) => setTimeout(wake, 200));
    }
    fail(`${node.name} did not answer /healthz in 120 s: see ${join(dir, `${node.name}.log`)}`);
  }

  // The first node alone, so it migrates the database before the others read it.
  await healthy(startNode(names[0]!));
  await Promise.all(names.slice(1).map((name) => healthy(startNode(name))));

  const config = join(dir, 'haproxy.cfg');
  const statsPort = await freePort('127.0.0.1');
  await writeFile(config, haproxyConfig({ host, port, statsPort, nodes: names.map((name) => ({ name, port: ports.get(name)! })) }));
  const haproxy = spawn('haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const haproxyExited = new Promise<void>((done) => haproxy.once('exit', () => done()));
  void haproxyExited.then(() => {
    if (!stopping) void stop(1, 'HAProxy exited');
  });
  const deadline = Date.now() + 10_000;
  while (!(await fetch(`http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/healthz`).catch(() => undefined))?.ok) {
    if (Date.now() > deadline) await stop(1, `HAProxy did not answer on ${host}:${port} (config ${config})`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
  console.log(`ready: ${publicUrl} (HAProxy config ${config}, its view of the nodes http://127.0.0.1:${statsPort}/stats)`);
  // Gateways know every broker node and move to the next one when theirs is gone (docs/operations.md).
  if (nats) console.log(`gateways: npm run sim -- --url ${nats.mqttUrls} (any broker node; the list is tried in turn)`);

  /** Waits until HAProxy sends to the node again (its checks must pass `rise` times), reading its CSV statistics. */
  async function inRotation(name: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).catch(() => undefined))?.text();
      // Columns: pxname, svname, ... the 18th is the status (UP, DOWN, ...).
      const row = csv?.split('\n').find((line) => line.startsWith(`nodes,${name},`));
      if (row?.split(',')[17] === 'UP') return;
      await new Promise((wake) => setTimeout(wake, 200));
    }
    console.log(`${name}: HAProxy did not put it back within 30 s`);
  }

  let restarting = false;
  /** An upgrade: each node drains (SIGTERM), its successor starts on the same port, and the next waits for it. */
  async function restartOneByOne() {
    if (restarting || stopping) return;
    restarting = true;
    for (const name of names) {
      const old = nodes.get(name)!;
      console.log(`${name}: draining`);
      old.child.kill('SIGTERM');
      await old.exited;
      if (stopping) break;
      await healthy(startNode(name));
      // The next node drains only once this one takes requests again, so one is always in rotation.
      await inRotation(name);
    }
    restarting = false;
    console.log('restarted every node');
  }

  async function stop(code: number, why: string) {
    if (stopping) return;
    stopping = true;
    console.log(`stopping (${why}): the nodes drain`);
    for (const node of nodes.values()) node.child.kill('SIGTERM');
    await Promise.all([...nodes.values()].map((node) => node.exited));
    haproxy.kill('SIGTERM');
    await haproxyExited;
    await nats?.stop();
    console.log(`stopped; the logs stay in ${dir}`);
    process.exit(code);
  }

  process.on('SIGINT', () => void stop(0, 'SIGINT'));
  process.on('SIGTERM', () => void stop(0, 'SIGTERM'));
  process.on('SIGHUP', () => void restartOneByOne());
}

await main();
