/**
 * Energy at 1,000 devices x 180 days x 96 readings a day (issue 13): the ingest rate of readings through the
 * energy repo's own write path (`record`, batches of the telemetry writer's 2,000 samples), bytes stored per
 * reading, and the month report (`ele_use/v1/total` and the first page of `page_record`, through the energy
 * stats service) from the rollups against a raw scan of the same month's readings (counter deltas per device
 * with a window function) in the same run. See bench/README.md ("Energy: readings, rollups and the month report").
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEVICE_TYPE_CODES } from '@lumigrid/contract';
import type { Database } from '../apps/server/src/db/client.ts';
import { createAccess } from '../apps/server/src/modules/access/access.ts';
import { createAccessRepo } from '../apps/server/src/modules/access/access.repo.ts';
import { createEnergyStatsRepo } from '../apps/server/src/modules/energy/energy-stats.repo.ts';
import { createEnergyStatsService } from '../apps/server/src/modules/energy/energy-stats.service.ts';
import { createEnergyRepo, monthPartitionOf, type EnergySample } from '../apps/server/src/modules/energy/energy.repo.ts';
import { createMapsRepo } from '../apps/server/src/modules/projects/maps.repo.ts';
import { createProjectAccess } from '../apps/server/src/modules/projects/project-access.ts';
import { createProjectsRepo } from '../apps/server/src/modules/projects/projects.repo.ts';
import { ownedReads } from '../apps/server/src/owned-reads.ts';
import type { SqlClient } from './bulk-load.ts';
import { openBenchTarget, postgresBase } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    devices: { type: 'string', default: '1000' },
    days: { type: 'string', default: '180' },
    /** Seconds the real write path may take; the days beyond what fits are bulk-loaded by SQL (0: no limit). */
    'ingest-budget': { type: 'string', default: '900' },
    /** Days ingested through the real path before the rate is estimated. */
    'probe-days': { type: 'string', default: '5' },
    batch: { type: 'string', default: '2000' },
    iterations: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '5' },
    'scan-iterations': { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
});
if (!['pglite', 'postgres', 'all'].includes(args.db)) throw new Error('--db is pglite, postgres or all');
const DEVICES = Number(args.devices);
const DAYS = Number(args.days);
const BUDGET_S = Number(args['ingest-budget']);
const PROBE_DAYS = Math.min(DAYS, Number(args['probe-days']));
/** The telemetry writer's batch (createRowWriter's maxBatch default). */
const BATCH = Number(args.batch);
const ITERATIONS = Number(args.iterations);
const WARMUP = Number(args.warmup);
const SCAN_ITERATIONS = Number(args['scan-iterations']);
const MAPS = 10;
const GATEWAYS_PER_MAP = 2;
const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata'];
const QUARTER_MS = 15 * 60_000;
const PER_DAY = 96;
/** The readings end here; the measured month (September 2026) lies wholly inside in every zone when DAYS >= 35. */
const END = Date.parse('2026-10-05T00:00:00Z');
const START = END - DAYS * 86_400_000;
const MONTH = { from: '2026-09-01', to: '2026-09-30' };
const RATED_W = 36;
const TARGET_RATIO = 1 / 20;
const TARGET_P95_MS = 300;
const TARGET_BYTES = 60;
if (DAYS < 35) throw new Error('--days: at least 35, so that September 2026 is whole');

