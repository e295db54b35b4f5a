/**
 * The alarm engine under a fault storm: `--rate` fault events a second (raises and clears of offline and battery
 * faults over `--sources` fault sources) for `--duration` seconds, through the product's alarm keeper on a real
 * database (alarms table, notification jobs, the banner's audience query), timing each raise (each changes an alarm: raised,
 * or repeated within the off-delay) to the banner notice that told of it. Then the same events as fast as they go, against the baseline of
 * what the fault list already does for each of them (the alerts repo's raise and clear) in the same run. See
 * bench/README.md ("Alarms: the engine under a fault storm").
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Clock } from '../apps/server/src/lib/clock.ts';
import { createJobRunner } from '../apps/server/src/jobs/job-runner.ts';
import { createAlarmKeeper, type FaultSource } from '../apps/server/src/modules/alarms/alarm-keeper.ts';
import { createAlarmsRepo } from '../apps/server/src/modules/alarms/alarms.repo.ts';
import { createAlertsRepo } from '../apps/server/src/modules/alerts/alerts.repo.ts';
import type { SqlClient } from './bulk-load.ts';
import { openBenchTarget, postgresBase } from './postgres-target.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    rate: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '10' },
    sources: { type: 'string', default: '2000' },
    /** Events of the saturated phase (and of its baseline). */
    flood: { type: 'string', default: '5000' },
  },
});
if (!['pglite', 'postgres', 'all'].includes(args.db)) throw new Error('--db is pglite, postgres or all');
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const SOURCES = Number(args.sources);
const FLOOD = Number(args.flood);
const GATEWAYS = 10;
const TARGET_P99_MS = 50;

