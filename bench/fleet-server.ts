/**
 * The server of the fleet-scale benchmark (fleet-scale.bench.ts), in a process of its own so that the CPU and
 * memory it reports are the server's alone: `buildApp` with the embedded broker on a free port, as
 * bench/devices-site.ts builds it, on PGlite in a given folder or on a PostgreSQL database. It provisions and
 * binds the gateways, imports their devices once they are online, and answers the benchmark's commands over
 * the IPC channel of `child_process.fork`.
 */
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Gateway, ImportResult, ProjectTree } from '@lumigrid/contract';
import { fleetMac } from '@lumigrid/gateway-sim';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import type { SqlClient } from './bulk-load.ts';

/** What the benchmark passes as the one argument (JSON). */
export interface FleetServerOptions {
  gateways: number;
  /** Temporary folder: DATA_DIR, and PGlite's data in db/ when no databaseUrl is given. */
  dataDir: string;
  databaseUrl?: string;
  /** The embedded broker's port: a restarted server listens where its gateways reconnect (default: a free one). */
  brokerPort?: number;
  /** A restarted server: the gateways are provisioned, bound and imported already. */
  restarted?: boolean;
  /** Seconds a gateway may be away before it is told offline (PRESENCE_GRACE_S; default the server's). */
  presenceGraceS?: number;
  /** argon2 checks at once (default the server's: the cores); a large number is "not paced". */
  verifierConcurrency?: number;
  /** GATEWAY_VERIFIER_KEY: verified passwords survive the restart. */
  verifierKey?: string;
  /** HISTORY_HEARTBEAT_MINUTES: 0 keeps every report in the history; more is change-only history with that heartbeat. */
  historyHeartbeatMinutes: number;
}

/** Where the measured reports start: the history's last id, the writer's count and the table's size then. */
export interface Mark {
  maxId: string;
  taken: number;
  bytes: number;
}

export type ServerCommand =
  | { cmd: 'import' }
  /** `start` resets the window's event loop histogram. */
  | { cmd: 'sample'; start?: boolean }
  | { cmd: 'mark' }
  /**
   * Waits until the report writer has taken `expected` rows since the mark (appended to device_reports, or left
   * out as unchanged by change-only history), or nothing new comes for 10 s.
   */
  | { cmd: 'drain'; mark: Mark; expected: number }
  /** Waits until every gateway is online again (a restarted server), at most `timeoutS`. */
  | { cmd: 'reconnected'; timeoutS: number }
  /** Stops at once, as a restart does: no waiting for the gateways to say goodbye. */
  | { cmd: 'exit' }
  | { cmd: 'close' };

export interface ServerSample {
  at: number;
  /** process.cpuUsage() user + system, µs since the process started (every thread: PGlite, argon2, ...). */
  cpuUs: number;
  rss: number;
  /** Event loop delay p99 since the previous sample, and since the sample with `start`, ms. */
  loopP99Ms: number;
  windowLoopP99Ms: number;
  /** The report writer's counters (rows). */
  written: number;
  dropped: number;
  queued: number;
  /** Gateways seen going offline since the server started. */
  offline: number;
  /** Device markers published to map topics since the server started. */
  markers: number;
}

export type ServerReply =
  | { reply: 'ready'; brokerPort: number; gateways: Array<{ mac: string; password: string }> }
  | { reply: 'imported'; devices: number; seconds: number; offline: number }
  | ({ reply: 'sample' } & ServerSample)
  | ({ reply: 'mark' } & Mark)
  /**
   * `taken`: rows the writer took since the mark, `appended` of them in device_reports; `bytes`: device_reports with
   * its indexes, holding `total` rows.
   */
  | { reply: 'drained'; taken: number; appended: number; bytes: number; total: number }
  /** After a restart: ms from this server's broker listening to the last gateway online, its CPU over that time. */
  | { reply: 'reconnected'; online: number; ms: number; cpuUs: number; offline: number; loopP99Ms: number; readyAt: number }
  | { reply: 'closed' };

const options = JSON.parse(process.argv[2]!) as FleetServerOptions;
const send = (reply: ServerReply): void => void process.send!(reply);
const sleep = (ms: number) => new Promise<void>((wake) => setTimeout(wake, ms));
const ADMIN_PASSWORD = 'Bench-Admin-2026';

