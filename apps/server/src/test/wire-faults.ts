import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fleetMac } from '@lumigrid/gateway-sim';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { runPrefix } from './gateway-link.fixtures.ts';
import {
  createGatewayNamespace,
  lossyLinkSupport,
  type GatewayNamespace,
  type LinkFaults,
  type LinkSupport,
} from './lossy-link.fixtures.ts';
import { freePort } from '../lib/free-port.ts';
import { poll } from './poll.ts';
import { PROVISION_BUNDLE, startServerProcess } from './server-process.ts';
import type { WireGatewayLine, WireGatewayOptions } from './wire-gateways.ts';

const SERVER_DIR = resolve(import.meta.dirname, '../..');
const GATEWAYS_PROGRAM = resolve(import.meta.dirname, 'wire-gateways.ts');
const ADMIN_PASSWORD = 'Wire-Faults-2026';

export interface WireFaultOptions {
  /** Network namespaces, each behind its own faulty link. */
  links: number;
  gatewaysPerLink: number;
  /** Identify commands sent through the HTTP API while the faults are on, per second over all gateways. */
  commandsPerSecond: number;
  /** How long the faults stay on (s). */
  faultSeconds: number;
  /**
   * An outage inside the faults: every packet dropped for this long (s), from the middle of the fault window.
   * Offline changes after it began are counted apart, since they are true.
   */
  outageSeconds?: number;
  /** How often each gateway makes a change report (ms). */
  changeEveryMs: number;
  faults: LinkFaults;
  /** PostgreSQL server to make the run's database in; PGlite in a temporary folder without it. */
  databaseUrl?: string;
  /** A PostgreSQL database made for the run (a test's copy of the migrated template), used as it is. */
  runDatabaseUrl?: string;
  /** An external broker (anonymous, as the machine's Mosquitto); the server's embedded one without it. */
  mqttUrl?: string;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Ends the run early; everything it made is removed all the same. */
  signal?: AbortSignal;
}

export interface WireFaultFigures {
  linkKind: 'netem' | 'userspace';
  gateways: number;
  commands: { sent: number; succeeded: number; failures: Record<string, number>; p50Ms: number; p99Ms: number };
  /** What the gateways carried out: commands by name, and how many of them more than once. */
  executions: { byName: Record<string, number>; runMoreThanOnce: number };
  /** Device states in change reports the broker acknowledged, against the history's rows for them. */
  reports: { acknowledged: number; stored: number; lost: number; duplicated: number };
  /** Offline seen through the API while the links were only lossy; connections the gateways lost meanwhile. */
  presence: { offlineChanges: number; connectionsLost: number; offlineChangesAfterOutage: number };
  /** From taking the faults off until every gateway is online with its queue empty (ms). */
  convergenceMs: number;
  /** Devices whose stored current state differs from the gateway's at the end. */
  statesDiffering: number;
  /** Packets the userspace links dropped on purpose. */
  packetsDropped: number;
  load: { before: number; after: number };
}

/** Undoes what a run set up, the last first; a step that fails is logged and the others still run. */
export async function runCleanups(cleanups: Array<() => unknown>, log: (line: string) => void): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      log(`cleanup: ${(error as Error).message}`);
    }
  }
}

/** The q-quantile of sorted numbers. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** A group of gateways as a child process (inside its namespace when its link is faulty). */
export interface GatewayGroup {
  child: ChildProcess;
  finals: Array<Extract<WireGatewayLine, { t: 'final' }>>;
  /** Its gateways make no more changes and have sent everything they made. */
  drained: boolean;
  stopped: Promise<void>;
}

/**
 * Gateways behind faulty links, a server as production runs it and a command stream through its API; answers what
 * arrived, what ran, what the server showed and how soon it all agreed once the faults were gone. Removes every
 * namespace, link, process and database it made, also when it fails or is aborted.
 */
