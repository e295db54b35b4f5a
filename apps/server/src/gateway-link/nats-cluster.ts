import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../lib/free-port.ts';

/** Where Debian's package puts the NATS server. */
export const NATS_SERVER = '/usr/sbin/nats-server';

/** The ports of one node of the cluster. */
export interface NatsNodePorts {
  /** NATS clients: the server nodes' queue group (NATS_URL). */
  client: number;
  /** Routes between the nodes. */
  cluster: number;
  /** The MQTT listener: gateways and the server nodes' MQTT link (MQTT_URL). */
  mqtt: number;
  /** Monitoring: /healthz answers 200 once the node's JetStream is current. */
  http: number;
}

/**
 * One node's configuration: JetStream (the MQTT listener keeps sessions, QoS 1 messages and retained states in
 * it, replicated to three nodes), routes to every node, and the MQTT listener. Anyone who reaches the listeners
 * may connect: the gateways' credentials are not checked by this broker (docs/decisions.md).
 */
export function natsNodeConf(input: { name: string; host: string; storeDir: string; ports: NatsNodePorts; routes: number[] }): string {
  const { host, ports } = input;
  return `server_name: ${input.name}
listen: ${host}:${ports.client}
http: ${host}:${ports.http}
jetstream {
  store_dir: "${input.storeDir}"
  max_memory_store: 64MB
  max_file_store: 1GB
}
cluster {
  name: lumigrid
  listen: ${host}:${ports.cluster}
  routes: [${input.routes.map((port) => `nats-route://${host}:${port}`).join(', ')}]
}
mqtt {
  listen: ${host}:${ports.mqtt}
  # A QoS 1 message a gateway has not acknowledged goes again after this (the protocol's commands are idempotent by id).
  ack_wait: "30s"
}
# The protocol's payloads are at most 256 KiB (codec MAX_PAYLOAD_BYTES).
max_payload: 1MB
`;
}

/** The last lines of a node's log, for the error that says it did not start. */
async function logTail(path: string): Promise<string> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text.split('\n').slice(-6).join('\n');
}

export interface NatsNode {
  name: string;
  ports: NatsNodePorts;
  /** nats://host:port of its client listener. */
  natsUrl: string;
  /** mqtt://host:port of its MQTT listener. */
  mqttUrl: string;
  /** Its process now (undefined once stopped); a restart makes a new one. */
  readonly process: ChildProcess | undefined;
  /** Resolves once its process has exited (at once when none runs). */
  exited(): Promise<void>;
  /** Starts it again with the same ports and store, after a kill. */
  start(): Promise<void>;
  /**
   * Whether /healthz answers 200: routes up and JetStream current, every stream and consumer too; with 'server',
   * only the node's own JetStream with the meta leader (its replicas may still be catching up).
   */
  healthy(scope?: 'all' | 'server'): Promise<boolean>;
}

export interface NatsCluster {
  nodes: NatsNode[];
  /** Every node's client listener, comma-separated: NATS_URL. */
  natsUrls: string;
  /** Every node's MQTT listener, comma-separated: MQTT_URL, and the gateways' broker list. */
  mqttUrls: string;
  /** Kills every node still running (SIGTERM, then SIGKILL after 5 s) and waits for them. */
  stop(): Promise<void>;
}

/**
 * Starts a NATS cluster of `count` nodes on free ports of `host`, each with its configuration, JetStream store
 * and log under `dir`, and resolves once every node's /healthz answers 200 (within `readyMs`). On failure
 * every node started is stopped.
 */
export async function startNatsCluster(options: { dir: string; count?: number; host?: string; readyMs?: number }): Promise<NatsCluster> {
  const host = options.host ?? '127.0.0.1';
  const count = options.count ?? 3;
  // Twelve ports asked of the system one after the other may repeat one: each is taken once.
  const taken = new Set<number>();
  const port = async () => {
    let free = await freePort(host);
    while (taken.has(free)) free = await freePort(host);
    taken.add(free);
    return free;
  };
  const portsOf: NatsNodePorts[] = [];
  for (let i = 0; i < count; i++) portsOf.push({ client: await port(), cluster: await port(), mqtt: await port(), http: await port() });
  const routes = portsOf.map((p) => p.cluster);

  const nodes = await Promise.all(
    portsOf.map(async (ports, i) => {
      const name = `nats${i + 1}`;
      const confPath = join(options.dir, `${name}.conf`);
      const storeDir = join(options.dir, `${name}-store`);
      mkdirSync(storeDir, { recursive: true });
      await writeFile(confPath, natsNodeConf({ name, host, storeDir, ports, routes }));
      let child: ChildProcess | undefined;
      let log: WriteStream | undefined;
      const node: NatsNode = {
        name,
        ports,
        natsUrl: `nats://${host}:${ports.client}`,
        mqttUrl: `mqtt://${host}:${ports.mqtt}`,
        get process() {
          return child;
        },
        exited: () =>
          new Promise<void>((done) => {
            if (!child || child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
          }),
        async start() {
          log ??= createWriteStream(join(options.dir, `${name}.log`), { flags: 'a' });
          const started = spawn(NATS_SERVER, ['-c', confPath], { stdio: ['ignore', 'pipe', 'pipe'] });
          started.stdout!.pipe(log, { end: false });
          started.stderr!.pipe(log, { end: false });
          child = started;
          await new Promise<void>((done, fail) => {
            started.once('spawn', done);
            started.once('error', fail);
          });
        },
        async healthy(scope = 'all') {
          const query = scope === 'server' ? '?js-server-only=true' : '';
          const answer = await fetch(`http://${host}:${ports.http}/healthz${query}`, { signal: AbortSignal.timeout(1000) }).catch(
            () => undefined,
          );
          return answer?.ok ?? false;
        },
      };
      return node;
    }),
  );

  const cluster: NatsCluster = {
    nodes,
    natsUrls: nodes.map((n) => n.natsUrl).join(','),
    mqttUrls: nodes.map((n) => n.mqttUrl).join(','),
    async stop() {
      await Promise.all(
        nodes.map(async (node) => {
          const child = node.process;
          if (!child || child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await node.exited();
          clearTimeout(killer);
        }),
      );
    },
  };
  try {
    await Promise.all(nodes.map((node) => node.start()));
    const deadline = Date.now() + (options.readyMs ?? 30_000);
    for (const node of nodes) {
      while (!(await node.healthy())) {
        const child = node.process;
        if (child?.exitCode !== null || child.signalCode !== null)
          throw new Error(`${node.name} exited: ${await logTail(join(options.dir, `${node.name}.log`))}`);
        if (Date.now() > deadline) throw new Error(`${node.name} was not healthy in time: see ${join(options.dir, `${node.name}.log`)}`);
        await new Promise((wake) => setTimeout(wake, 100));
      }
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