/** Runs `work` over the items, `width` at a time: the HTTP calls go through the whole pipeline, not all at once. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const database = await openDatabase(options.databaseUrl ? { url: options.databaseUrl } : { dataDir: join(options.dataDir, 'db') });
const config = loadConfig({
  HOST: '127.0.0.1',
  DATA_DIR: options.dataDir,
  WEB_DIST: join(options.dataDir, 'no-web'),
  ADMIN_PASSWORD,
  DEMO: 'off',
  HISTORY_HEARTBEAT_MINUTES: String(options.historyHeartbeatMinutes),
  LOG_LEVEL: 'warn',
  ...(options.presenceGraceS !== undefined ? { PRESENCE_GRACE_S: String(options.presenceGraceS) } : {}),
  // Verified gateway passwords kept across the restart (a benchmark's own key; an installation keeps its key outside DATA_DIR).
  ...(options.verifierKey ? { GATEWAY_VERIFIER_KEY: options.verifierKey } : {}),
});
const app = await buildApp({
  config,
  database,
  logger: { level: 'warn' },
  gatewayLink: {
    port: options.brokerPort ?? 0,
    ...(options.verifierConcurrency ? { verifier: { concurrency: options.verifierConcurrency } } : {}),
  },
});
const readyAt = Date.now();
const cpuAtReady = process.cpuUsage();
const link = app.gatewayLink!;
const writer = app.reportWriter!;
const sql = (database.db as unknown as { $client: SqlClient }).$client;

let token = '';
async function json<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = JSON.parse(res.body) as { code: number; msg: string; data: T };
  if (envelope.code !== 0) throw new Error(`${method} ${url}: ${res.statusCode} ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

// Provisioned through the gateway fleet (argon2 hashes, as an installation provisions them), then bound to the
// admin's default map through the HTTP API, as devices-site.ts does.
const macs = Array.from({ length: options.gateways }, (_, i) => fleetMac('BE0F5E', i + 1));
let mapId = '';
const bound: Gateway[] = [];
if (options.restarted) send({ reply: 'ready', brokerPort: link.brokerPort!, gateways: [] });
else {
  const credentials = await Promise.all(macs.map((mac) => app.gatewayFleet.provision(mac, `bench-${mac}`)));
  const login = await app.inject({ method: 'POST', url: '/api1/user/v1/login', payload: { account: 'admin', password: ADMIN_PASSWORD } });
  token = (JSON.parse(login.body) as { data: { access_token: string } }).data.access_token;
  const tree = await json<ProjectTree>('GET', '/api4/project_user/v1/0/sub_links');
  mapId = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!.id;
  await inParallel(macs, 8, async (mac) => void bound.push(await json<Gateway>('POST', '/api4/gateway/v1/move', { mac, mapId })));
  send({ reply: 'ready', brokerPort: link.brokerPort!, gateways: credentials });
}

/** A restarted server: waits for every gateway to be online again; the time and CPU count from the broker listening. */
async function reconnected(timeoutS: number) {
  const deadline = Date.now() + timeoutS * 1000;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const onlineNow = () => macs.filter((mac) => link.presence.isOnline(mac)).length;
  while (onlineNow() < macs.length && Date.now() < deadline) await sleep(100);
  const at = Date.now();
  const cpu = process.cpuUsage(cpuAtReady);
  loop.disable();
  return { online: onlineNow(), ms: at - readyAt, cpuUs: cpu.user + cpu.system, offline, loopP99Ms: loop.percentile(99) / 1e6, readyAt };
}

async function importDevices() {
  const started = Date.now();
  while (!macs.every((mac) => link.presence.isOnline(mac))) await sleep(100);
  // Through the HTTP API (the devices.list command to each gateway, then the insert), 8 gateways at a time.
  let devices = 0;
  await inParallel(bound, 8, async (g) => {
    // A gateway that dropped its connection since (see `offline`) is waited for, as a person would retry.
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await json<ImportResult>('GET', `/api4/gateway/v1/import/${g.id}`);
        devices += result.imported;
        return;
      } catch (error) {
        if (attempt === 5) throw error;
        await link.presence.waitOnline(g.mac, 60_000);
      }
    }
  });
  // Placed on the map in one statement rather than through device/v1/move_in, which re-reads the whole map after
  // each call of at most 5,000 devices (quadratic at 500,000 devices on one map). As the devices repo does after a
  // placement, the placement index is told, so every report of a placed device goes to the map's topic, as on a
  // real floor plan (the index read each gateway's placements, none yet, on its first report).
  await sql.query('update devices set map_id = $1, x = 0.5, y = 0.5', [mapId]);
  app.placements.changed(bound.map((g) => BigInt(g.id)));
  // The report each gateway sent on connect is in device_states before the measurement starts; a count that stops
  // growing for two minutes means reports were lost, and the run says so instead of waiting for ever.
  let stored = -1;
  let grewAt = Date.now();
  for (;;) {
    await writer.flush();
    const { rows } = await sql.query<{ n: number }>('select count(*)::int as n from device_states');
    const n = rows[0]!.n;
    if (n >= devices) break;
    if (n > stored) [stored, grewAt] = [n, Date.now()];
    else if (Date.now() - grewAt > 120_000) throw new Error(`the connect reports stopped at ${n} of ${devices} devices' states`);
    await sleep(200);
  }
  return { devices, seconds: Math.round((Date.now() - started) / 1000), offline };
}