export async function runWireFaults(options: WireFaultOptions): Promise<WireFaultFigures> {
  const log = options.log ?? (() => undefined);
  const support = lossyLinkSupport();
  if (support.kind === 'none') throw new Error(`no faulty links on this machine: ${support.reason}`);
  const cleanups: Array<() => unknown> = [];
  const aborted = () => {
    if (options.signal?.aborted) throw new Error('the fault run was stopped');
  };
  const loadBefore = loadavg()[0]!;
  try {
    // --- the server, its database and broker -----------------------------------------------------------------
    const prefix = runPrefix();
    const secret = randomBytes(12).toString('hex');
    const count = options.links * options.gatewaysPerLink;
    const macs = Array.from({ length: count }, (_, i) => fleetMac(prefix, i + 1));
    const database: Record<string, string> = {};
    if (options.runDatabaseUrl) {
      database.DATABASE_URL = options.runDatabaseUrl;
    } else if (options.databaseUrl) {
      const name = `lumigrid_wire_${randomBytes(6).toString('hex')}`;
      await adminQuery(options.databaseUrl, `create database ${name}`);
      cleanups.push(() => adminQuery(options.databaseUrl!, `drop database if exists ${name} with (force)`).catch(() => undefined));
      const url = new URL(options.databaseUrl);
      url.pathname = `/${name}`;
      database.DATABASE_URL = url.toString();
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'lumigrid-wire-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      database.DATA_DIR = dir;
    }
    // Before the server: PGlite takes one process at a time. It migrates a new database too.
    execFileSync(process.execPath, [PROVISION_BUNDLE, ...macs, '--secret', secret], {
      env: { ...process.env, ...database, MODE: 'server' },
      stdio: 'pipe',
    });
    const brokerPort = options.mqttUrl ? Number(new URL(options.mqttUrl).port || 1883) : await freePort();
    const brokerHost = options.mqttUrl ? new URL(options.mqttUrl).hostname : '127.0.0.1';
    aborted();
    const server = await startServerProcess({
      ...database,
      ...(options.mqttUrl
        ? { MQTT_URL: options.mqttUrl, MQTT_SHARED_GROUP: `lumigrid-wire-${prefix}` }
        : { MQTT_PORT: String(brokerPort) }),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
    });
    cleanups.push(async () => {
      if (server.running()) server.kill('SIGKILL');
      await server.exited;
    });
    const api = await apiClient(server.url, ADMIN_PASSWORD);
    log(`server on ${server.url} (${database.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${options.mqttUrl ?? 'embedded broker'})`);

    // --- namespaces, links and gateways ------------------------------------------------------------------------
    const links = await startFaultyLinks({
      count: options.links,
      support,
      brokers: [`mqtt://${brokerHost}:${brokerPort}`],
      cleanups,
      aborted,
    });
    const namespaces = links.map((link) => link.namespace);
    log(`${options.links} namespaces (${support.kind} links), ${count} gateways`);
    const lines: WireGatewayLine[] = [];
    const groups = links.map(({ namespace: ns, brokerUrls }, i) =>
      startGatewayGroup(
        { name: ns.name, namespace: ns },
        {
          url: brokerUrls[0]!,
          macPrefix: prefix,
          first: i * options.gatewaysPerLink + 1,
          count: options.gatewaysPerLink,
          secret,
          changeEveryMs: options.changeEveryMs,
        },
        (line) => lines.push(line),
        log,
      ),
    );
    cleanups.push(async () => {
      for (const group of groups) if (group.child.exitCode === null) group.child.kill('SIGKILL');
      await Promise.all(groups.map((group) => group.stopped));
    });
    const gatewayIds = new Map<string, string>();
    await poll(() => macs.every((mac) => lines.some((l) => l.t === 'online' && l.mac === mac)), 'every gateway to connect', {
      timeoutMs: 60_000,
      everyMs: 100,
    });
    for (const mac of macs) gatewayIds.set(mac, String((await api.data('POST', '/api4/gateway/v1/move', { mac, mapId: api.mapId })).id));
    await poll(async () => (await api.onlineMacs()).size === count, 'every gateway online in the API', { timeoutMs: 60_000, everyMs: 200 });

    // --- faults on, commands through the API ----------------------------------------------------------------------
    for (const ns of namespaces) ns.setFaults(options.faults);
    const connectionsLostBefore = lines.filter((l) => l.t === 'lost').length;
    log(`faults on for ${options.faultSeconds} s, ${options.commandsPerSecond} commands/s`);
    let offlineChanges = 0;
    let offlineChangesAfterOutage = 0;
    let outageBegan = false;
    let watching = true;
    const watcher = (async () => {
      let online = await api.onlineMacs();
      while (watching) {
        await sleep(500);
        const now = await api.onlineMacs().catch(() => online);
        const went = [...online].filter((mac) => !now.has(mac)).length;
        if (outageBegan) offlineChangesAfterOutage += went;
        else offlineChanges += went;
        online = now;
      }
    })();
    const outageMs = (options.outageSeconds ?? 0) * 1000;
    const outage = (async () => {
      if (outageMs === 0) return;
      await sleep(Math.max(0, (options.faultSeconds * 1000 - outageMs) / 2));
      outageBegan = true;
      log(`outage: every packet dropped for ${options.outageSeconds} s`);
      for (const ns of namespaces) ns.setFaults({ ...options.faults, lossPercent: 100 });
      await sleep(outageMs);
      for (const ns of namespaces) ns.setFaults(options.faults);
      log('outage over');
    })();
    const latencies: number[] = [];
    const failures: Record<string, number> = {};
    const calls: Array<Promise<void>> = [];
    const started = Date.now();
    const total = Math.round(options.commandsPerSecond * options.faultSeconds);
    for (let n = 0; n < total; n++) {
      aborted();
      const due = started + (n * 1000) / options.commandsPerSecond;
      if (due > Date.now()) await sleep(due - Date.now());
      const id = gatewayIds.get(macs[n % count]!)!;
      const sentAt = Date.now();
      calls.push(
        api.call('GET', `/api4/gateway/v1/tryme/${id}`).then(
          (answer) => {
            if (answer.code === 0) latencies.push(Date.now() - sentAt);
            else failures[String(answer.code)] = (failures[String(answer.code)] ?? 0) + 1;
          },
          (error: Error) => void (failures[error.message] = (failures[error.message] ?? 0) + 1),
        ),
      );
    }
    await Promise.all(calls);
    await outage;
    watching = false;
    await watcher;
    const connectionsLost = lines.filter((l) => l.t === 'lost').length - connectionsLostBefore;

    // --- faults off: convergence -------------------------------------------------------------------------------
    for (const ns of namespaces) ns.setFaults(undefined);
    const clearedAt = Date.now();
    log('faults off; waiting for the gateways and the server to agree');
    for (const group of groups) group.child.stdin!.write('quiet\n');
    await poll(
      async () => groups.every((group) => group.drained) && (await api.onlineMacs()).size === count,
      'every gateway online in the API with its queue empty',
      { timeoutMs: 120_000, everyMs: 200 },
    );
    const convergenceMs = Date.now() - clearedAt;
    for (const group of groups) group.child.stdin!.write('stop\n');
    await Promise.all(groups.map((group) => group.stopped));
    const finals = groups.flatMap((group) => group.finals);
    // The server drains on SIGTERM: what it took is written before it exits.
    server.kill('SIGTERM');
    await server.exited;

    // --- what the database holds ------------------------------------------------------------------------------
    const stored = await storedFigures(database, lines, finals);
    const executions = finals.flatMap((f) => Object.values(f.executions));
    const byName: Record<string, number> = {};
    for (const e of executions) byName[e.name] = (byName[e.name] ?? 0) + 1;
    latencies.sort((a, b) => a - b);
    return {
      linkKind: support.kind,
      gateways: count,
      commands: {
        sent: total,
        succeeded: latencies.length,
        failures,
        p50Ms: quantile(latencies, 0.5),
        p99Ms: quantile(latencies, 0.99),
      },
      executions: { byName, runMoreThanOnce: executions.filter((e) => e.count > 1).length },
      reports: stored.reports,
      presence: { offlineChanges, connectionsLost, offlineChangesAfterOutage },
      convergenceMs,
      statesDiffering: stored.statesDiffering,
      packetsDropped: namespaces.reduce((sum, ns) => sum + ns.dropped(), 0),
      load: { before: loadBefore, after: loadavg()[0]! },
    };
  } finally {
    await runCleanups(cleanups, log);
  }
}

