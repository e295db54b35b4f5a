/**
 * Fleet scale: the server's CPU and memory with thousands of gateways each reporting all its devices once a
 * minute. The server runs in a child process (fleet-server.ts), the gateways in a worker thread of this one
 * (fleet-worker.ts), so the server's figures are its own. See bench/README.md, "Fleet scale".
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { FleetServerOptions, ServerCommand, ServerReply, ServerSample } from './fleet-server.ts';
import type { FleetCommand, FleetReply, FleetWorkerData } from './fleet-worker.ts';
import { fleetThread } from './fleet-thread.ts';
import { postgresBase, postgresTarget } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    gateways: { type: 'string', default: '1000,5000' },
    minutes: { type: 'string', default: '2' },
    // Before the window: one full minute lets every gateway report once on the paced schedule.
    warmup: { type: 'string', default: '60' },
    // 19 device families x 6 = 114 devices per gateway (the simulator makes the same number of each family).
    'devices-per-kind': { type: 'string', default: '6' },
    // After the import the server is stopped and started again (no window): how the fleet comes back.
    restart: { type: 'boolean', default: false },
    // With --restart: without the pacing, the presence grace and the gateways' back-off (fixed 1-s retries).
    baseline: { type: 'boolean', default: false },
    // With --restart: a GATEWAY_VERIFIER_KEY, so the verified passwords outlive the restart.
    'verifier-key': { type: 'boolean', default: false },
    // The server's HISTORY_HEARTBEAT_MINUTES: change-only history with this heartbeat (the default); 0 keeps every report.
    'heartbeat-minutes': { type: 'string', default: '15' },
    // The devices' states change before each report as bench/change-model.ts says, from this seed.
    'change-seed': { type: 'string', default: '1' },
    // A folder for the server process's CPU profiles (node --cpu-prof), written as it exits.
    'profile-server': { type: 'string' },
  },
});
const DB = args.db as 'pglite' | 'postgres';
const COUNTS = args.gateways.split(',').map(Number);
const WINDOW_S = Math.round(Number(args.minutes) * 60);
const WARMUP_S = Number(args.warmup);
const SAMPLE_S = 10;
const HEARTBEAT_MINUTES = Number(args['heartbeat-minutes']);
const RESULTS = resolve(import.meta.dirname, 'results');

interface RunResult {
  gateways: number;
  devicesPerGateway: number;
  devices: number;
  /** Seconds: provisioning and binding, connecting every gateway, importing every device. */
  setupS: { provisionBind: number; connect: number; import: number };
  window: { seconds: number; startedAt: string; loadavg1: [number, number] };
  /** Rows per second: expected from the schedule, written by the report writer, markers to map topics (window). */
  reportsPerS: { expected: number; written: number; toMapTopics: number };
  /** Server process CPU, % of one core, over 10-s samples. */
  cpuPercent: { mean: number; p95: number; samples: number[] };
  /** The backends serving the benchmark's database (PostgreSQL only; it runs beside the server). */
  postgresCpuPercent?: { mean: number; p95: number };
  rssMB: { start: number; end: number };
  loopDelayP99Ms: { window: number; worstSample: number };
  /** Device states the gateways published from the warm-up on, the writer took, the difference, and gave up on. */
  rows: { published: number; taken: number; lost: number; dropped: number };
  /**
   * What the history kept of the published states: rows appended to device_reports, and its growth (table and
   * indexes) per gateway per day, from the warm-up to the end (0 heartbeat minutes: every report).
   */
  history: { heartbeatMinutes: number; appended: number; rowsPerGatewayDay: number; bytesPerGatewayDay: number };
  /** Gateways the server saw going offline: while connecting and importing, and during the window. */
  offline: { setup: number; window: number };
  /** device_reports with its indexes at the end (every report of the run, the connect reports included). */
  reportsTable: { MB: number; rows: number; bytesPerRow: number };
}

