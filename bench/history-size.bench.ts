/**
 * History bytes per gateway per day, every report kept against change-only history, in the same run: the same
 * report sequence (simulated gateways, one full report a minute, a seeded model of state changes) goes through
 * the server's report writer into device_reports twice, once keeping every state and once change-only with
 * its heartbeat, and the table's size with its indexes is compared. See bench/README.md, "History size".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deviceAddr, fleetMac, initialState, SIMULATED_KINDS } from '@lumigrid/gateway-sim';
import { seededRandom } from '@lumigrid/protocol';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../apps/server/src/db/client.ts';
import { gateways } from '../apps/server/src/db/schema/index.ts';
import { createDeviceReportsRepo } from '../apps/server/src/modules/device-reports/device-reports.repo.ts';
import { createReportWriter } from '../apps/server/src/modules/device-reports/report-writer.ts';
import { afterOneMinute } from './change-model.ts';
import { openBenchTarget, postgresBase } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    gateways: { type: 'string', default: '100' },
    // Simulated minutes of reports; the first (every device new to the writer) is left out of the steady state,
    // so 61 measures one hour: four heartbeats of 15 minutes.
    minutes: { type: 'string', default: '61' },
    'devices-per-kind': { type: 'string', default: '6' },
    'heartbeat-minutes': { type: 'string', default: '15' },
    // Multiplies every change rate of the model (0: nothing changes, only heartbeats).
    'change-scale': { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
  },
});
const DB = args.db as 'pglite' | 'postgres';
const GATEWAYS = Number(args.gateways);
const MINUTES = Number(args.minutes);
const DEVICES_PER_KIND = Number(args['devices-per-kind']);
const HEARTBEAT_MS = Number(args['heartbeat-minutes']) * 60_000;
const CHANGE_SCALE = Number(args['change-scale']);
const RESULTS = resolve(import.meta.dirname, 'results');
const MINUTE = 60_000;
const DAY_MINUTES = 1440;
const T0 = Date.parse('2026-11-23T08:00:00Z');
const log = (line: string) => console.log(`[history] ${line}`);

interface PhaseResult {
  mode: 'every report' | 'change-only';
  rows: number;
  /** After the first minute to the end: rows and bytes the steady state added. */
  steady: { rows: number; bytes: number; minutes: number };
  bytesPerRow: number;
  /** Steady-state bytes per gateway per day (table and indexes). */
  bytesPerGatewayDay: number;
  rowsPerGatewayDay: number;
  writer: { appended: number; unchanged: number; dropped: number };
  seconds: number;
}

const tableBytes = async (db: Db) =>
  Number(
    ((await db.execute(sql`select pg_total_relation_size('device_reports')::float8 as b`)) as unknown as { rows: Array<{ b: number }> })
      .rows[0]!.b,
  );
const tableRows = async (db: Db) =>
  Number(((await db.execute(sql`select count(*)::int as n from device_reports`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);

async function runPhase(db: Db, macs: string[], changeOnly: boolean): Promise<PhaseResult> {
  // The current states go too: they hold what the history last took of each device.
  await db.execute(sql`truncate device_reports, device_states`);
  const random = seededRandom(Number(args.seed));
  const fleet = macs.map((mac) =>
    SIMULATED_KINDS.flatMap((kind, k) =>
      Array.from({ length: DEVICES_PER_KIND }, (_, i) => initialState(deviceAddr(mac, k * DEVICES_PER_KIND + i), kind)),
    ),
  );
  let now = T0;
  const logger = pino({ level: 'warn' }) as unknown as FastifyBaseLogger;
  const writer = createReportWriter({
    repo: createDeviceReportsRepo(db),
    logger,
    now: () => now,
    ...(changeOnly ? { historyHeartbeatMs: HEARTBEAT_MS } : {}),
  });
  const started = performance.now();
  let afterFirst = { rows: 0, bytes: 0 };
  for (let minute = 0; minute < MINUTES; minute++) {
    for (let g = 0; g < macs.length; g++) {
      const devices = fleet[g]!;
      if (minute > 0)
        for (let d = 0; d < devices.length; d++) {
          devices[d] = afterOneMinute(devices[d]!, random, CHANGE_SCALE);
        }
      const wait = writer.accept(macs[g]!, { ts: now, full: true, devices: devices.map((d) => ({ ...d })) });
      if (wait) await wait;
    }
    await writer.flush();
    if (minute === 0) afterFirst = { rows: await tableRows(db), bytes: await tableBytes(db) };
    now += MINUTE;
  }
  await writer.close();
  const rows = await tableRows(db);
  const bytes = await tableBytes(db);
  const steady = { rows: rows - afterFirst.rows, bytes: bytes - afterFirst.bytes, minutes: MINUTES - 1 };
  const perDay = DAY_MINUTES / steady.minutes / macs.length;
  return {
    mode: changeOnly ? 'change-only' : 'every report',
    rows,
    steady,
    bytesPerRow: Math.round(bytes / rows),
    bytesPerGatewayDay: Math.round(steady.bytes * perDay),
    rowsPerGatewayDay: Math.round(steady.rows * perDay),
    writer: { ...writer.history, dropped: writer.stats.dropped },
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

async function main() {
  const base = DB === 'postgres' ? await postgresBase() : undefined;
  if (DB === 'postgres' && !base) throw new Error('no PostgreSQL at DATABASE_URL or 127.0.0.1:5432');
  const target = await openBenchTarget(DB, base, { log });
  try {
    const db = target.database.db;
    const macs = Array.from({ length: GATEWAYS }, (_, i) => fleetMac('B1', i + 1));
    await db.insert(gateways).values(macs.map((mac) => ({ mac })));
    const devices = SIMULATED_KINDS.length * DEVICES_PER_KIND;
    log(`${DB}: ${GATEWAYS} gateways x ${devices} devices, ${MINUTES} simulated minutes, heartbeat ${HEARTBEAT_MS / MINUTE} min`);
    const load = [loadavg()[0]!];
    const every = await runPhase(db, macs, false);
    log(`every report: ${JSON.stringify(every)}`);
    const changeOnly = await runPhase(db, macs, true);
    log(`change-only:  ${JSON.stringify(changeOnly)}`);
    load.push(loadavg()[0]!);
    const ratio = Math.round((changeOnly.bytesPerGatewayDay / every.bytesPerGatewayDay) * 1000) / 1000;
    const result = {
      db: DB,
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, node: process.version, loadavg1: load },
      setup: {
        gateways: GATEWAYS,
        devicesPerGateway: devices,
        minutes: MINUTES,
        heartbeatMinutes: HEARTBEAT_MS / MINUTE,
        changeScale: CHANGE_SCALE,
      },
      every,
      changeOnly,
      ratio,
    };
    log(
      `history bytes per gateway per day: ${every.bytesPerGatewayDay} -> ${changeOnly.bytesPerGatewayDay} (ratio ${ratio}); ` +
        `rows ${every.rowsPerGatewayDay} -> ${changeOnly.rowsPerGatewayDay}`,
    );
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(resolve(RESULTS, `history-size-${DB}.json`), JSON.stringify(result, null, 2));
  } finally {
    await target.database.close();
    await target.cleanup();
  }
}

await main();