export async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Signs in as the administrator; answers calls with the envelope, and the default map. */
export async function apiClient(baseUrl: string, adminPassword: string) {
  const login = await fetch(`${baseUrl}/api1/user/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: adminPassword }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> };
  }
  async function data(method: 'GET' | 'POST', path: string, body?: unknown) {
    const answer = await call(method, path, body);
    if (answer.code !== 0) throw new Error(`${method} ${path}: ${answer.code} ${answer.msg}`);
    return answer.data;
  }
  const tree = (await data('GET', '/api4/project_user/v1/0/sub_links')) as {
    projects: Array<{ isDefault: boolean; builds: Array<{ maps: Array<{ id: string }> }> }>;
  };
  const mapId = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!.id;
  return {
    token,
    call,
    data,
    mapId,
    /** The MACs the API shows online now. */
    async onlineMacs(): Promise<Set<string>> {
      const macs = new Set<string>();
      for (let page = 1; ; page++) {
        const answer = (await data('GET', `/api4/gateway/v1/gateways?mapId=${mapId}&online=true&page=${page}&pageSize=100`)) as {
          total: number;
          list: Array<{ mac: string }>;
        };
        for (const g of answer.list) macs.add(g.mac);
        if (answer.list.length < 100) return macs;
      }
    },
  };
}

/** A network namespace behind a faulty link, and the addresses its gateways reach each broker (node) at. */
export interface FaultyLink {
  namespace: GatewayNamespace;
  /** `brokers` in their order, each as the namespace reaches it: the host's end of the link, a port forwarded to it. */
  brokerUrls: string[];
}

/**
 * `count` namespaces behind faulty links (no faults on yet: `namespace.setFaults`), each reaching every broker of
 * `brokers` (mqtt://host:port on the host) through a TCP forwarder on the host's end of its link, so every packet
 * between a gateway and its broker crosses the link. What it makes goes on `cleanups` as it is made.
 */
export async function startFaultyLinks(input: {
  count: number;
  support: LinkSupport;
  brokers: string[];
  cleanups: Array<() => unknown>;
  aborted?: () => void;
}): Promise<FaultyLink[]> {
  const targets = input.brokers.map((url) => new URL(url));
  // One port per broker, the same on every link: each link has an address of its own.
  const ports: number[] = [];
  for (const _ of targets) {
    let port = await freePort();
    while (ports.includes(port)) port = await freePort();
    ports.push(port);
  }
  const links: FaultyLink[] = [];
  for (let i = 0; i < input.count; i++) {
    input.aborted?.();
    const namespace = await createGatewayNamespace(i, input.support);
    input.cleanups.push(() => namespace.remove());
    for (const [j, target] of targets.entries()) {
      const forwarder = forwardTcp({
        listen: { host: namespace.hostAddress, port: ports[j]! },
        to: { host: target.hostname, port: Number(target.port || 1883) },
      });
      input.cleanups.push(() => forwarder.close());
      await forwarder.listening;
    }
    links.push({ namespace, brokerUrls: ports.map((port) => `mqtt://${namespace.hostAddress}:${port}`) });
  }
  return links;
}