/** A restart run (--restart): the server stopped after the import and started again on the same database and port. */
interface RestartResult {
  gateways: number;
  devices: number;
  mode: 'paced' | 'paced, verifier key' | 'baseline';
  setupS: { provisionBind: number; connect: number; import: number };
  /** Seconds from the old server's exit, and from the new one's broker listening, to every gateway online. */
  allOnlineS: { fromExit: number; fromListening: number };
  online: number;
  /** Offline changes the restarted server told its listeners (the gateways table, browsers, alerts) meanwhile. */
  offline: number;
  /** The restarted server from its broker listening to the last gateway online, % of one core. */
  cpuPercent: number;
  loopP99Ms: number;
  loadavg1: [number, number];
}

const sleep = (ms: number) => new Promise<void>((wake) => setTimeout(wake, ms));
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)]!;
const log = (line: string) => console.log(`[fleet] ${line}`);

/** Answers in order to commands sent in order, over a worker's or a child's message channel. */
function channel<C, R extends { reply: string }>(
  post: (command: C) => void,
  on: (event: 'message', listener: (reply: R) => void) => void,
  what: string,
) {
  const waiting: Array<{ resolve: (r: R) => void; reject: (e: Error) => void }> = [];
  let failed: Error | undefined;
  on('message', (reply) => waiting.shift()?.resolve(reply));
  return {
    /** The next answer; `command` is sent first when given. After a failure, every ask fails at once. */
    ask<K extends R['reply']>(command?: C): Promise<Extract<R, { reply: K }>> {
      if (failed) return Promise.reject(failed);
      const answer = new Promise<R>((resolve, reject) => waiting.push({ resolve, reject }));
      if (command !== undefined) post(command);
      return answer as Promise<Extract<R, { reply: K }>>;
    },
    fail(error: unknown) {
      failed = new Error(`${what} failed: ${String(error)}`);
      for (const w of waiting.splice(0)) w.reject(failed);
    },
  };
}

