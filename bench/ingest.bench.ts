/**
 * Device reports from many simulated gateways, through the embedded broker and the server's report writer,
 * into PostgreSQL or PGlite until a query sees them; then a raw bulk load of the same rows into the same
 * table for comparison. See bench/README.md for how to run and read it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fleetMac } from '@lumigrid/gateway-sim';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import type { App } from '../apps/server/src/http/types.ts';
import type { FleetCommand, FleetReply, FleetWorkerData } from './fleet-worker.ts';
import { bulkLoad, type BulkLoad, type SqlClient } from './bulk-load.ts';
import { percentile, pollArrivals, type Arrivals } from './arrivals.ts';
import { watchLoopDelay, type LoopDelay } from './loop-delay.ts';
import { fleetThread } from './fleet-thread.ts';
import { postgresBase, postgresTarget, type PostgresTarget } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'all' },
    // PGlite in its worker thread as the server runs it, on the server's thread (as before), or both in turns.
    pglite: { type: 'string', default: 'worker' },
    gateways: { type: 'string', default: '50' },
    'devices-per-kind': { type: 'string', default: '6' },
    rate: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    flood: { type: 'string', default: '40' },
    // The report writer's rows per statement and queue bound; the server's defaults when not given.
    batch: { type: 'string' },
    queue: { type: 'string' },
  },
});
const GATEWAYS = Number(args.gateways);
const DEVICES_PER_KIND = Number(args['devices-per-kind']);
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const FLOOD_MESSAGES = Number(args.flood);
const WRITER = { maxBatch: args.batch ? Number(args.batch) : undefined, maxQueue: args.queue ? Number(args.queue) : undefined };
const RESULTS = resolve(import.meta.dirname, 'results');
type PgliteThread = 'worker' | 'main';
const PGLITE_THREADS: PgliteThread[] = args.pglite === 'both' ? ['main', 'worker'] : [args.pglite === 'main' ? 'main' : 'worker'];

interface PhaseResult {
  /** Device states the gateways published (one per device per report message). */
  published: number;
  messages: number;
  /** Distinct rows (gateway, device, report time) queryable at the end. */
  queryable: number;
  /** Published but never queryable: must be 0. */
  lost: number;
  /** Extra copies (QoS 1 redeliveries). */
  duplicates: number;
  /** Seconds from the first publish to the last row becoming queryable. */
  seconds: number;
  reportsPerS: number;
  /** Arrival to queryable: report timestamp to the poll that first saw the row, ms. */
  latencyMs: { p50: number; p99: number; max: number };
  /** Times the writer's full queue held the link back. */
  backpressureWaits: number;
  /** The server thread's event loop delay during the phase (the gateways run in a worker). */
  loopDelayMs: LoopDelay;
}

