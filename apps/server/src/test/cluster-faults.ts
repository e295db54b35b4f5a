import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Client, type IMessage } from '@stomp/stompjs';
import SockJS from 'sockjs-client';
import { deviceType, mapDestination, percentToLevel, REALTIME_ENDPOINT, type GatewayDevice } from '@lumigrid/contract';
import { fleetMac } from '@lumigrid/gateway-sim';
import { openDatabase } from '../db/client.ts';
import { freePort } from '../lib/free-port.ts';
import { runPrefix } from './gateway-link.fixtures.ts';
import { startLocalCluster, type LocalCluster } from './local-cluster.ts';
import { poll } from './poll.ts';
import { PROVISION_BUNDLE, SERVER_BUNDLE } from './server-process.ts';
import { lossyLinkSupport, type LinkFaults } from './lossy-link.fixtures.ts';
import {
  adminQuery,
  apiClient,
  quantile,
  runCleanups,
  startFaultyLinks,
  startGatewayGroup,
  storedReportCounts,
  type FaultyLink,
  type GatewayGroup,
} from './wire-faults.ts';
import type { WireGatewayLine } from './wire-gateways.ts';

const ADMIN_PASSWORD = 'Cluster-Faults-2026';
const SERVER_DIR = resolve(import.meta.dirname, '../..');
/** The longest a client may be off the map topic after a kill. */
export const RECONNECT_LIMIT_MS = 10_000;

export interface ClusterFaultOptions {
  /** Simulated gateways, spread over the broker nodes. */
  gateways: number;
  /** Device control calls per second through HAProxy, over every phase. */
  commandsPerSecond: number;
  /** How long each phase lasts (s). */
  phaseSeconds: number;
  /** How often each gateway makes a change report (ms). */
  changeEveryMs: number;
  /** The PostgreSQL server the run makes (and drops) its database on. */
  databaseUrl: string;
  /**
   * Every reported state kept (HISTORY_HEARTBEAT_MINUTES 0) instead of the product's default change-only history,
   * where a state equal to the device's last history row is left out. Each report the run counts is a change, so
   * either way each must be found.
   */
  everyState?: boolean;
  /** Leaves the run's database for a look afterwards. */
  keepDatabase?: boolean;
  /**
   * The gateways behind faulty links (wire-faults.ts): `count` network namespaces, the gateways spread over them,
   * each reaching every broker node through its link; the faults are on through all six phases (needs root).
   */
  links?: { count: number; faults: LinkFaults };
  log?: (line: string) => void;
}

export type PhaseName = 'steady' | 'node killed' | 'one node down' | 'broker node killed' | 'restarting both' | 'steady again';
/** Periods without a fault starting or ending in them: every report of theirs must be stored. */
export const FAULT_FREE: readonly PhaseName[] = ['steady', 'one node down', 'steady again'];
/**
 * Reports sent this soon before a kill may still be in the killed node's memory: core NATS hands a message to one
 * node without an acknowledgement, and a node killed loses what it had not handled (docs/decisions.md, "A NATS
 * cluster as the broker"). They are counted apart from their period's.
 */
export const IN_FLIGHT_AT_KILL_MS = 2000;

export interface PhaseFigures {
  name: PhaseName;
  seconds: number;
  commands: {
    sent: number;
    acknowledged: number;
    failures: Record<string, number>;
    p50Ms: number;
    p99Ms: number;
    /** As the run's totals (ClusterFaultFigures.commands), for the calls sent in this phase. */
    acknowledgedNotRun: number;
    runMoreThanOnce: number;
    runThoughFailed: number;
  };
  /** Gateways the API stopped showing online in the phase (polled every second through HAProxy). */
  wentOffline: number;
  /**
   * Change reports the broker acknowledged to a gateway in the phase, against the history's rows for them;
   * `lostInFlight`: of the lost, those sent within IN_FLIGHT_AT_KILL_MS before the kill that ended the phase.
   */
  reports: { acknowledged: number; stored: number; lost: number; lostInFlight: number; duplicated: number };
}