const log = (line: string) => process.stdout.write(`${line}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * The power a device reported for the quarter before its reading j (W): standby 0.3 W for 10 hours of every
 * 24 (shifted per device), otherwise dimmed to 30-93% of 36 W. The SQL bulk load computes the same in float8.
 */
function powerOf(i: number, j: number): number {
  return (j + i * 7) % 96 < 40 ? 0.3 : RATED_W * (0.3 + 0.07 * ((j * 7 + i) % 10));
}
const POWER_SQL = `case when ((j + b.idx * 7) % 96) < 40 then 0.3::float8 else ${RATED_W}::float8 * (0.3::float8 + 0.07::float8 * ((j * 7 + b.idx) % 10)) end`;

async function one<T>(sql: SqlClient, text: string, params: unknown[] = []): Promise<T> {
  const { rows } = await sql.query<T>(text, params);
  if (!rows[0]) throw new Error(`no row: ${text}`);
  return rows[0];
}

interface Site {
  tenantId: bigint;
  projectId: bigint;
  devices: Array<{ mac: string; addr: string }>;
}

/**
 * One account, one project of two buildings with five maps each, two gateways per map (zones UTC, New York and
 * Kolkata in turn), DEVICES light-dimmers spread evenly over the gateways. `bench_devices` keeps each device's
 * index for the SQL bulk load (not an energy table, so in no size figure).
 */
async function setUp(sql: SqlClient): Promise<Site> {
  const { id: tenant } = await one<{ id: string }>(
    sql,
    `insert into users (account, name, password_hash, user_auth, operate_auth) values ('bench-energy', 'bench-energy', 'x', 1, 1) returning id::text as id`,
  );
  const { id: project } = await one<{ id: string }>(
    sql,
    `insert into projects (tenant_id, name) values ($1, 'Energy project') returning id::text as id`,
    [tenant],
  );
  const gateways: Array<{ id: string; mac: string }> = [];
  for (let b = 0; b < 2; b++) {
    const { id: build } = await one<{ id: string }>(
      sql,
      `insert into buildings (tenant_id, project_id, name) values ($1, $2, $3) returning id::text as id`,
      [tenant, project, `Building ${b + 1}`],
    );
    for (let m = 0; m < MAPS / 2; m++) {
      const { id: map } = await one<{ id: string }>(
        sql,
        `insert into maps (tenant_id, project_id, build_id, name) values ($1, $2, $3, $4) returning id::text as id`,
        [tenant, project, build, `Floor ${m + 1}`],
      );
      for (let g = 0; g < GATEWAYS_PER_MAP; g++) {
        const mac = randomBytes(6).toString('hex').toUpperCase();
        const zone = ZONES[gateways.length % ZONES.length]!;
        const { id } = await one<{ id: string }>(
          sql,
          `insert into gateways (mac, tenant_id, map_id, name, timezone) values ($1, $2, $3, $4, $5) returning id::text as id`,
          [mac, tenant, map, `GW ${mac.slice(-4)}`, zone],
        );
        gateways.push({ id, mac });
      }
    }
  }
  await sql.query(`create table bench_devices (device_id bigint primary key, idx int not null)`);
  const devices: Site['devices'] = [];
  for (let i = 0; i < DEVICES; i++) {
    const gw = gateways[i % gateways.length]!;
    const addr = `00124B00${String(i).padStart(8, '0')}`;
    const { id } = await one<{ id: string }>(
      sql,
      `insert into devices (tenant_id, gateway_id, map_id, addr, kind, type, name)
       select $1, g.id, g.map_id, $3, 'light-dimmer', $4, $3 from gateways g where g.id = $2 returning id::text as id`,
      [tenant, gw.id, addr, DEVICE_TYPE_CODES['light-dimmer']],
    );
    await sql.query(`insert into bench_devices values ($1, $2)`, [id, i]);
    devices.push({ mac: gw.mac, addr });
  }
  return { tenantId: BigInt(tenant), projectId: BigInt(project), devices };
}

/** Readings j (global quarter index) in [from, to) of every device, in time order, DEVICES per quarter. */
function* samplesOf(site: Site, counters: Float64Array, from: number, to: number): Generator<EnergySample[]> {
  let batch: EnergySample[] = [];
  for (let j = from; j < to; j++) {
    const reportedAt = new Date(START + j * QUARTER_MS).toISOString();
    for (let i = 0; i < DEVICES; i++) {
      const power = powerOf(i, j);
      if (j > 0) counters[i] = counters[i]! + power * 0.25;
      const d = site.devices[i]!;
      batch.push({ mac: d.mac, addr: d.addr, power, energyWh: counters[i]!, reportedAt });
      if (batch.length === BATCH) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/**
 * Days [fromDay, toDay) by SQL, one statement a day: the readings, and the same rollup rows the repo would add
 * (each reading's quarter lies in one UTC hour and one local hour), continuing from energy_device_state.
 */
async function bulkDays(sql: SqlClient, fromDay: number, toDay: number): Promise<void> {
  const parts = new Set<string>();
  for (let at = START + fromDay * 86_400_000; at < START + toDay * 86_400_000 + 86_400_000; at += 86_400_000) {
    const p = monthPartitionOf(at);
    if (parts.has(p.name)) continue;
    parts.add(p.name);
    await sql.query(`create table if not exists ${p.name} partition of energy_readings for values from ('${p.from}') to ('${p.to}')`);
  }
  for (let day = fromDay; day < toDay; day++) {
    const j0 = day * PER_DAY;
    await sql.query(
      `with s as (
         select b.device_id, d.tenant_id, d.map_id, coalesce(g.timezone, 'UTC') as tz, j,
                $1::timestamptz + j * interval '15 minutes' as at, ${POWER_SQL} as power
         from bench_devices b join devices d on d.id = b.device_id join gateways g on g.id = d.gateway_id
         cross join generate_series($2::int, $3::int) j
       ), c as (
         select s.*, s.power * 0.25::float8 as e, s.at - interval '15 minutes' as from_at,
                st.counter_wh + sum(s.power * 0.25::float8) over (partition by s.device_id order by s.j) as counter
         from s join energy_device_state st on st.device_id = s.device_id
       ), p as (
         select c.*, case when c.e / 0.25::float8 > 0.5 then greatest(0, ${RATED_W}::float8 * 0.25::float8 - c.e) else 0 end as saved,
                case when c.e / 0.25::float8 > 0.5 then 900 else 0 end as on_s
         from c
       ), r as (
         insert into energy_readings (device_id, read_at, energy_wh, power_w)
         select device_id, at, counter, power from p order by j, device_id
       ), dh as (
         insert into energy_device_hours as t (device_id, tenant_id, hour, energy_wh, saved_wh, on_s)
         select device_id, tenant_id, date_trunc('hour', from_at at time zone 'UTC') at time zone 'UTC', sum(e), sum(saved), sum(on_s)
         from p group by 1, 2, 3
         on conflict (device_id, hour) do update set
           energy_wh = t.energy_wh + excluded.energy_wh, saved_wh = t.saved_wh + excluded.saved_wh, on_s = t.on_s + excluded.on_s
       ), mh as (
         insert into energy_map_hours as t (tenant_id, map_id, local_hour, energy_wh, saved_wh, on_s)
         select tenant_id, map_id, date_trunc('hour', from_at at time zone tz), sum(e), sum(saved), sum(on_s)
         from p group by 1, 2, 3
         on conflict on constraint energy_map_hours_key do update set
           energy_wh = t.energy_wh + excluded.energy_wh, saved_wh = t.saved_wh + excluded.saved_wh, on_s = t.on_s + excluded.on_s
       ), md as (
         insert into energy_map_days as t (tenant_id, map_id, local_date, energy_wh, saved_wh, on_s)
         select tenant_id, map_id, (from_at at time zone tz)::date, sum(e), sum(saved), sum(on_s)
         from p group by 1, 2, 3
         on conflict on constraint energy_map_days_key do update set
           energy_wh = t.energy_wh + excluded.energy_wh, saved_wh = t.saved_wh + excluded.saved_wh, on_s = t.on_s + excluded.on_s
       )
       update energy_device_state st set read_at = l.at, counter_wh = l.counter, counter_at = l.at
       from (select distinct on (device_id) device_id, at, counter from p order by device_id, j desc) l
       where st.device_id = l.device_id`,
      [new Date(START).toISOString(), j0, j0 + PER_DAY - 1],
    );
  }
}

interface Ingest {
  realDays: number;
  realReadings: number;
  realSeconds: number;
  readingsPerS: number;
  bulkDays: number;
  bulkReadings: number;
  bulkSeconds: number;
  bulkReadingsPerS: number;
}

async function ingest(database: Database, sql: SqlClient, site: Site, kind: string): Promise<Ingest> {
  const repo = createEnergyRepo(database.db, ownedReads);
  const counters = new Float64Array(DEVICES).map((_, i) => 1000 + i);
  let readings = 0;
  let seconds = 0;
  const realPath = async (fromDay: number, toDay: number) => {
    const t0 = performance.now();
    for (const batch of samplesOf(site, counters, fromDay * PER_DAY, toDay * PER_DAY)) {
      const r = await repo.record(batch);
      if (r.readings !== batch.length) throw new Error(`record took ${r.readings} of ${batch.length}`);
      readings += r.readings;
    }
    seconds += (performance.now() - t0) / 1000;
  };
  await realPath(0, PROBE_DAYS);
  const perDay = seconds / PROBE_DAYS;
  let realDays = DAYS;
  if (BUDGET_S > 0) realDays = Math.max(PROBE_DAYS, Math.min(DAYS, Math.floor(BUDGET_S / perDay)));
  log(
    `${kind}: ${PROBE_DAYS} days through record() in ${round(seconds)} s (${fmt(readings / seconds)} readings/s); ` +
      `180 days would take ${fmt((perDay * 180) / 60)} min: ${realDays} days through record(), ${DAYS - realDays} by SQL`,
  );
  for (let day = PROBE_DAYS; day < realDays; day += 5) {
    await realPath(day, Math.min(realDays, day + 5));
    log(`  day ${Math.min(realDays, day + 5)}: ${fmt(readings)} readings, ${fmt(readings / seconds)}/s, load ${loadavg()[0]!.toFixed(1)}`);
  }
  const t0 = performance.now();
  await bulkDays(sql, realDays, DAYS);
  const bulkSeconds = (performance.now() - t0) / 1000;
  const bulkReadings = (DAYS - realDays) * PER_DAY * DEVICES;
  return {
    realDays,
    realReadings: readings,
    realSeconds: round(seconds),
    readingsPerS: Math.round(readings / seconds),
    bulkDays: DAYS - realDays,
    bulkReadings,
    bulkSeconds: round(bulkSeconds),
    bulkReadingsPerS: bulkReadings ? Math.round(bulkReadings / bulkSeconds) : 0,
  };
}

async function sizes(sql: SqlClient) {
  const readings = await one<{ bytes: string; heap: string; n: string }>(
    sql,
    `select sum(pg_total_relation_size(i.inhrelid))::text as bytes, sum(pg_relation_size(i.inhrelid))::text as heap,
            (select count(*) from energy_readings)::text as n
     from pg_inherits i where i.inhparent = 'energy_readings'::regclass`,
  );
  const rollups = await sql.query<{ name: string; bytes: string; n: string }>(
    `select t.name, pg_total_relation_size(t.name::regclass)::text as bytes,
            (xpath('/row/n/text()', query_to_xml('select count(*) as n from ' || t.name, false, true, '')))[1]::text as n
     from (values ('energy_device_hours'), ('energy_map_hours'), ('energy_map_days'), ('energy_device_state')) t(name)`,
  );
  const n = Number(readings.n);
  return {
    readings: n,
    readingsBytes: Number(readings.bytes),
    bytesPerReading: round(Number(readings.bytes) / n, 1),
    heapBytesPerReading: round(Number(readings.heap) / n, 1),
    rollups: rollups.rows.map((r) => ({
      table: r.name,
      rows: Number(r.n),
      bytes: Number(r.bytes),
      bytesPerReading: round(Number(r.bytes) / n, 2),
    })),
  };
}

/** The month's energy and savings per local day of the project's devices, from the readings alone. */
const SCAN_SQL = `
  with r as (
    select e.device_id, e.read_at, e.energy_wh, -- real: differences and sums in float8 (sum(real) adds in float4)
           lag(e.energy_wh) over w as prev_wh, lag(e.read_at) over w as prev_at
    from energy_readings e
    where e.read_at >= $2::date - interval '2 days' and e.read_at < $3::date + interval '2 days'
    window w as (partition by e.device_id order by e.read_at)
  ), i as (
    select (r.prev_at at time zone coalesce(g.timezone, 'UTC'))::date as day,
           case when r.energy_wh >= r.prev_wh then r.energy_wh::float8 - r.prev_wh::float8 else r.energy_wh::float8 end as e,
           extract(epoch from r.read_at - r.prev_at) / 3600 as h
    from r join devices d on d.id = r.device_id join gateways g on g.id = d.gateway_id
    join maps m on m.id = d.map_id and m.tenant_id = d.tenant_id and m.project_id = $1
    where r.prev_at is not null
  )
  select to_char(day, 'YYYY-MM-DD') as bucket, sum(e) as energy_wh,
         sum(case when e / h > 0.5 then greatest(0, ${RATED_W} * h - e) else 0 end) as saved_wh
  from i where day between $2::date and $3::date group by 1 order by 1`;

async function measure(database: Database, sql: SqlClient, site: Site) {
  const projectsRepo = createProjectsRepo(database.db, ownedReads);
  const access = createProjectAccess({
    access: createAccess({ repo: createAccessRepo(database.db, ownedReads) }),
    mapsRepo: createMapsRepo(database.db),
    projectsRepo,
  });
  const service = createEnergyStatsService({ repo: createEnergyStatsRepo(database.db), access });
  const auth = { tenantId: site.tenantId };
  const projectId = String(site.projectId);
  const total = () => service.total(auth, { projectId, period: 'month', date: MONTH.from });
  const page = () => service.records(auth, { projectId, from: MONTH.from, to: MONTH.to, unit: 'day', page: 1 });
  const scan = () => sql.query<{ bucket: string; energy_wh: number; saved_wh: number }>(SCAN_SQL, [projectId, MONTH.from, MONTH.to]);
  const cases = [
    { name: 'total (month, project), rollups', run: async () => (await total()).buckets.length, samples: [] as number[] },
    { name: 'page_record page 1 (month, day), rollups', run: async () => (await page()).list.length, samples: [] as number[] },
  ];
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(i + k) % cases.length]!;
      const t0 = performance.now();
      await c.run();
      if (i >= WARMUP) c.samples.push(performance.now() - t0);
    }
  }
  const scanSamples: number[] = [];
  let scanned: Awaited<ReturnType<typeof scan>> | undefined;
  for (let i = 0; i < SCAN_ITERATIONS; i++) {
    const t0 = performance.now();
    scanned = await scan();
    scanSamples.push(performance.now() - t0);
    log(`  raw scan ${i + 1}: ${fmt(scanSamples.at(-1)!)} ms`);
  }
  const answer = await total();
  const scanWh = scanned!.rows.reduce((s, r) => s + Number(r.energy_wh), 0);
  const scanSavedWh = scanned!.rows.reduce((s, r) => s + Number(r.saved_wh), 0);
  const scanP50 = quantile(scanSamples, 0.5);
  const figures = cases.map((c) => ({
    name: c.name,
    p50: round(quantile(c.samples, 0.5), 2),
    p95: round(quantile(c.samples, 0.95), 2),
    max: round(quantile(c.samples, 1), 2),
    p50VsScan: round(quantile(c.samples, 0.5) / scanP50, 5),
  }));
  return {
    figures,
    scan: { p50: round(scanP50), min: round(quantile(scanSamples, 0)), max: round(quantile(scanSamples, 1)), runs: scanSamples.length },
    check: {
      rollupKwh: answer.totals.energyKwh,
      scanKwh: round(scanWh / 1000, 3),
      rollupSavedKwh: answer.totals.savedKwh,
      scanSavedKwh: round(scanSavedWh / 1000, 3),
      days: scanned!.rows.length,
    },
  };
}

async function runOn(kind: 'pglite' | 'postgres', pgBase: string | undefined) {
  const target = await openBenchTarget(kind, pgBase, { keep: args.keep, log });
  try {
    const sql = (target.database.db as unknown as { $client: SqlClient }).$client;
    log(`${kind}: ${fmt(DEVICES)} devices x ${DAYS} days x ${PER_DAY} readings = ${fmt(DEVICES * DAYS * PER_DAY)} readings`);
    const site = await setUp(sql);
    const ingested = await ingest(target.database, sql, site, kind);
    log(
      `  record(): ${fmt(ingested.realReadings)} readings in ${ingested.realSeconds} s = ${fmt(ingested.readingsPerS)} readings/s` +
        (ingested.bulkDays
          ? `; SQL bulk: ${fmt(ingested.bulkReadings)} in ${ingested.bulkSeconds} s = ${fmt(ingested.bulkReadingsPerS)}/s`
          : ''),
    );
    const t0 = performance.now();
    await sql.query(`vacuum analyze`);
    log(`  vacuum analyze ${round((performance.now() - t0) / 1000)} s`);
    const size = await sizes(sql);
    log(
      `  energy_readings: ${fmt(size.readings)} rows, ${fmt(size.readingsBytes / 2 ** 20)} MiB, ${size.bytesPerReading} B/reading (heap ${size.heapBytesPerReading})`,
    );
    for (const r of size.rollups) log(`  ${r.table}: ${fmt(r.rows)} rows, ${fmt(r.bytes / 2 ** 20)} MiB, ${r.bytesPerReading} B/reading`);
    log(`${kind}: ${WARMUP} warm-up and ${ITERATIONS} measured rounds of the month report, then ${SCAN_ITERATIONS} raw scans`);
    const m = await measure(target.database, sql, site);
    log('');
    log(`${kind}                                      p50 ms   p95 ms   max ms   p50/scan`);
    for (const f of m.figures) {
      log(
        `  ${f.name.padEnd(40)} ${f.p50.toFixed(1).padStart(7)} ${f.p95.toFixed(1).padStart(8)} ${f.max.toFixed(1).padStart(8)}   1/${fmt(1 / f.p50VsScan)}`,
      );
    }
    log(
      `  raw scan of the month's readings          ${String(m.scan.p50).padStart(7)}  (min ${m.scan.min}, max ${m.scan.max}, ${m.scan.runs} runs)`,
    );
    const worst = m.figures[0]!;
    log(
      `  target total p95 <= ${TARGET_P95_MS} ms: ${worst.p95} ms, ${worst.p95 <= TARGET_P95_MS ? 'met' : 'MISSED'}; ` +
        `<= 1/20 of the scan: 1/${fmt(1 / worst.p50VsScan)}, ${worst.p50VsScan <= TARGET_RATIO ? 'met' : 'MISSED'}`,
    );
    log(`  target <= ${TARGET_BYTES} B/reading: ${size.bytesPerReading}, ${size.bytesPerReading <= TARGET_BYTES ? 'met' : 'MISSED'}`);
    log(
      `  check: month used ${m.check.rollupKwh} kWh (rollups) vs ${m.check.scanKwh} kWh (scan), saved ${m.check.rollupSavedKwh} vs ${m.check.scanSavedKwh}, ${m.check.days} days`,
    );
    log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    return {
      db: kind,
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', memGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
      setup: {
        devices: DEVICES,
        days: DAYS,
        perDay: PER_DAY,
        maps: MAPS,
        zones: ZONES,
        batch: BATCH,
        month: MONTH,
        iterations: ITERATIONS,
      },
      ingest: ingested,
      size,
      ...m,
    };
  } finally {
    await target.database.close();
    await target.cleanup();
  }
}

const pgBase = args.db === 'pglite' ? undefined : await postgresBase();
const wanted = args.db === 'all' ? (['postgres', 'pglite'] as const) : ([args.db] as Array<'pglite' | 'postgres'>);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
for (const kind of wanted) {
  if (kind === 'postgres' && !pgBase) {
    log('postgres: skipped, no server answers (DATABASE_URL or 127.0.0.1:5432)');
    continue;
  }
  const result = await runOn(kind, pgBase);
  writeFileSync(join(import.meta.dirname, 'results', `energy-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
}