const log = (line: string) => process.stdout.write(`${line}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function one<T>(sql: SqlClient, text: string, params: unknown[] = []): Promise<T> {
  const { rows } = await sql.query<T>(text, params);
  if (!rows[0]) throw new Error(`no row: ${text}`);
  return rows[0];
}

/** One account, one project, building and map, GATEWAYS gateways; the fault sources spread over them. */
async function seed(sql: SqlClient): Promise<FaultSource[]> {
  const { id: tenant } = await one<{ id: string }>(
    sql,
    `insert into users (account, name, password_hash, user_auth, operate_auth, all_projects) values ($1, $1, 'x', 2, 0, true) returning id::text as id`,
    [`bench-alarms-${randomBytes(3).toString('hex')}`],
  );
  const project = await one<{ id: string }>(sql, `insert into projects (tenant_id, name) values ($1, 'Plant') returning id::text as id`, [
    tenant,
  ]);
  const build = await one<{ id: string }>(
    sql,
    `insert into buildings (tenant_id, project_id, name) values ($1, $2, 'Hall') returning id::text as id`,
    [tenant, project.id],
  );
  const map = await one<{ id: string }>(
    sql,
    `insert into maps (tenant_id, project_id, build_id, name) values ($1, $2, $3, 'Floor 1') returning id::text as id`,
    [tenant, project.id, build.id],
  );
  const gateways: Array<{ id: bigint; name: string }> = [];
  for (let g = 0; g < GATEWAYS; g++) {
    const mac = randomBytes(6).toString('hex').toUpperCase();
    const row = await one<{ id: string }>(
      sql,
      `insert into gateways (mac, tenant_id, map_id, name) values ($1, $2, $3, $4) returning id::text as id`,
      [mac, tenant, map.id, `GW ${mac.slice(-4)}`],
    );
    gateways.push({ id: BigInt(row.id), name: `GW ${mac.slice(-4)}` });
  }
  return Array.from({ length: SOURCES }, (_, i) => {
    const gateway = gateways[i % GATEWAYS]!;
    return {
      tenantId: BigInt(tenant),
      gatewayId: gateway.id,
      gatewayName: gateway.name,
      deviceId: null,
      addr: (Math.floor(i / GATEWAYS) + 1).toString(16).toUpperCase().padStart(4, '0'),
      name: `Light ${i + 1}`,
      projectId: BigInt(project.id),
      mapId: BigInt(map.id),
      // Offline (no on-delay, 30 s off-delay) and battery (critical, no on-delay): every raise of a quiet source is an alarm.
      code: i % 2 === 0 ? 2 : 6,
    };
  });
}

/** The events: each source raised, then cleared, then raised again..., sources taken round-robin. */
function* events(sources: FaultSource[]): Generator<{ kind: 'raise' | 'clear'; source: FaultSource }> {
  const faulty = new Set<number>();
  for (let i = 0; ; i++) {
    const index = (i * 7919) % sources.length;
    const kind = faulty.has(index) ? 'clear' : 'raise';
    if (kind === 'raise') faulty.add(index);
    else faulty.delete(index);
    yield { kind, source: sources[index]! };
  }
}

async function runOn(kind: 'pglite' | 'postgres', pgBase: string | undefined) {
  const target = await openBenchTarget(kind, pgBase, { log });
  try {
    const sql = (target.database.db as unknown as { $client: SqlClient }).$client;
    const sources = await seed(sql);
    const clock: Clock = { now: () => new Date() };
    const repo = createAlarmsRepo(target.database.db);
    // A raise changes an alarm (raised, or repeated within the off-delay); a clear waits out its off-delay.
    let awaitingBanner: number[] = [];
    const latencies: number[] = [];
    let notices = 0;
    const jobs = createJobRunner({ db: target.database.db, clock, logger: { info: () => undefined, warn: log, error: log } });
    const keeper = createAlarmKeeper({
      repo,
      clock,
      jobs,
      messenger: { send: async () => undefined },
      hub: {
        publishToUser: () => {
          notices += 1;
          const now = performance.now();
          for (const t0 of awaitingBanner) latencies.push(now - t0);
          awaitingBanner = [];
        },
      },
      logger: { warn: (o: unknown) => log(`warn ${JSON.stringify(o, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`) },
    });
    await keeper.start();
    const stream = events(sources);
    const send = () => {
      const event = stream.next().value!;
      const t0 = performance.now();
      const done =
        event.kind === 'raise'
          ? keeper.faultRaised(event.source)
          : keeper.faultCleared({ gatewayId: event.source.gatewayId, addr: event.source.addr, codes: [event.source.code] });
      return done.then(() => {
        if (event.kind === 'raise') awaitingBanner.push(t0);
      });
    };

    // Paced: RATE events a second, sent every 10 ms in equal parts.
    log(`${kind}: ${RATE} fault events/s for ${DURATION_S} s over ${SOURCES} sources`);
    const pending: Promise<void>[] = [];
    const started = performance.now();
    const total = RATE * DURATION_S;
    let sent = 0;
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      while (sent < due) {
        pending.push(send());
        sent += 1;
      }
      await sleep(10);
    }
    await Promise.all(pending);
    const pacedMs = performance.now() - started;
    await keeper.settled();
    await sleep(300);
    const paced = {
      events: total,
      eventsPerS: round(total / (pacedMs / 1000), 0),
      changed: latencies.length,
      notices,
      bannerP50Ms: round(quantile(latencies, 0.5)),
      bannerP99Ms: round(quantile(latencies, 0.99)),
      bannerMaxMs: round(quantile(latencies, 1)),
    };

    // Saturated: FLOOD events at once through the keeper, then the same through the alerts repo (the baseline).
    const floodStart = performance.now();
    await Promise.all(Array.from({ length: FLOOD }, () => send()));
    await keeper.settled();
    const keeperMs = performance.now() - floodStart;
    const alerts = createAlertsRepo(target.database.db);
    const baseStream = events(sources);
    const baseStart = performance.now();
    for (let i = 0; i < FLOOD; i++) {
      const { kind: k, source } = baseStream.next().value!;
      if (k === 'raise') await alerts.raise({ ...source, deviceType: null, buildId: null, raisedAt: new Date() });
      else await alerts.clear({ gatewayId: source.gatewayId, addr: source.addr, code: source.code, at: new Date() });
    }
    const baseMs = performance.now() - baseStart;
    keeper.close();
    const saturated = {
      events: FLOOD,
      alarmEventsPerS: round(FLOOD / (keeperMs / 1000), 0),
      alertEventsPerS: round(FLOOD / (baseMs / 1000), 0),
      alarmVsAlertTime: round(keeperMs / baseMs, 2),
    };
    log('');
    log(`${kind}  paced: ${paced.eventsPerS} events/s handled, ${paced.changed} raises timed, ${paced.notices} banner notices`);
    log(`  event -> banner notice: p50 ${paced.bannerP50Ms} ms, p99 ${paced.bannerP99Ms} ms, max ${paced.bannerMaxMs} ms`);
    log(`  target p99 <= ${TARGET_P99_MS} ms at ${RATE} events/s: ${paced.bannerP99Ms <= TARGET_P99_MS ? 'met' : 'MISSED'}`);
    log(
      `${kind}  saturated: alarms ${saturated.alarmEventsPerS} events/s; baseline (alerts repo raise/clear) ${saturated.alertEventsPerS} events/s; alarm/alert time x${saturated.alarmVsAlertTime}`,
    );
    log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${cpus().length} cores`,
    );
    return { db: kind, rate: RATE, durationS: DURATION_S, sources: SOURCES, paced, saturated };
  } finally {
    await target.database.close();
    await target.cleanup();
  }
}

const pgBase = args.db === 'pglite' ? undefined : await postgresBase();
const results = [];
for (const kind of ['pglite', 'postgres'] as const) {
  if (args.db !== 'all' && args.db !== kind) continue;
  if (kind === 'postgres' && !pgBase) {
    log('postgres: no server answers; skipped');
    continue;
  }
  results.push(await runOn(kind, pgBase));
}
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'alarms.json'), JSON.stringify(results, null, 2));
