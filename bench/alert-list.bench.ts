/**
 * The fault list at a million alerts: the first page and page 5,000 (by the keyset cursor and by OFFSET), with
 * and without filters, through the alerts repo's own `page()` (the query of status/v1/page_alerts with its
 * total), against the baseline `select * from alerts where tenant_id = $1 order by raised_at desc, id desc
 * limit 20` on the same table, in the same process and run. See bench/README.md ("Alerts: the fault list").
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Database } from '../apps/server/src/db/client.ts';
import { createAlertsRepo, type AlertFilter } from '../apps/server/src/modules/alerts/alerts.repo.ts';
import type { SqlClient } from './bulk-load.ts';
import { openBenchTarget, postgresBase } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    alerts: { type: 'string', default: '1000000' },
    'page-size': { type: 'string', default: '20' },
    'deep-page': { type: 'string', default: '5000' },
    iterations: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '30' },
    /** Leaves the loaded PostgreSQL database in place (for EXPLAIN) and says its URL; drop it by hand. */
    keep: { type: 'boolean', default: false },
  },
});
if (!['pglite', 'postgres', 'all'].includes(args.db)) throw new Error('--db is pglite, postgres or all');
/** The measured account's alerts; the two other accounts get one for every ten of these, interleaved in time. */
const ALERTS = Number(args.alerts);
const PAGE_SIZE = Number(args['page-size']);
const DEEP_PAGE = Number(args['deep-page']);
const ITERATIONS = Number(args.iterations);
const WARMUP = Number(args.warmup);
/** The account's gateways: two on each of six maps (three projects of one building with two maps each). */
const GATEWAYS = 12;
const TARGET_P99_MS = 50;
const TARGET_DEEP_RATIO = 2;