export interface KillFigures {
  what: string;
  /** Whether the STOMP client's socket closed (it was on the node killed). */
  clientDropped: boolean;
  /** From the kill until the client was subscribed to the map topic again (ms; 0 when it kept its socket). */
  backOnTopicMs: number | undefined;
  /** From the kill to the first map-topic message the client received after it (ms): how long the map stood still. */
  firstMessageMs: number | undefined;
}

export interface ClusterFaultFigures {
  gateways: number;
  devicesControlled: number;
  phases: PhaseFigures[];
  commands: {
    sent: number;
    acknowledged: number;
    /** Acknowledged by the API (2xx, code 0) yet carried out by no device. */
    acknowledgedNotRun: number;
    /** Carried out more often than it was sent. */
    runMoreThanOnce: number;
    /** Carried out though the API answered a failure (allowed: the caller was told it may not have happened). */
    runThoughFailed: number;
  };
  kills: KillFigures[];
  /**
   * From the restart of the killed nodes until: the server node is in HAProxy's rotation, the broker node serves
   * (its JetStream current with the meta leader), its every stream and consumer is current (ms; undefined: not
   * by the end of the run).
   */
  restart: { nodeServingMs?: number; brokerServingMs?: number; brokerCurrentMs?: number };
  connectionsLost: number;
  /** The faulty links the gateways were behind, when asked for; packets the userspace links dropped on purpose. */
  links?: { kind: 'netem' | 'userspace'; count: number; faults: LinkFaults; packetsDropped: number };
  load: { before: number; after: number };
  /** The rules the run checks, each with whether it held. */
  rules: Array<{ rule: string; held: boolean }>;
  logs: string;
  /** The run's database, when kept. */
  database: string | undefined;
  /** A few reports of the fault-free periods not stored, as mac/addr/ts. */
  lostSamples: string[];
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

interface SentCommand {
  phase: PhaseName;
  key: string;
  sentAt: number;
  /** 'ok' when the API acknowledged it, else the failure (HTTP status or envelope code). */
  outcome?: string;
  latencyMs?: number;
}

/**
 * A STOMP client through HAProxy on a map topic that reconnects at once when its socket closes, as the web app
 * does; it keeps when each map message arrived and when each socket closed.
 */
function mapTopicWatcher(url: string, token: string, mapId: string) {
  const messages: number[] = [];
  const closes: number[] = [];
  const subscriptions: number[] = [];
  let subscribed = false;
  const client = new Client({
    webSocketFactory: () => new SockJS(url, undefined, { transports: ['websocket'] }),
    connectHeaders: { Authorization: `Bearer ${token}` },
    reconnectDelay: 200,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    debug: () => undefined,
  });
  client.onConnect = () => {
    const receipt = `map-${Date.now()}`;
    client.watchForReceipt(receipt, () => {
      subscribed = true;
      subscriptions.push(Date.now());
    });
    client.subscribe(mapDestination(mapId), (_message: IMessage) => void messages.push(Date.now()), { receipt });
  };
  client.onWebSocketClose = () => {
    if (subscribed) closes.push(Date.now());
    subscribed = false;
  };
  client.activate();
  return {
    subscribed: () => subscribed,
    /** Whether the socket closed after `at`, when it was subscribed again, and when the first message after `at` came. */
    since(at: number) {
      const dropped = closes.some((t) => t >= at);
      return { dropped, subscribed: dropped ? subscriptions.find((t) => t >= at) : at, firstMessage: messages.find((t) => t >= at) };
    },
    stop: () => client.deactivate(),
  };
}

/**
 * The cluster under faults: three server nodes behind HAProxy, the NATS cluster, PostgreSQL, simulated gateways
 * spread over the broker nodes, a STOMP client on the map topic and a stream of device control calls through
 * HAProxy, while one server node and then one broker node are killed (SIGKILL) and both restarted. Answers what
 * the API acknowledged against what the devices ran, the reports stored, and how soon the client was back.
 * Removes its database and processes, also when it fails.
 */
export async function runClusterFaults(options: ClusterFaultOptions): Promise<ClusterFaultFigures> {
  const log = options.log ?? (() => undefined);
  const cleanups: Array<() => unknown> = [];
  const loadBefore = loadavg()[0]!;
  try {
    // --- database, gateways' credentials, cluster ------------------------------------------------------------
    const prefix = runPrefix();
    const secret = randomBytes(12).toString('hex');
    const macs = Array.from({ length: options.gateways }, (_, i) => fleetMac(prefix, i + 1));
    const dbName = `lumigrid_faults_${randomBytes(6).toString('hex')}`;
    await adminQuery(options.databaseUrl, `create database ${dbName}`);
    if (!options.keepDatabase)
      cleanups.push(() => adminQuery(options.databaseUrl, `drop database if exists ${dbName} with (force)`).catch(() => undefined));
    const dbUrl = new URL(options.databaseUrl);
    dbUrl.pathname = `/${dbName}`;
    const databaseUrl = dbUrl.toString();
    // Migrates the new database before the first node reads it.
    execFileSync(process.execPath, [PROVISION_BUNDLE, ...macs, '--secret', secret], {
      env: { ...process.env, DATABASE_URL: databaseUrl, MODE: 'server' },
      stdio: 'pipe',
    });
    const cluster: LocalCluster = await startLocalCluster({
      nodes: 3,
      host: '127.0.0.1',
      port: await freePort(),
      broker: 'nats',
      databaseUrl,
      bundle: SERVER_BUNDLE,
      env: {
        ...process.env,
        ADMIN_PASSWORD,
        // vitest sets MODE=test for itself; the platform's MODE is saas or server.
        MODE: 'server',
        DEMO: 'off',
        WEB_DIST: resolve(SERVER_DIR, 'src/test/fixtures/no-web'),
        DRAIN_GRACE_MS: '2000',
        ...(options.everyState ? { HISTORY_HEARTBEAT_MINUTES: '0' } : {}),
      },
      log,
    });
    cleanups.push(() => cluster.stop());
    const nats = cluster.nats!;
    log(`cluster ready at ${cluster.url}; logs in ${cluster.dir}`);

    // --- gateways on the broker nodes, bound to the map, devices imported and placed -----------------------
    const api = await apiClient(cluster.url, ADMIN_PASSWORD);
    const lines: WireGatewayLine[] = [];
    const brokers = nats.nodes.map((node) => node.mqttUrl);
    let links: FaultyLink[] = [];
    const linkSupport = options.links ? lossyLinkSupport() : undefined;
    if (options.links && linkSupport) {
      if (linkSupport.kind === 'none') throw new Error(`no faulty links on this machine: ${linkSupport.reason}`);
      links = await startFaultyLinks({ count: options.links.count, support: linkSupport, brokers, cleanups });
      // Ctrl-C ends the run by process.exit: the socats and gateways get the signal too, the namespaces stay.
      const removeNamespaces = () => {
        for (const link of links) spawnSync('ip', ['netns', 'del', link.namespace.name]);
      };
      process.on('exit', removeNamespaces);
      cleanups.push(() => process.off('exit', removeNamespaces));
      log(`${links.length} namespaces behind ${linkSupport.kind} links, each reaching the ${brokers.length} broker nodes`);
    }
    const groupCount = links.length || brokers.length;
    const perGroup = Math.ceil(options.gateways / groupCount);
    const groups: GatewayGroup[] = [];
    for (let g = 0; g * perGroup < options.gateways; g++) {
      const link = links[g];
      const urls = link ? link.brokerUrls : brokers;
      // As a fleet is configured: every node listed, each group starting at another one.
      const start = g % urls.length;
      const url = [...urls.slice(start), ...urls.slice(0, start)].join(',');
      const first = g * perGroup + 1;
      const count = Math.min(perGroup, options.gateways - g * perGroup);
      groups.push(
        startGatewayGroup(
          link ? { name: link.namespace.name, namespace: link.namespace } : { name: `gateways-${g + 1}` },
          { url, macPrefix: prefix, first, count, secret, changeEveryMs: options.changeEveryMs },
          (line) => lines.push(line),
          log,
        ),
      );
    }
    // However this process ends, the gateways end with it (the cluster does the same for its processes).
    const killGroups = () => {
      for (const group of groups) if (group.child.exitCode === null) group.child.kill('SIGKILL');
    };
    process.on('exit', killGroups);
    cleanups.push(async () => {
      killGroups();
      process.off('exit', killGroups);
      await Promise.all(groups.map((group) => group.stopped));
    });
    const connected = () => new Set(lines.flatMap((l) => (l.t === 'online' ? [l.mac] : []))).size;
    // Behind the userspace links every packet of the connects passes through this process's event loop as well.
    const connectMs = links.length ? 300_000 : 120_000;
    await poll(() => connected() === macs.length, 'every gateway to connect', { timeoutMs: connectMs, everyMs: 200 }).catch(() => {
      throw new Error(`${connected()} of ${macs.length} gateways connected in ${connectMs / 1000} s`);
    });
    // Setting up is not under test: with every gateway just connected, all three nodes once answered /healthz
    // later than HAProxy waits and it had no node to send to (503); such a call is made again.
    const setUp = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await api.data(method, path, body);
        } catch (error) {
          if (attempt === 10) throw error;
          log(`${method} ${path}: ${(error as Error).message.slice(0, 120)}, trying again`);
          await sleep(2000);
        }
      }
    };
    const macOfGateway = new Map<string, string>();
    for (const mac of macs) macOfGateway.set(String((await setUp('POST', '/api4/gateway/v1/move', { mac, mapId: api.mapId })).id), mac);
    await poll(async () => (await api.onlineMacs()).size === macs.length, 'every gateway online in the API', {
      timeoutMs: 120_000,
      everyMs: 500,
    });
    const devices: GatewayDevice[] = [];
    for (const gatewayId of macOfGateway.keys()) {
      // The import asks the gateway for its devices; on a machine this busy, with every gateway just connected,
      // the answer may come late, and a person tries again.
      for (let attempt = 1; ; attempt++) {
        const answer = await api.call('GET', `/api4/gateway/v1/import/${gatewayId}`).catch((error: Error) => ({ code: error.message }));
        if (answer.code === 0) break;
        if (attempt === 10) throw new Error(`gateway ${macOfGateway.get(gatewayId)}: its devices could not be imported (${answer.code})`);
        log(`gateway ${macOfGateway.get(gatewayId)}: import answered ${answer.code}, trying again`);
        await sleep(2000);
      }
      devices.push(...((await setUp('GET', `/api4/gateway/v1/devices/outmap/${api.mapId}/${gatewayId}`)) as unknown as GatewayDevice[]));
    }
    const side = Math.ceil(Math.sqrt(devices.length));
    const placements = devices.map((d, i) => ({ id: d.id, x: ((i % side) + 0.5) / side, y: (Math.floor(i / side) + 0.5) / side }));
    for (let i = 0; i < placements.length; i += 5000)
      await setUp('POST', '/api4/device/v1/move_in', { mapId: api.mapId, devices: placements.slice(i, i + 5000) });
    const targets = devices.filter((d) => deviceType(d.type)?.dimmable);
    if (targets.length === 0) throw new Error('no dimmable device to control');
    log(`${macs.length} gateways on ${brokers.length} broker nodes, ${devices.length} devices placed, ${targets.length} dimmable`);

    // --- the client on the map topic --------------------------------------------------------------------------
    const watcher = mapTopicWatcher(`${cluster.url}${REALTIME_ENDPOINT}`, api.token, api.mapId);
    cleanups.push(() => watcher.stop());
    await poll(() => watcher.subscribed(), 'the STOMP client on the map topic', { timeoutMs: 30_000, everyMs: 100 });
    // The node holding the client's WebSocket: the one with a session open while nothing else is in flight.
    let clientNode: string | undefined;
    await poll(
      async () => {
        const held = [...(await cluster.backendView())].filter(([, view]) => view.sessions > 0).map(([name]) => name);
        clientNode = held.length === 1 ? held[0] : undefined;
        return clientNode !== undefined;
      },
      "the node holding the client's socket",
      { timeoutMs: 10_000, everyMs: 200 },
    );

    // --- the faults on the links, presence through the API -----------------------------------------------------
    if (options.links) {
      for (const link of links) link.namespace.setFaults(options.links.faults);
      log(`faults on every link: ${JSON.stringify(options.links.faults)}`);
    }
    const wentOffline: number[] = [];
    let watchingPresence = true;
    const presence = (async () => {
      let online = await api.onlineMacs().catch(() => new Set<string>());
      while (watchingPresence) {
        await sleep(1000);
        // A call HAProxy could not place (a node just killed) says nothing of the gateways.
        const now = await api.onlineMacs().catch(() => online);
        for (const mac of online) if (!now.has(mac)) wentOffline.push(Date.now());
        online = now;
      }
    })();

    // --- the command stream and the phases ------------------------------------------------------------------
    let phase: PhaseName = 'steady';
    const phaseTimes: Array<{ name: PhaseName; from: number; to: number }> = [];
    const sent: SentCommand[] = [];
    const calls: Array<Promise<void>> = [];
    const perDevice = new Map<string, number>();
    let streaming = true;
    const stream = (async () => {
      const started = Date.now();
      for (let n = 0; streaming; n++) {
        const due = started + (n * 1000) / options.commandsPerSecond;
        if (due > Date.now()) await sleep(due - Date.now());
        if (!streaming) break;
        const device = targets[n % targets.length]!;
        // Each call to a device asks for another level, so what a device ran tells which call it was.
        const round = perDevice.get(device.id) ?? 0;
        perDevice.set(device.id, round + 1);
        const percent = 1 + (round % 100);
        const command: SentCommand = {
          phase,
          key: `${macOfGateway.get(device.gatewayId)}/${device.addr}/${percentToLevel(percent)}`,
          sentAt: Date.now(),
        };
        sent.push(command);
        calls.push(
          fetch(`${cluster.url}/api4/device/v1/control`, {
            method: 'POST',
            headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ id: device.id, action: { op: 'brightness', percent } }),
            signal: AbortSignal.timeout(60_000),
          }).then(
            async (res) => {
              const body = (await res.json().catch(() => undefined)) as { code?: number } | undefined;
              command.outcome = res.ok && body?.code === 0 ? 'ok' : res.ok ? `code ${body?.code}` : `HTTP ${res.status}`;
              command.latencyMs = Date.now() - command.sentAt;
            },
            (error: Error) => void (command.outcome = error.name),
          ),
        );
      }
    })();
    const runPhase = async (name: PhaseName, action?: () => Promise<void>) => {
      phase = name;
      const from = Date.now();
      await action?.();
      await sleep(Math.max(0, from + options.phaseSeconds * 1000 - Date.now()));
      phaseTimes.push({ name, from, to: Date.now() });
      log(`${name}: ${((Date.now() - from) / 1000).toFixed(1)} s`);
    };
    const killedNode = clientNode!;
    const killedBroker = nats.nodes[0]!;
    const kills: Array<{ what: string; at: number }> = [];
    const restart: ClusterFaultFigures['restart'] = {};
    await runPhase('steady');
    await runPhase('node killed', async () => {
      kills.push({ what: `server ${killedNode} (the client's)`, at: Date.now() });
      cluster.node(killedNode).child.kill('SIGKILL');
      await cluster.node(killedNode).exited;
    });
    await runPhase('one node down');
    await runPhase('broker node killed', async () => {
      kills.push({ what: `broker ${killedBroker.name}`, at: Date.now() });
      killedBroker.process!.kill('SIGKILL');
      await killedBroker.exited();
    });
    await runPhase('restarting both', async () => {
      const from = Date.now();
      const since = () => Date.now() - from;
      await Promise.all([
        killedBroker.start().then(async () => {
          await poll(() => killedBroker.healthy('server'), `${killedBroker.name} serving`, { timeoutMs: 60_000, everyMs: 200 }).then(
            () => (restart.brokerServingMs = since()),
            () => undefined,
          );
          // Its streams' and consumers' replicas catch up meanwhile; how long that takes is a figure, not a wait.
          void (async () => {
            while (streaming && !(await killedBroker.healthy())) await sleep(500);
            if (streaming) restart.brokerCurrentMs = since();
          })();
        }),
        cluster.startNode(killedNode).then(async () => {
          if (await cluster.inRotation(killedNode)) restart.nodeServingMs = since();
        }),
      ]);
    });
    await runPhase('steady again');
    streaming = false;
    await stream;
    await Promise.all(calls);
    watchingPresence = false;
    await presence;
    const packetsDropped = links.reduce((sum, link) => sum + link.namespace.dropped(), 0);
    // What the gateways still hold goes out over clean links, as in the run without them.
    for (const link of links) link.namespace.setFaults(undefined);

    // --- what the gateways ran and the database holds --------------------------------------------------------
    const phaseOf = (ts: number) => phaseTimes.find((p) => ts >= p.from && ts < p.to)?.name;
    for (const group of groups) group.child.stdin!.write('quiet\n');
    await poll(() => groups.every((group) => group.drained), 'every gateway to have sent what it made', {
      timeoutMs: 120_000,
      everyMs: 200,
    });
    const reported = lines.flatMap((l) =>
      l.t === 'report' ? [{ key: `${l.mac}/${l.addr}/${l.ts}`, ts: l.ts, phase: phaseOf(l.ts) }] : [],
    );
    const database = await openDatabase({ url: databaseUrl });
    let stored = new Map<string, number>();
    try {
      // The nodes store what the broker holds for them at their pace: wait until the fault-free reports are in.
      const faultFreeKeys = reported.filter((r) => r.phase && FAULT_FREE.includes(r.phase)).map((r) => r.key);
      await poll(
        async () => {
          stored = await storedReportCounts(database.db);
          return faultFreeKeys.every((key) => stored.has(key));
        },
        'the fault-free reports stored',
        { timeoutMs: 30_000, everyMs: 1000 },
      ).catch(() => undefined);
      stored = await storedReportCounts(database.db);
    } finally {
      await database.close();
    }
    for (const group of groups) group.child.stdin!.write('stop\n');
    await Promise.all(groups.map((group) => group.stopped));
    const ran = new Map<string, number>();
    for (const final of groups.flatMap((group) => group.finals))
      for (const execution of Object.values(final.executions)) {
        if (execution.name !== 'device.control') continue;
        const params = execution.params as { addr: string; action: { level?: number } };
        const key = `${final.mac}/${params.addr}/${params.action.level}`;
        ran.set(key, (ran.get(key) ?? 0) + execution.count);
      }

    // --- figures ------------------------------------------------------------------------------------------------
    const sentByKey = new Map<string, SentCommand[]>();
    for (const command of sent) sentByKey.set(command.key, [...(sentByKey.get(command.key) ?? []), command]);
    // Counted per phase: a key whose calls fall in two phases (a device asked for the same level again a hundred
    // calls later) counts in the first one's.
    const outcomes = new Map<PhaseName, { acknowledgedNotRun: number; runMoreThanOnce: number; runThoughFailed: number }>();
    for (const [key, commands] of sentByKey) {
      const times = ran.get(key) ?? 0;
      const acknowledged = commands.filter((c) => c.outcome === 'ok').length;
      const of = outcomes.get(commands[0]!.phase) ?? { acknowledgedNotRun: 0, runMoreThanOnce: 0, runThoughFailed: 0 };
      of.acknowledgedNotRun += Math.max(0, acknowledged - times);
      of.runMoreThanOnce += Math.max(0, times - commands.length);
      of.runThoughFailed += Math.max(0, Math.min(times, commands.length) - acknowledged);
      outcomes.set(commands[0]!.phase, of);
    }
    const total = (field: 'acknowledgedNotRun' | 'runMoreThanOnce' | 'runThoughFailed') =>
      [...outcomes.values()].reduce((sum, of) => sum + of[field], 0);
    const acknowledgedNotRun = total('acknowledgedNotRun');
    const runMoreThanOnce = total('runMoreThanOnce');
    const runThoughFailed = total('runThoughFailed');
    const phases: PhaseFigures[] = phaseTimes.map((p) => {
      const commands = sent.filter((c) => c.phase === p.name);
      const latencies = commands.flatMap((c) => (c.outcome === 'ok' ? [c.latencyMs!] : [])).sort((a, b) => a - b);
      const failures: Record<string, number> = {};
      for (const c of commands)
        if (c.outcome !== 'ok') failures[c.outcome ?? 'unanswered'] = (failures[c.outcome ?? 'unanswered'] ?? 0) + 1;
      const ofPhase = reported.filter((r) => r.phase === p.name);
      const keys = new Set(ofPhase.map((r) => r.key));
      const counts = [...keys].map((key) => stored.get(key) ?? 0);
      const killed = kills.some((kill) => kill.at >= p.to && kill.at - p.to < 1000);
      const lostInFlight = new Set(
        ofPhase.filter((r) => killed && r.ts >= p.to - IN_FLIGHT_AT_KILL_MS && !stored.has(r.key)).map((r) => r.key),
      ).size;
      return {
        name: p.name,
        seconds: (p.to - p.from) / 1000,
        commands: {
          sent: commands.length,
          acknowledged: latencies.length,
          failures,
          p50Ms: quantile(latencies, 0.5),
          p99Ms: quantile(latencies, 0.99),
          ...(outcomes.get(p.name) ?? { acknowledgedNotRun: 0, runMoreThanOnce: 0, runThoughFailed: 0 }),
        },
        wentOffline: wentOffline.filter((t) => t >= p.from && t < p.to).length,
        reports: {
          acknowledged: keys.size,
          stored: counts.filter((n) => n > 0).length,
          lost: counts.filter((n) => n === 0).length,
          lostInFlight,
          duplicated: counts.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
        },
      };
    });
    const killFigures = kills.map((kill) => {
      const seen = watcher.since(kill.at);
      const after = (t: number | undefined) => (t === undefined ? undefined : t - kill.at);
      return {
        what: kill.what,
        clientDropped: seen.dropped,
        backOnTopicMs: after(seen.subscribed),
        firstMessageMs: after(seen.firstMessage),
      };
    });
    const acknowledged = sent.filter((c) => c.outcome === 'ok').length;
    const lostSamples = reported
      .filter(
        (r) =>
          r.phase &&
          FAULT_FREE.includes(r.phase) &&
          !stored.has(r.key) &&
          !kills.some((k) => r.ts >= k.at - IN_FLIGHT_AT_KILL_MS && r.ts < k.at),
      )
      .slice(0, 5)
      .map((r) => r.key);
    const faultFreeLost = phases
      .filter((p) => FAULT_FREE.includes(p.name))
      .reduce((sum, p) => sum + p.reports.lost - p.reports.lostInFlight, 0);
    return {
      gateways: macs.length,
      devicesControlled: targets.length,
      phases,
      commands: { sent: sent.length, acknowledged, acknowledgedNotRun, runMoreThanOnce, runThoughFailed },
      kills: killFigures,
      restart,
      connectionsLost: lines.filter((l) => l.t === 'lost').length,
      links:
        options.links && linkSupport && linkSupport.kind !== 'none'
          ? { kind: linkSupport.kind, count: links.length, faults: options.links.faults, packetsDropped }
          : undefined,
      load: { before: loadBefore, after: loadavg()[0]! },
      rules: [
        { rule: 'no acknowledged command lost', held: acknowledgedNotRun === 0 },
        { rule: 'no command run twice', held: runMoreThanOnce === 0 },
        {
          rule: `every report of the fault-free periods stored (but those sent in the ${IN_FLIGHT_AT_KILL_MS / 1000} s before a kill)`,
          held: faultFreeLost === 0,
        },
        {
          rule: 'the killed server node and broker node serve again',
          held: restart.nodeServingMs !== undefined && restart.brokerServingMs !== undefined,
        },
        {
          rule: `the client back on the map topic within ${RECONNECT_LIMIT_MS / 1000} s of each kill`,
          held: killFigures.every((k) => k.backOnTopicMs !== undefined && k.backOnTopicMs <= RECONNECT_LIMIT_MS),
        },
      ],
      logs: cluster.dir,
      database: options.keepDatabase ? databaseUrl : undefined,
      lostSamples,
    };
  } finally {
    await runCleanups(cleanups, log);
  }
}
