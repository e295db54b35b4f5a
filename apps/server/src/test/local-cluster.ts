// The reference deployment on one machine as a module: N server processes from the built bundle behind HAProxy,
// PostgreSQL shared, the broker of MQTT_URL or a NATS cluster of its own. scripts/cluster.ts is its command line;
// scripts/cluster-faults.ts kills and restarts its nodes.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../lib/free-port.ts';
import { startNatsCluster, type NatsCluster } from '../gateway-link/nats-cluster.ts';

const SERVER_DIR = resolve(import.meta.dirname, '../..');
/** The bundle npm run build makes; LUMIGRID_SERVER_BUNDLE names another (a test's own build). */
export const DEFAULT_SERVER_BUNDLE = process.env.LUMIGRID_SERVER_BUNDLE ?? join(SERVER_DIR, 'dist/main.js');

export interface ClusterNode {
  name: string;
  port: number;
  child: ChildProcess;
  exited: Promise<void>;
}

export interface LocalClusterOptions {
  nodes: number;
  /** Where HAProxy listens. */
  host: string;
  port: number;
  broker: 'mosquitto' | 'nats';
  databaseUrl: string;
  /** The nodes' environment besides what the cluster sets (process.env for the script). */
  env: NodeJS.ProcessEnv;
  bundle?: string;
  log: (line: string) => void;
  /** HAProxy ended after the cluster was ready, while it was not stopping. */
  onHaproxyExit?: () => void;
}

export interface LocalCluster {
  /** Logs, configurations and the NATS stores. */
  dir: string;
  /** Where a client on this machine reaches HAProxy. */
  url: string;
  publicUrl: string;
  haproxyConfig: string;
  statsPort: number;
  nats: NatsCluster | undefined;
  names: string[];
  node(name: string): ClusterNode;
  /** Starts the node (again, on its port) and waits until its /healthz answers 200. */
  startNode(name: string): Promise<ClusterNode>;
  /** Waits until HAProxy sends to the node (its checks passed `rise` times); false after 30 s. */
  inRotation(name: string): Promise<boolean>;
  /** HAProxy's view of each node: its status (UP, DOWN...) and the sessions it holds now (a WebSocket is one). */
  backendView(): Promise<Map<string, { status: string; sessions: number }>>;
  /** An upgrade: each node drains (SIGTERM), its successor starts on the same port, and the next waits for it. */
  restartOneByOne(): Promise<void>;
  /** Drains every node, stops HAProxy and NATS. */
  stop(): Promise<void>;
}