// Markers sent to map topics, counted to show the reports really reach them (nobody is subscribed).
let markers = 0;
const publish = app.realtime.publish;
app.realtime.publish = (destination, payload) => {
  if (destination.startsWith('/topic/map/')) markers++;
  publish(destination, payload);
};

// Gateways seen going offline (a lost connection, a client taken over by its own reconnect) since the start.
let offline = 0;
link.presence.onChange((p) => void (p.online ? undefined : offline++));

const interval = monitorEventLoopDelay({ resolution: 10 });
const windowDelay = monitorEventLoopDelay({ resolution: 10 });
interval.enable();
windowDelay.enable();
function sample(start: boolean): ServerSample {
  if (start) windowDelay.reset();
  const cpu = process.cpuUsage();
  const s: ServerSample = {
    at: Date.now(),
    cpuUs: cpu.user + cpu.system,
    rss: process.memoryUsage().rss,
    loopP99Ms: interval.percentile(99) / 1e6,
    windowLoopP99Ms: windowDelay.percentile(99) / 1e6,
    written: writer.stats.written,
    dropped: writer.stats.dropped,
    queued: writer.queued,
    offline,
    markers,
  };
  interval.reset();
  return s;
}

const reportsBytes = async () =>
  Number((await sql.query<{ bytes: string }>("select pg_total_relation_size('device_reports')::text as bytes")).rows[0]!.bytes);

async function mark(): Promise<Mark> {
  await writer.flush();
  const { rows } = await sql.query<{ id: string | null }>('select max(id)::text as id from device_reports');
  return { maxId: rows[0]?.id ?? '0', taken: writer.stats.written, bytes: await reportsBytes() };
}

async function drain(from: Mark, expected: number) {
  let last = -1;
  let stableSince = Date.now();
  for (;;) {
    await writer.flush();
    const taken = writer.stats.written - from.taken;
    if (taken >= expected || (taken === last && Date.now() - stableSince > 10_000)) {
      const { rows } = await sql.query<{ appended: number; total: number }>(
        'select count(*) filter (where id > $1)::int as appended, count(*)::int as total from device_reports',
        [from.maxId],
      );
      return { taken, ...rows[0]!, bytes: await reportsBytes() };
    }
    if (taken !== last) [last, stableSince] = [taken, Date.now()];
    await sleep(200);
  }
}

// A benchmark that died leaves no server behind (its broker would hold 5,000 connections' worth of memory).
process.on('disconnect', () => process.exit(0));
// One command at a time, in order: the benchmark waits for each answer.
let queue = Promise.resolve();
process.on('message', (command: ServerCommand) => {
  queue = queue.then(async () => {
    switch (command.cmd) {
      case 'import':
        return send({ reply: 'imported', ...(await importDevices()) });
      case 'sample':
        return send({ reply: 'sample', ...sample(command.start ?? false) });
      case 'mark':
        return send({ reply: 'mark', ...(await mark()) });
      case 'drain':
        return send({ reply: 'drained', ...(await drain(command.mark, command.expected)) });
      case 'reconnected':
        return send({ reply: 'reconnected', ...(await reconnected(command.timeoutS)) });
      case 'exit':
        // The broker's sockets close with the process, as when a server is restarted; the database stays.
        await database.close().catch(() => undefined);
        return process.exit(0);
      case 'close':
        // The gateways have said goodbye: their presence changes are handled before the database closes. app.close()
        // does not wait for the lookups of who to tell (realtime/gateway-status.ts), which queue on the pool.
        for (let i = 0; i < 300 && macs.some((mac) => link.presence.isOnline(mac)); i++) await sleep(100);
        await sleep(5000);
        await app.close();
        await database.close();
        send({ reply: 'closed' });
        return process.disconnect();
    }
  });
});