interface RunResult {
  db: 'pglite' | 'postgres';
  /** Where PGlite ran: its own worker thread or the server's thread. */
  pglite?: PgliteThread;
  at: string;
  machine: { cpus: number; cpuModel: string; memGiB: number; node: string };
  setup: {
    gateways: number;
    devicesPerGateway: number;
    targetRatePerS: number;
    durationS: number;
    floodMessagesPerGateway: number;
    writer: { maxBatch?: number; maxQueue?: number };
  };
  paced: PhaseResult;
  saturated: PhaseResult;
  bulk: BulkLoad[];
  /** Saturated ingest rate divided by each bulk load's rate, same rows, same table. */
  ratios: Record<string, number>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The fleet's thread: start, run a phase, stop; each answer awaited by kind. */
function startFleet(data: FleetWorkerData) {
  const worker = fleetThread(data);
  const waiting: Array<(r: FleetReply) => void> = [];
  worker.on('message', (reply: FleetReply) => waiting.shift()?.(reply));
  worker.on('error', (error) => {
    console.error('fleet worker failed:', error);
    process.exit(1);
  });
  return {
    ask<R extends FleetReply['reply']>(command: FleetCommand): Promise<Extract<FleetReply, { reply: R }>> {
      return new Promise((resolve) => {
        waiting.push((r) => resolve(r as Extract<FleetReply, { reply: R }>));
        worker.postMessage(command);
      });
    },
    terminate: () => worker.terminate(),
  };
}

async function openTarget(
  kind: 'pglite' | 'postgres',
  base: string | undefined,
  pglite: PgliteThread,
): Promise<{ database: Database; pgTarget?: PostgresTarget; cleanup(): Promise<void> }> {
  if (kind === 'postgres') {
    const pgTarget = await postgresTarget(base!, `lumigrid_bench_${randomBytes(5).toString('hex')}`);
    const database = await openDatabase({ url: pgTarget.url });
    return { database, pgTarget, cleanup: () => pgTarget.drop() };
  }
  // PGlite in a data folder, as an installation runs it (not in memory).
  const dir = mkdtempSync(join(tmpdir(), 'lumigrid-bench-'));
  const database = await openDatabase({ dataDir: dir }, { pgliteWorker: pglite === 'worker' });
  return { database, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs one phase and waits until every published row is queryable or nothing new arrives for 10 s. */
async function phase(app: App, sql: SqlClient, run: () => Promise<Extract<FleetReply, { reply: 'published' }>>): Promise<PhaseResult> {
  const writer = app.reportWriter!;
  const waitsBefore = writer.stats.waits;
  const baseline = String((await sql.query<{ id: string | null }>('select max(id)::text as id from device_reports')).rows[0]?.id ?? '0');
  const arrivals: Arrivals = pollArrivals(sql, baseline);
  const loop = watchLoopDelay();
  const published = await run();
  let lastCount = -1;
  let stableSince = Date.now();
  while (arrivals.rows < published.rows) {
    if (arrivals.rows !== lastCount) {
      lastCount = arrivals.rows;
      stableSince = Date.now();
    } else if (Date.now() - stableSince > 10_000) break;
    await sleep(20);
  }
  await arrivals.stop();
  const loopDelayMs = loop.stop();
  const counts = (
    await sql.query<{ total: number; distinct_rows: number }>(
      `select count(*)::int as total, (select count(*)::int from (select distinct gateway_id, addr, reported_at from device_reports where id > $1) d) as distinct_rows
       from device_reports where id > $1`,
      [baseline],
    )
  ).rows[0]!;
  const seconds = (arrivals.lastSeenAt - published.startedAt) / 1000;
  return {
    published: published.rows,
    messages: published.messages,
    queryable: counts.distinct_rows,
    lost: published.rows - counts.distinct_rows,
    duplicates: counts.total - counts.distinct_rows,
    seconds: round(seconds, 2),
    reportsPerS: Math.round(counts.distinct_rows / seconds),
    latencyMs: {
      p50: percentile(arrivals.latencies, 0.5),
      p99: percentile(arrivals.latencies, 0.99),
      max: percentile(arrivals.latencies, 1),
    },
    backpressureWaits: writer.stats.waits - waitsBefore,
    loopDelayMs,
  };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

async function runOn(kind: 'pglite' | 'postgres', pgBase: string | undefined, pglite: PgliteThread): Promise<RunResult> {
  const target = await openTarget(kind, pgBase, pglite);
  const dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-bench-data-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'no-web'),
    ADMIN_PASSWORD: 'Bench-Admin-2026',
    DEMO: 'off',
    // Every report is a row, as the write path is measured and the rows are counted (change-only is history-size.bench.ts).
    HISTORY_HEARTBEAT_MINUTES: '0',
    LOG_LEVEL: 'warn',
  });
  const app = await buildApp({ config, database: target.database, logger: { level: 'warn' }, gatewayLink: { port: 0, reports: WRITER } });
  const sql = (target.database.db as unknown as { $client: SqlClient }).$client;
  const fleetGateways = await Promise.all(
    Array.from({ length: GATEWAYS }, async (_, i) => {
      const mac = fleetMac('BE0C4E', i + 1);
      return app.gatewayFleet.provision(mac, `bench-${mac}`);
    }),
  );
  const fleet = startFleet({
    url: `mqtt://127.0.0.1:${app.gatewayLink!.brokerPort}`,
    gateways: fleetGateways,
    devicesPerKind: DEVICES_PER_KIND,
  });
  try {
    const started = await fleet.ask<'started'>({ cmd: 'start' });
    if (started.failed.length) throw new Error(`gateways refused by the broker: ${started.failed.join(', ')}`);
    const devices = started.devices;
    // The full report each gateway sends on connect lands first, so the phases start from a quiet system.
    const initial = GATEWAYS * devices;
    for (let i = 0; i < 600; i++) {
      const n = (await sql.query<{ n: number }>('select count(*)::int as n from device_states')).rows[0]!.n;
      if (n >= initial) break;
      await sleep(50);
    }
    await app.reportWriter!.flush();
    log(`${kind}: ${GATEWAYS} gateways x ${devices} devices online; paced phase at ${RATE}/s for ${DURATION_S} s`);
    const paced = await phase(app, sql, () => fleet.ask<'published'>({ cmd: 'paced', ratePerS: RATE, durationMs: DURATION_S * 1000 }));
    log(`${kind}: saturated phase, ${FLOOD_MESSAGES} reports per gateway as fast as they go`);
    const floodBaseline = String(
      (await sql.query<{ id: string | null }>('select max(id)::text as id from device_reports')).rows[0]?.id ?? '0',
    );
    const saturated = await phase(app, sql, () => fleet.ask<'published'>({ cmd: 'flood', messagesPerGateway: FLOOD_MESSAGES }));
    log(`${kind}: bulk loads of the saturated phase's ${saturated.queryable} rows`);
    await fleet.ask<'stopped'>({ cmd: 'stop' });
    const bulk = await bulkLoad({ kind, sql, afterId: floodBaseline, postgresUrl: target.pgTarget?.url });
    const ratios = Object.fromEntries(bulk.map((b) => [b.method, round(saturated.reportsPerS / b.rowsPerS, 3)]));
    return {
      db: kind,
      ...(kind === 'pglite' ? { pglite } : {}),
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', memGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
      setup: {
        gateways: GATEWAYS,
        devicesPerGateway: devices,
        targetRatePerS: RATE,
        durationS: DURATION_S,
        floodMessagesPerGateway: FLOOD_MESSAGES,
        writer: WRITER,
      },
      paced,
      saturated,
      bulk,
      ratios,
    };
  } finally {
    await fleet.terminate();
    await app.close();
    await target.database.close();
    await target.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function log(line: string) {
  console.log(`[bench] ${line}`);
}

function table(r: RunResult): string {
  const rows: Array<[string, string]> = [
    ['setup', `${r.setup.gateways} gateways x ${r.setup.devicesPerGateway} devices, one report = every device of a gateway`],
    ['paced: target / achieved', `${r.setup.targetRatePerS} / ${r.paced.reportsPerS} reports/s over ${r.paced.seconds} s`],
    ['paced: arrival->queryable', `p50 ${r.paced.latencyMs.p50} ms, p99 ${r.paced.latencyMs.p99} ms, max ${r.paced.latencyMs.max} ms`],
    ['paced: published / lost / dup', `${r.paced.published} / ${r.paced.lost} / ${r.paced.duplicates}`],
    [
      'paced: event loop delay',
      `p50 ${r.paced.loopDelayMs.p50} ms, p99 ${r.paced.loopDelayMs.p99} ms, max ${r.paced.loopDelayMs.max} ms; busy ${r.paced.loopDelayMs.busy}`,
    ],
    [
      'saturated: reports/s',
      `${r.saturated.reportsPerS} (${r.saturated.published} in ${r.saturated.seconds} s, backpressure waits ${r.saturated.backpressureWaits})`,
    ],
    ['saturated: arrival->queryable', `p50 ${r.saturated.latencyMs.p50} ms, p99 ${r.saturated.latencyMs.p99} ms (queueing included)`],
    ['saturated: lost / dup', `${r.saturated.lost} / ${r.saturated.duplicates}`],
    [
      'saturated: event loop delay',
      `p50 ${r.saturated.loopDelayMs.p50} ms, p99 ${r.saturated.loopDelayMs.p99} ms, max ${r.saturated.loopDelayMs.max} ms; busy ${r.saturated.loopDelayMs.busy}`,
    ],
    ...r.bulk.map((b): [string, string] => [
      `bulk: ${b.method}`,
      `${b.rowsPerS} rows/s (${b.rows} rows in ${b.seconds} s); ingest/bulk = ${r.ratios[b.method]}`,
    ]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const where = r.pglite ? ` (${r.pglite === 'worker' ? 'its worker thread' : "the server's thread"})` : '';
  return [`== ingest on ${r.db}${where} ==`, ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)].join('\n');
}

async function main() {
  const wanted = args.db === 'all' ? (['pglite', 'postgres'] as const) : ([args.db] as Array<'pglite' | 'postgres'>);
  const runs = wanted.flatMap((kind): Array<{ kind: 'pglite' | 'postgres'; pglite: PgliteThread }> =>
    kind === 'pglite' ? PGLITE_THREADS.map((pglite) => ({ kind, pglite })) : [{ kind, pglite: 'worker' }],
  );
  mkdirSync(RESULTS, { recursive: true });
  let failed = false;
  for (const { kind, pglite } of runs) {
    let base: string | undefined;
    if (kind === 'postgres') {
      base = await postgresBase();
      if (!base) {
        log('postgres: skipped (DATABASE_URL unset and nothing answers at 127.0.0.1:5432)');
        continue;
      }
    }
    const result = await runOn(kind, base, pglite);
    console.log(table(result));
    const file = join(RESULTS, `ingest-${kind}${kind === 'pglite' && pglite === 'main' ? '-main' : ''}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${file}`);
    if (result.paced.lost !== 0 || result.saturated.lost !== 0) failed = true;
  }
  if (failed) {
    console.error('[bench] reports were lost');
    process.exitCode = 1;
  }
}

await main();