/** Passes TCP connections on from an address of the host to the broker. */
function forwardTcp(input: { listen: { host: string; port: number }; to: { host: string; port: number } }) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((downstream) => {
    const upstream = connect(input.to.port, input.to.host);
    downstream.setNoDelay(true);
    upstream.setNoDelay(true);
    for (const [a, b] of [
      [downstream, upstream],
      [upstream, downstream],
    ] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  });
  const listening = new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(input.listen.port, input.listen.host, done);
  });
  return {
    listening,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** Starts wire-gateways.ts with `options`, in `group.namespace` when given; its lines go to `onLine`, the rest to `log`. */
export function startGatewayGroup(
  group: { name: string; namespace?: GatewayNamespace },
  options: WireGatewayOptions,
  onLine: (line: WireGatewayLine) => void,
  log: (line: string) => void,
): GatewayGroup {
  const program = [process.execPath, '--import', 'tsx', GATEWAYS_PROGRAM, JSON.stringify(options)];
  const [command, ...args] = group.namespace ? ['ip', 'netns', 'exec', group.namespace.name, ...program] : program;
  const child = spawn(command!, args, { cwd: SERVER_DIR, stdio: ['pipe', 'pipe', 'pipe'] });
  const running: GatewayGroup = { child, finals: [], drained: false, stopped: Promise.resolve() };
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: WireGatewayLine;
    try {
      line = JSON.parse(text) as WireGatewayLine;
    } catch {
      return log(`${group.name}: ${text}`);
    }
    if (line.t === 'final') running.finals.push(line);
    if (line.t === 'drained') running.drained = true;
    onLine(line);
  });
  createInterface({ input: child.stderr! }).on('line', (text) => log(`${group.name}: ${text}`));
  running.stopped = new Promise<void>((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
  });
  return running;
}