const log = (line: string) => process.stdout.write(`${line}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The q-quantile (0-1) of samples in milliseconds. */
function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

interface Place {
  projectId: bigint;
  buildId: bigint;
  mapId: bigint;
}

interface Site {
  tenant: bigint;
  /** The measured account's maps, from the busiest (most alerts) to the quietest. */
  maps: Place[];
}

async function one<T>(sql: SqlClient, text: string, params: unknown[] = []): Promise<T> {
  const { rows } = await sql.query<T>(text, params);
  if (!rows[0]) throw new Error(`no row: ${text}`);
  return rows[0];
}

/** An account with `maps` maps (one building per project, two maps per building) and two gateways per map. */
async function account(sql: SqlClient, name: string, projects: number): Promise<{ tenant: bigint; maps: Place[] }> {
  const { id: tenant } = await one<{ id: string }>(
    sql,
    `insert into users (account, name, password_hash, user_auth, operate_auth) values ($1, $1, 'x', 1, 1) returning id::text as id`,
    [`bench-${name}`],
  );
  const maps: Place[] = [];
  for (let p = 0; p < projects; p++) {
    const project = await one<{ id: string }>(sql, `insert into projects (tenant_id, name) values ($1, $2) returning id::text as id`, [
      tenant,
      `${name} project ${p + 1}`,
    ]);
    const build = await one<{ id: string }>(
      sql,
      `insert into buildings (tenant_id, project_id, name) values ($1, $2, 'Main building') returning id::text as id`,
      [tenant, project.id],
    );
    for (let m = 0; m < 2; m++) {
      const map = await one<{ id: string }>(
        sql,
        `insert into maps (tenant_id, project_id, build_id, name) values ($1, $2, $3, $4) returning id::text as id`,
        [tenant, project.id, build.id, `Floor ${m + 1}`],
      );
      maps.push({ projectId: BigInt(project.id), buildId: BigInt(build.id), mapId: BigInt(map.id) });
      for (let g = 0; g < 2; g++) {
        const mac = randomBytes(6).toString('hex').toUpperCase();
        await sql.query(`insert into gateways (mac, tenant_id, map_id, name) values ($1, $2, $3, $4)`, [
          mac,
          tenant,
          map.id,
          `GW ${mac.slice(-4)}`,
        ]);
      }
    }
  }
  return { tenant: BigInt(tenant), maps };
}

/**
 * Loads ALERTS alerts of the measured account and ALERTS/10 of two other accounts, one statement: raised over
 * the year before now in id order (as they are raised), a few minutes of jitter, at millisecond precision like
 * the product's `Date`s; codes 1-9; gateways skewed (the first map gets about 41% of the alerts, the last 9%);
 * one in 500 still open, the others cleared within two hours; older than 30 days 90% handled, newer 30%.
 */
async function load(sql: SqlClient): Promise<Site> {
  const main = await account(sql, 'main', 3);
  const other1 = await account(sql, 'other-1', 1);
  const other2 = await account(sql, 'other-2', 1);
  const total = Math.round(ALERTS * 1.1);
  const started = performance.now();
  await sql.query(`select setseed(0.42)`);
  await sql.query(
    `insert into alerts (tenant_id, gateway_id, device_id, addr, code, name, device_type, gateway_name, project_id, build_id, map_id,
                         raised_at, cleared_at, handled_by, handled_by_name, handled_at, note)
     with g as (
       select gw.id, gw.name, gw.tenant_id, gw.map_id, m.project_id, m.build_id,
              (row_number() over (partition by gw.tenant_id order by gw.id) - 1)::int as k
       from gateways gw join maps m on m.id = gw.map_id
       where gw.tenant_id in ($2, $3, $4)
     ), s as (
       select i,
              case when i % 11 <> 0 then $2::bigint when i % 22 = 0 then $3::bigint else $4::bigint end as tenant,
              random() as r1, random() as r2, random() as r3, random() as r4, random() as r5,
              date_trunc('milliseconds', now() - interval '365 days' + (i::float8 / $1::int) * interval '365 days'
                                         - random() * interval '5 minutes') as raised
       from generate_series(1, $1::int) i
     ), a as (
       select s.*, case when s.tenant = $2::bigint then floor(s.r1 * s.r1 * ${GATEWAYS})::int else floor(s.r1 * 4)::int end as k,
              case when s.i % 500 = 0 then null
                   else date_trunc('milliseconds', s.raised + s.r4 * interval '2 hours') end as cleared
       from s
     )
     select a.tenant, g.id,
            null,
            case when a.i % 500 = 0 then 'OPEN' || a.i else upper(to_hex(1 + (a.i::bigint * 7919) % 4000)) end,
            1 + floor(a.r2 * 9)::int,
            'Light ' || upper(to_hex(1 + (a.i::bigint * 7919) % 4000)),
            2, g.name, g.project_id, g.build_id, g.map_id,
            a.raised, a.cleared,
            case when h then a.tenant end,
            case when h then 'Operator' end,
            case when h then coalesce(a.cleared, a.raised) + interval '1 hour' end,
            case when h then 'replaced the driver' else '' end
     from a cross join lateral (select a.cleared is not null and a.r5 < case when a.raised < now() - interval '30 days' then 0.9 else 0.3 end as h) hh
     join g on g.tenant_id = a.tenant and g.k = a.k`,
    [total, main.tenant, other1.tenant, other2.tenant],
  );
  const loaded = performance.now();
  // What autovacuum does to a table this size soon after: statistics, and the visibility map (index-only scans).
  await sql.query(`vacuum analyze alerts`);
  const counts = await sql.query<{ tenant: string; n: number }>(
    `select tenant_id::text as tenant, count(*)::int as n from alerts group by 1 order by 1`,
  );
  log(
    `  loaded ${counts.rows.map((r) => r.n.toLocaleString('en')).join(' + ')} alerts in ${round((loaded - started) / 1000)} s, vacuum analyze ${round((performance.now() - loaded) / 1000)} s`,
  );
  const byMap = await sql.query<{ map: string; n: number }>(
    `select map_id::text as map, count(*)::int as n from alerts where tenant_id = $1 group by 1 order by 2 desc`,
    [main.tenant],
  );
  const maps = byMap.rows.map((r) => main.maps.find((m) => m.mapId === BigInt(r.map))!);
  log(`  alerts per map of the measured account: ${byMap.rows.map((r) => r.n.toLocaleString('en')).join(', ')}`);
  return { tenant: main.tenant, maps };
}

/** The keyset cursor of the last row of the page before `page`, as the service parses it, found once by SQL. */
async function cursorBefore(sql: SqlClient, where: string, params: unknown[], page: number) {
  const row = await one<{ ms: string; id: string }>(
    sql,
    `select (extract(epoch from raised_at) * 1000)::bigint::text as ms, id::text as id from alerts where ${where}
     order by raised_at desc, id desc offset ${(page - 1) * PAGE_SIZE - 1} limit 1`,
    params,
  );
  return { raisedAt: new Date(Number(row.ms)), id: BigInt(row.id) };
}

interface Case {
  name: string;
  run(): Promise<number>;
}

interface CaseFigures {
  name: string;
  rows: number;
  p50: number;
  p99: number;
  max: number;
  p50VsBaseline: number;
  p99VsBaseline: number;
}

async function measure(db: Database, sql: SqlClient, site: Site): Promise<CaseFigures[]> {
  const repo = createAlertsRepo(db.db);
  const tenantId = site.tenant;
  const busiest = site.maps[0]!;
  const quietest = site.maps.at(-1)!;
  const deepOffset = (DEEP_PAGE - 1) * PAGE_SIZE;
  const after = await cursorBefore(sql, 'tenant_id = $1', [tenantId], DEEP_PAGE);
  const afterCode = await cursorBefore(sql, 'tenant_id = $1 and code = 3', [tenantId], DEEP_PAGE);
  const afterProject = await cursorBefore(sql, 'tenant_id = $1 and project_id = $2', [tenantId, busiest.projectId], DEEP_PAGE);
  const afterMap = await cursorBefore(sql, 'tenant_id = $1 and map_id = $2', [tenantId, busiest.mapId], DEEP_PAGE);
  const page = (f: Omit<AlertFilter, 'tenantId'> & { offset?: number; after?: { raisedAt: Date; id: bigint } }) => async () =>
    (await repo.page({ tenantId, limit: PAGE_SIZE, offset: 0, ...f })).rows.length;
  const cases: Case[] = [
    {
      name: 'baseline: select ... limit',
      run: async () =>
        (await sql.query(`select * from alerts where tenant_id = $1 order by raised_at desc, id desc limit ${PAGE_SIZE}`, [tenantId])).rows
          .length,
    },
    { name: 'first page', run: page({}) },
    { name: `page ${DEEP_PAGE}, keyset`, run: page({ after }) },
    { name: `page ${DEEP_PAGE}, OFFSET`, run: page({ offset: deepOffset }) },
    { name: 'code 3: first page', run: page({ code: 3 }) },
    { name: `code 3: page ${DEEP_PAGE}, keyset`, run: page({ code: 3, after: afterCode }) },
    { name: "busiest map's project: first page", run: page({ projectId: busiest.projectId }) },
    { name: `busiest map's project: page ${DEEP_PAGE}, keyset`, run: page({ projectId: busiest.projectId, after: afterProject }) },
    { name: 'busiest map: first page', run: page({ mapId: busiest.mapId }) },
    { name: `busiest map: page ${DEEP_PAGE}, keyset`, run: page({ mapId: busiest.mapId, after: afterMap }) },
    { name: 'quietest map: first page', run: page({ mapId: quietest.mapId }) },
    { name: 'sub-account, 2 quiet maps: first page', run: page({ mapIds: site.maps.slice(-2).map((m) => m.mapId) }) },
    { name: 'pending: first page', run: page({ state: 'pending' }) },
    { name: 'open: first page', run: page({ open: true }) },
  ];
  const samples = cases.map(() => [] as number[]);
  const rows = cases.map(() => 0);
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    // Every case once per round, starting at a different case each round, so a busy moment of a shared
    // machine falls on all of them alike.
    for (let j = 0; j < cases.length; j++) {
      const c = (i + j) % cases.length;
      const t0 = performance.now();
      rows[c] = await cases[c]!.run();
      if (i >= WARMUP) samples[c]!.push(performance.now() - t0);
    }
  }
  const base = { p50: quantile(samples[0]!, 0.5), p99: quantile(samples[0]!, 0.99) };
  return cases.map((c, k) => {
    const p50 = quantile(samples[k]!, 0.5);
    const p99 = quantile(samples[k]!, 0.99);
    return {
      name: c.name,
      rows: rows[k]!,
      p50: round(p50, 2),
      p99: round(p99, 2),
      max: round(quantile(samples[k]!, 1), 2),
      p50VsBaseline: round(p50 / base.p50),
      p99VsBaseline: round(p99 / base.p99),
    };
  });
}