function startServer(options: FleetServerOptions) {
  const child: ChildProcess = fork(fileURLToPath(new URL('./fleet-server.ts', import.meta.url)), [JSON.stringify(options)], {
    execArgv: [
      '--import',
      import.meta.resolve('tsx'),
      ...(args['profile-server'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args['profile-server'])}`] : []),
    ],
  });
  const c = channel<ServerCommand, ServerReply>((m) => child.send(m), child.on.bind(child), 'server');
  // A command without an answer (exit).
  const post = (m: ServerCommand) => void child.send(m);
  const exited = new Promise<void>((done) =>
    child.on('exit', (code) => {
      c.fail(`exit code ${code}`);
      done();
    }),
  );
  return { ...c, post, pid: child.pid!, exited };
}

function startFleet(data: FleetWorkerData) {
  const worker = fleetThread(data);
  const c = channel<FleetCommand, FleetReply>((m) => worker.postMessage(m), worker.on.bind(worker), 'fleet worker');
  worker.on('error', (error) => c.fail(error));
  return { ...c, terminate: () => worker.terminate() };
}

/**
 * CPU ticks (1/100 s) of the PostgreSQL backends serving the benchmark's database, read from /proc (PostgreSQL on
 * this machine). A backend that ended (the pool closes idle connections) keeps the ticks it was last seen with.
 * Shared processes (WAL writer, checkpointer) are not counted, nor other databases' work.
 */
async function backendTicks(client: pg.Client, seen: Map<number, number>): Promise<number> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      seen.set(pid, Number(fields[11]) + Number(fields[12])); // utime, stime: fields 14 and 15 of stat
    } catch {
      // Ended between the query and the read, or PostgreSQL runs on another machine.
    }
  }
  return [...seen.values()].reduce((a, b) => a + b, 0);
}

async function runOne(gateways: number, pgBase: string | undefined): Promise<RunResult | RestartResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-bench-fleet-'));
  const target = pgBase ? await postgresTarget(pgBase, `lumigrid_bench_${randomBytes(5).toString('hex')}`) : undefined;
  const pgClient = target ? new pg.Client({ connectionString: target.url }) : undefined;
  await pgClient?.connect();
  // The baseline: every password check at once, offline told at once (the gateways retry every second).
  const tuning = args.baseline
    ? { presenceGraceS: 0, verifierConcurrency: 100_000 }
    : { verifierKey: args['verifier-key'] ? randomBytes(32).toString('base64url') : undefined };
  const historyHeartbeatMinutes = HEARTBEAT_MINUTES;
  let server = startServer({ gateways, dataDir, databaseUrl: target?.url, historyHeartbeatMinutes, ...tuning });
  const seen = new Map<number, number>();
  let fleet: ReturnType<typeof startFleet> | undefined;
  try {
    let t = Date.now();
    const lap = () => {
      const s = Math.round((Date.now() - t) / 1000);
      t = Date.now();
      return s;
    };
    const ready = await server.ask<'ready'>();
    const provisionBind = lap();
    log(`${gateways} gateways provisioned and bound in ${provisionBind} s (server pid ${server.pid}); connecting`);
    fleet = startFleet({
      url: `mqtt://127.0.0.1:${ready.brokerPort}`,
      gateways: ready.gateways,
      devicesPerKind: Number(args['devices-per-kind']),
      changeSeed: Number(args['change-seed']),
      ...(args.baseline ? { reconnectFixedMs: 1000 } : {}),
    });
    const started = await fleet.ask<'started'>({ cmd: 'start' });
    if (started.failed.length) throw new Error(`gateways refused by the broker: ${started.failed.slice(0, 5).join(', ')}...`);
    const connect = lap();
    log(`online in ${connect} s; importing their devices`);
    const imported = await server.ask<'imported'>({ cmd: 'import' });
    const importS = lap();
    const perGateway = started.devices;
    if (imported.devices !== gateways * perGateway)
      throw new Error(`imported ${imported.devices} devices, expected ${gateways * perGateway}`);
    if (args.restart) {
      const load: [number, number] = [loadavg()[0]!, 0];
      log(`${imported.devices} devices imported in ${importS} s; restarting the server`);
      server.post({ cmd: 'exit' });
      await server.exited;
      const exitedAt = Date.now();
      server = startServer({
        gateways,
        dataDir,
        databaseUrl: target?.url,
        historyHeartbeatMinutes,
        brokerPort: ready.brokerPort,
        restarted: true,
        ...tuning,
      });
      await server.ask<'ready'>();
      const back = await server.ask<'reconnected'>({ cmd: 'reconnected', timeoutS: 600 });
      load[1] = loadavg()[0]!;
      return {
        gateways,
        devices: imported.devices,
        mode: args.baseline ? 'baseline' : args['verifier-key'] ? 'paced, verifier key' : 'paced',
        setupS: { provisionBind, connect, import: importS },
        allOnlineS: { fromExit: round((back.readyAt + back.ms - exitedAt) / 1000), fromListening: round(back.ms / 1000) },
        online: back.online,
        offline: back.offline,
        cpuPercent: round((back.cpuUs / (back.ms * 1000)) * 100),
        loopP99Ms: round(back.loopP99Ms),
        loadavg1: [round(load[0], 2), round(load[1], 2)],
      };
    }
    log(`${imported.devices} devices imported in ${importS} s; reports for ${WARMUP_S} s of warm-up and a ${WINDOW_S} s window`);

    const mark = await server.ask<'mark'>({ cmd: 'mark' });
    const ratePerS = (gateways * perGateway) / 60;
    // Each gateway reports every 60 s; gateway i at i/gateways of the minute, so the reports are evenly spread.
    const published = fleet.ask<'published'>({ cmd: 'paced', ratePerS, durationMs: (WARMUP_S + WINDOW_S) * 1000 });
    await sleep(WARMUP_S * 1000);
    const samples: ServerSample[] = [await server.ask<'sample'>({ cmd: 'sample', start: true })];
    const pgTicks = [pgClient ? await backendTicks(pgClient, seen) : 0];
    const load: [number, number] = [loadavg()[0]!, 0];
    for (let k = 1; k <= WINDOW_S / SAMPLE_S; k++) {
      await sleep(samples[0]!.at + k * SAMPLE_S * 1000 - Date.now());
      samples.push(await server.ask<'sample'>({ cmd: 'sample' }));
      if (pgClient) pgTicks.push(await backendTicks(pgClient, seen));
    }
    load[1] = loadavg()[0]!;
    const sent = await published;
    const drained = await server.ask<'drained'>({ cmd: 'drain', mark, expected: sent.rows });
    const perGatewayDay = 86_400 / ((WARMUP_S + WINDOW_S) * gateways);

    const first = samples[0]!;
    const last = samples.at(-1)!;
    const seconds = (last.at - first.at) / 1000;
    const cpu = samples.slice(1).map((s, i) => round(((s.cpuUs - samples[i]!.cpuUs) / ((s.at - samples[i]!.at) * 1000)) * 100));
    // Ticks are 1/100 s (CLK_TCK), so ticks per second are % of one core.
    const pgCpu = pgTicks.slice(1).map((n, i) => (n - pgTicks[i]!) / ((samples[i + 1]!.at - samples[i]!.at) / 1000));
    return {
      gateways,
      devicesPerGateway: perGateway,
      devices: imported.devices,
      setupS: { provisionBind, connect, import: importS },
      window: { seconds: round(seconds), startedAt: new Date(first.at).toISOString(), loadavg1: [round(load[0], 2), round(load[1], 2)] },
      reportsPerS: {
        expected: round(ratePerS, 0),
        written: round((last.written - first.written) / seconds, 0),
        toMapTopics: round((last.markers - first.markers) / seconds, 0),
      },
      cpuPercent: { mean: round(((last.cpuUs - first.cpuUs) / (seconds * 1e6)) * 100), p95: p95(cpu), samples: cpu },
      postgresCpuPercent: pgClient && seen.size ? { mean: round(mean(pgCpu)), p95: round(p95(pgCpu)) } : undefined,
      rssMB: { start: Math.round(first.rss / 2 ** 20), end: Math.round(last.rss / 2 ** 20) },
      loopDelayP99Ms: { window: round(last.windowLoopP99Ms), worstSample: round(Math.max(...samples.slice(1).map((s) => s.loopP99Ms))) },
      rows: { published: sent.rows, taken: drained.taken, lost: sent.rows - drained.taken, dropped: last.dropped },
      history: {
        heartbeatMinutes: HEARTBEAT_MINUTES,
        appended: drained.appended,
        rowsPerGatewayDay: Math.round(drained.appended * perGatewayDay),
        bytesPerGatewayDay: Math.round((drained.bytes - mark.bytes) * perGatewayDay),
      },
      offline: { setup: imported.offline, window: last.offline - first.offline },
      reportsTable: {
        MB: Math.round(drained.bytes / 2 ** 20),
        rows: drained.total,
        bytesPerRow: Math.round(drained.bytes / drained.total),
      },
    };
  } finally {
    if (fleet) {
      await fleet.ask({ cmd: 'stop' }).catch(() => undefined);
      await fleet.terminate();
    }
    await server.ask({ cmd: 'close' }).catch(() => undefined);
    await server.exited;
    await pgClient?.end().catch(() => undefined);
    await target?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function restartTable(r: RestartResult): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const rows: Array<[string, string]> = [
    ['gateways', `${n(r.gateways)} (${n(r.devices)} devices), ${r.mode}`],
    [
      'all online again',
      `${r.allOnlineS.fromExit} s after the exit, ${r.allOnlineS.fromListening} s after the broker listened (${n(r.online)} online)`,
    ],
    ['offline changes told', n(r.offline)],
    ['server CPU, % of one core', `${r.cpuPercent} from listening to all online (event loop delay p99 ${r.loopP99Ms} ms)`],
    ['load average', r.loadavg1.join(' -> ')],
    ['setup', `provision+bind ${r.setupS.provisionBind} s, connect ${r.setupS.connect} s, import ${r.setupS.import} s`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`== fleet restart on ${DB}: ${n(r.gateways)} gateways ==`, ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)].join('\n');
}

function table(r: RunResult): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const rows: Array<[string, string]> = [
    ['gateways', n(r.gateways)],
    ['devices', `${n(r.devices)} (${r.devicesPerGateway} per gateway)`],
    [
      'reports/s (rows/s)',
      `${n(r.reportsPerS.written)} taken by the writer in the window (${n(r.reportsPerS.expected)} scheduled), ${n(r.reportsPerS.toMapTopics)} to map topics`,
    ],
    [
      'server CPU, % of one core',
      `mean ${r.cpuPercent.mean}, p95 ${r.cpuPercent.p95} (${r.cpuPercent.samples.length} samples of ${SAMPLE_S} s)`,
    ],
    ...(r.postgresCpuPercent
      ? [['PostgreSQL CPU, % of one core', `mean ${r.postgresCpuPercent.mean}, p95 ${r.postgresCpuPercent.p95}`] as [string, string]]
      : []),
    ['server RSS', `${n(r.rssMB.start)} MB at the start, ${n(r.rssMB.end)} MB at the end of the window`],
    [
      'event loop delay p99',
      `${r.loopDelayP99Ms.window} ms over the window (worst ${SAMPLE_S}-s sample ${r.loopDelayP99Ms.worstSample} ms)`,
    ],
    ['rows published / taken / lost', `${n(r.rows.published)} / ${n(r.rows.taken)} / ${n(r.rows.lost)} (writer dropped ${r.rows.dropped})`],
    [
      'history kept',
      `${n(r.history.appended)} rows (${r.history.heartbeatMinutes ? `change-only, heartbeat ${r.history.heartbeatMinutes} min` : 'every report'}): ` +
        `${n(r.history.rowsPerGatewayDay)} rows, ${n(Math.round(r.history.bytesPerGatewayDay / 1024))} KiB per gateway per day`,
    ],
    ['device_reports size', `${n(r.reportsTable.MB)} MB for ${n(r.reportsTable.rows)} rows, ${r.reportsTable.bytesPerRow} bytes per row`],
    ['gateways gone offline', `${r.offline.window} in the window (${r.offline.setup} while connecting and importing)`],
    ['window', `${r.window.seconds} s from ${r.window.startedAt}, load average ${r.window.loadavg1.join(' -> ')}`],
    ['setup', `provision+bind ${r.setupS.provisionBind} s, connect ${r.setupS.connect} s, import ${r.setupS.import} s`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`== fleet scale on ${DB}: ${n(r.gateways)} gateways ==`, ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)].join('\n');
}