/** HAProxy in front of the nodes: sticky by cookie, a node whose /healthz is not 200 (draining, down) taken out. */
export function haproxyConfig(input: {
  host: string;
  port: number;
  statsPort: number;
  nodes: Array<{ name: string; port: number }>;
}): string {
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
  # A draining node answers 503 at once: with fall 1 it is out within one interval, in its grace. A node slow to
  # answer is busy, not gone: its check may take 5 s (on a loaded machine every node missed 1 s at once).
  option httpchk GET /healthz
  http-check expect status 200
  timeout check 5s
  default-server check inter 1s fall 1 rise 2
${input.nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.port} cookie ${node.name}`).join('\n')}

# Which nodes HAProxy sends to now (/stats, and /stats;csv for scripts); on the loopback only.
listen stats
  bind 127.0.0.1:${input.statsPort}
  stats enable
  stats uri /stats
`;
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/**
 * Starts the cluster: the NATS nodes (--broker nats), the first server node alone (it migrates the database), the
 * others, then HAProxy; resolves once HAProxy answers. Whatever it started is stopped when it fails, and killed
 * when this process exits.
 */
export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const { host, port, log } = options;
  const bundle = options.bundle ?? DEFAULT_SERVER_BUNDLE;
  const dir = await mkdtemp(join(tmpdir(), 'lumigrid-cluster-'));
  const nodes = new Map<string, ClusterNode>();
  let nats: NatsCluster | undefined;
  let haproxy: ChildProcess | undefined;
  let haproxyExited: Promise<void> = Promise.resolve();
  let stopping = false;
  let ready = false;
  // However this process ends, what the cluster started ends with it.
  const killAll = () => {
    for (const node of nodes.values()) node.child.kill('SIGKILL');
    for (const node of nats?.nodes ?? []) node.process?.kill('SIGKILL');
    haproxy?.kill('SIGKILL');
  };
  process.on('exit', killAll);

  async function stop() {
    if (stopping) return;
    stopping = true;
    for (const node of nodes.values()) node.child.kill('SIGTERM');
    await Promise.all([...nodes.values()].map((node) => node.exited));
    haproxy?.kill('SIGTERM');
    await haproxyExited;
    await nats?.stop();
    process.off('exit', killAll);
  }

  try {
    if (options.broker === 'nats') {
      nats = await startNatsCluster({ dir }).catch((error: Error) => {
        throw new Error(`the NATS cluster did not start: ${error.message}`);
      });
      for (const node of nats.nodes)
        log(
          `${node.name}: pid ${node.process?.pid}, MQTT ${node.mqttUrl}, NATS ${node.natsUrl}, monitoring http://127.0.0.1:${node.ports.http}/, log ${join(dir, `${node.name}.log`)}`,
        );
    }
    const publicUrl = options.env.PUBLIC_URL || `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
    const nodeEnv = {
      ...options.env,
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      // With NATS: every node's MQTT listener (the link moves to the next when its node dies) and the queue group's.
      ...(nats ? { MQTT_URL: nats.mqttUrls, NATS_URL: nats.natsUrls } : { MQTT_URL: options.env.MQTT_URL || 'mqtt://127.0.0.1:1883' }),
      REALTIME_BUS: 'postgres',
      // The client's address comes from HAProxy's X-Forwarded-For (sign-in limits, audit).
      TRUST_PROXY: 'true',
      PUBLIC_URL: publicUrl,
      LOG_FORMAT: 'json',
    };
    const names = Array.from({ length: options.nodes }, (_, i) => `node${i + 1}`);
    const ports = new Map<string, number>();
    for (const name of names) ports.set(name, await freePort('127.0.0.1'));

    const spawnNode = (name: string): ClusterNode => {
      const nodePort = ports.get(name)!;
      const logFile = createWriteStream(join(dir, `${name}.log`), { flags: 'a' });
      const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
        cwd: SERVER_DIR,
        env: { ...nodeEnv, PORT: String(nodePort) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.pipe(logFile);
      child.stderr!.pipe(logFile);
      const exited = new Promise<void>((done) =>
        child.once('exit', (code, signal) => {
          if (!stopping && nodes.get(name)?.child === child) log(`${name} exited (${signal ?? `code ${code}`})`);
          done();
        }),
      );
      const node = { name, port: nodePort, child, exited };
      nodes.set(name, node);
      return node;
    };

    const startNode = async (name: string): Promise<ClusterNode> => {
      const node = spawnNode(name);
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        if (node.child.exitCode !== null) throw new Error(`${name} exited with ${node.child.exitCode}: see ${join(dir, `${name}.log`)}`);
        const answer = await fetch(`http://127.0.0.1:${node.port}/healthz`).catch(() => undefined);
        if (answer?.ok) {
          log(`${name}: pid ${node.child.pid}, http://127.0.0.1:${node.port}, log ${join(dir, `${name}.log`)}`);
          return node;
        }
        await sleep(200);
      }
      throw new Error(`${name} did not answer /healthz in 120 s: see ${join(dir, `${name}.log`)}`);
    };

    // The first node alone, so it migrates the database before the others read it.
    await startNode(names[0]!);
    await Promise.all(names.slice(1).map((name) => startNode(name)));

    const config = join(dir, 'haproxy.cfg');
    const statsPort = await freePort('127.0.0.1');
    await writeFile(config, haproxyConfig({ host, port, statsPort, nodes: names.map((name) => ({ name, port: ports.get(name)! })) }));
    const started = spawn('haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'inherit', 'inherit'] });
    haproxy = started;
    haproxyExited = new Promise<void>((done) => started.once('exit', () => done()));
    void haproxyExited.then(() => {
      if (!stopping && ready) options.onHaproxyExit?.();
    });
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    const deadline = Date.now() + 10_000;
    while (!(await fetch(`${url}/healthz`).catch(() => undefined))?.ok) {
      if (Date.now() > deadline) throw new Error(`HAProxy did not answer on ${host}:${port} (config ${config})`);
      await sleep(100);
    }

    const backendView = async (): Promise<Map<string, { status: string; sessions: number }>> => {
      const csv = (await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).catch(() => undefined))?.text()) ?? '';
      // Columns: pxname, svname, qcur, qmax, scur (sessions now), ... the 18th is the status (UP, DOWN, ...).
      const rows = csv.split('\n').map((line) => line.split(','));
      return new Map(
        rows
          .filter((row) => row[0] === 'nodes' && names.includes(row[1]!))
          .map((row) => [row[1]!, { status: row[17]!, sessions: Number(row[4]) }]),
      );
    };
    const inRotation = async (name: string): Promise<boolean> => {
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        if ((await backendView()).get(name)?.status === 'UP') return true;
        await sleep(200);
      }
      return false;
    };

    let restarting = false;
    ready = true;
    return {
      dir,
      url,
      publicUrl,
      haproxyConfig: config,
      statsPort,
      nats,
      names,
      node: (name) => nodes.get(name)!,
      startNode,
      inRotation,
      backendView,
      async restartOneByOne() {
        if (restarting || stopping) return;
        restarting = true;
        try {
          for (const name of names) {
            const old = nodes.get(name)!;
            log(`${name}: draining`);
            old.child.kill('SIGTERM');
            await old.exited;
            if (stopping) break;
            await startNode(name);
            // The next node drains only once this one takes requests again, so one is always in rotation.
            if (!(await inRotation(name))) log(`${name}: HAProxy did not put it back within 30 s`);
          }
        } finally {
          restarting = false;
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