async function runOn(kind: 'pglite' | 'postgres', pgBase: string | undefined) {
  const target = await openBenchTarget(kind, pgBase, { keep: args.keep, log });
  try {
    const sql = (target.database.db as unknown as { $client: SqlClient }).$client;
    log(
      `${kind}: loading ${ALERTS.toLocaleString('en')} alerts (+ ${Math.round(ALERTS * 0.1).toLocaleString('en')} of two other accounts)`,
    );
    const site = await load(sql);
    log(`${kind}: ${WARMUP} warm-up rounds, then ${ITERATIONS} measured rounds of every case (page size ${PAGE_SIZE})`);
    if (ITERATIONS === 0) return undefined;
    const figures = await measure(target.database, sql, site);
    const first = figures[1]!;
    const deep = figures[2]!;
    const worstP99 = Math.max(
      ...figures
        .slice(1)
        .filter((f) => !f.name.includes('OFFSET'))
        .map((f) => f.p99),
    );
    const deepRatio = round(deep.p99 / first.p99, 2);
    log('');
    log(`${kind}                                       rows   p50 ms   p99 ms   max ms   p50/base  p99/base`);
    for (const f of figures) {
      log(
        `  ${f.name.padEnd(40)} ${String(f.rows).padStart(4)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(8)} ${f.max.toFixed(2).padStart(8)} ${f.p50VsBaseline.toFixed(1).padStart(9)} ${f.p99VsBaseline.toFixed(1).padStart(9)}`,
      );
    }
    log(
      `  target p99 <= ${TARGET_P99_MS} ms (every case but OFFSET): worst ${worstP99} ms, ${worstP99 <= TARGET_P99_MS ? 'met' : 'MISSED'}`,
    );
    log(
      `  target page ${DEEP_PAGE} (keyset) p99 <= ${TARGET_DEEP_RATIO}x first page p99: ${deepRatio}x, ${deepRatio <= TARGET_DEEP_RATIO ? 'met' : 'MISSED'}`,
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
      setup: { alerts: ALERTS, pageSize: PAGE_SIZE, deepPage: DEEP_PAGE, iterations: ITERATIONS, warmup: WARMUP },
      figures,
      targets: { worstP99, deepRatio },
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
  if (result) writeFileSync(join(import.meta.dirname, 'results', `alert-list-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
}