async function main() {
  const pgBase = DB === 'postgres' ? await postgresBase() : undefined;
  if (DB === 'postgres' && !pgBase) throw new Error('PostgreSQL does not answer (DATABASE_URL or 127.0.0.1:5432)');
  mkdirSync(RESULTS, { recursive: true });
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? '',
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
  const runs: Array<RunResult | RestartResult> = [];
  // Each gateway count on a fresh server and database, one after the other.
  for (const gateways of COUNTS) {
    const run = await runOne(gateways, pgBase);
    runs.push(run);
    console.log('mode' in run ? restartTable(run) : table(run));
    const file = join(
      RESULTS,
      args.restart ? `fleet-restart-${DB}${args.baseline ? '-baseline' : args['verifier-key'] ? '-key' : ''}.json` : `fleet-${DB}.json`,
    );
    writeFileSync(
      file,
      `${JSON.stringify({ db: DB, at: new Date().toISOString(), machine, windowS: WINDOW_S, warmupS: WARMUP_S, runs }, null, 2)}\n`,
    );
    log(`wrote ${file}`);
  }
  if (runs.some((r) => ('mode' in r ? r.online !== r.gateways : r.rows.lost !== 0 || r.rows.dropped !== 0))) {
    console.error(args.restart ? '[fleet] gateways did not come back' : '[fleet] reports were lost');
    process.exitCode = 1;
  }
}

await main();