/** How many history rows each reported device state has, by `mac/addr/ts` (ts of the report, in ms). */
export async function storedReportCounts(db: Awaited<ReturnType<typeof openDatabase>>['db']): Promise<Map<string, number>> {
  const { rows } = (await db.execute(sql`
    select g.mac, r.addr, (extract(epoch from r.reported_at) * 1000)::bigint::text as ms, count(*)::text as n
    from device_reports r join gateways g on g.id = r.gateway_id group by 1, 2, 3`)) as unknown as {
    rows: Array<{ mac: string; addr: string; ms: string; n: string }>;
  };
  return new Map(rows.map((r) => [`${r.mac}/${r.addr}/${r.ms}`, Number(r.n)]));
}

/** The history's rows for the change reports, and the current states against the gateways' own. */
async function storedFigures(
  database: Record<string, string>,
  lines: WireGatewayLine[],
  finals: Array<Extract<WireGatewayLine, { t: 'final' }>>,
) {
  const opened = await openDatabase(database.DATABASE_URL ? { url: database.DATABASE_URL } : { dataDir: database.DATA_DIR! });
  try {
    const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await opened.db.execute(query)) as unknown as { rows: T[] }).rows;
    const storedKeys = await storedReportCounts(opened.db);
    const states = await rowsOf<{ mac: string; addr: string; state: unknown }>(sql`
      select g.mac, s.addr, s.state from device_states s join gateways g on g.id = s.gateway_id`);
    const acknowledged = new Set(lines.flatMap((l) => (l.t === 'report' ? [`${l.mac}/${l.addr}/${l.ts}`] : [])));
    let lost = 0;
    let duplicated = 0;
    for (const key of acknowledged) {
      const n = storedKeys.get(key) ?? 0;
      if (n === 0) lost++;
      if (n > 1) duplicated += n - 1;
    }
    const stateOf = new Map(states.map((s) => [`${s.mac}/${s.addr}`, JSON.stringify(canonical(s.state))]));
    let statesDiffering = 0;
    for (const f of finals)
      for (const [addr, state] of Object.entries(f.states))
        if (stateOf.get(`${f.mac}/${addr}`) !== JSON.stringify(canonical(state))) statesDiffering++;
    return { reports: { acknowledged: acknowledged.size, stored: acknowledged.size - lost, lost, duplicated }, statesDiffering };
  } finally {
    await opened.close();
  }
}

/** An object with its keys sorted (jsonb does not keep the gateway's order). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}
