import { DEVICE_TYPE_CODES } from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, gateways } from '../../db/schema/index.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import { defaultMapId, userIdOf } from '../../test/gateways.fixtures.ts';
import { DATABASES, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { ownedReads } from '../../owned-reads.ts';
import { createEnergyRepo } from '../energy/energy.repo.ts';
import { createDeviceReportsRepo, type ReportRow } from './device-reports.repo.ts';
import { createEventsRepo, type EventRow } from './event-writer.ts';
import { createHistoryRetention } from './history-retention.ts';

const DAY = 24 * 3_600_000;
type Rows = Array<Record<string, unknown>>;

/** The history's retention job against a real database: old rows go in batches, recent ones and the rollups stay. */
describe.each(DATABASES)('history retention on %s', (kind) => {
  let h: Harness;
  const mac = 'A4C1380D0001';
  const addr = '00124B000D000001';
  let now: number;

  const rows = async (query: ReturnType<typeof sql>) => ((await h.database.db.execute(query)) as unknown as { rows: Rows }).rows;
  const count = async (table: string) => Number((await rows(sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);
  const ago = (days: number) => new Date(now - days * DAY).toISOString();
  const reportRow = (daysAgo: number): ReportRow => {
    const state = { addr, kind: 'light-dimmer', online: true, level: 10, fault: 0 } as const;
    return { mac, addr, kind: state.kind, online: true, fault: 0, state, reportedAt: ago(daysAgo), receivedAt: ago(daysAgo) };
  };
  const eventRow = (daysAgo: number): EventRow => ({
    mac,
    addr,
    type: 'sensor',
    data: { occupied: true },
    reportedAt: ago(daysAgo),
    receivedAt: ago(daysAgo),
  });
  const rollups = async () =>
    rows(sql`select
      (select count(*)::int from energy_device_hours) as hours,
      (select coalesce(sum(energy_wh), 0)::float8 from energy_device_hours) as hour_wh,
      (select count(*)::int from energy_map_days) as days,
      (select coalesce(sum(energy_wh), 0)::float8 from energy_map_days) as day_wh`);

  beforeAll(async () => {
    // 30 days for every kind; the job runner stays still, the test runs it.
    h = await startApp(
      kind,
      { REPORT_HISTORY_DAYS: '30', TELEMETRY_HISTORY_DAYS: '30', EVENT_HISTORY_DAYS: '30' },
      { jobs: { start: false } },
    );
    now = h.clock.now().getTime();
    const account = `history-retention-${kind}@example.com`;
    const token = await signUpByMail(h, account);
    const tenantId = BigInt(await userIdOf(h, account));
    const mapId = BigInt(await defaultMapId(h, token));
    const [gw] = await h.database.db.insert(gateways).values({ mac, tenantId, mapId, timezone: 'UTC' }).returning({ id: gateways.id });
    await h.database.db.insert(devices).values({
      tenantId,
      gatewayId: gw!.id,
      mapId,
      addr,
      kind: 'light-dimmer',
      type: DEVICE_TYPE_CODES['light-dimmer'],
      name: addr,
    });

    // 7 report rows and 4 events past 30 days, 3 and 1 within; readings 70 and 35 days ago (past), 24 and 1 (kept).
    const reports = createDeviceReportsRepo(h.database.db);
    await reports.appendHistory([40, 39, 38, 37, 36, 35, 31, 29, 10, 1].map(reportRow));
    await createEventsRepo(h.database.db, ownedReads).write([45, 40, 35, 31, 2].map(eventRow));
    await createEnergyRepo(h.database.db, ownedReads).record(
      [70, 35, 24, 1].map((daysAgo, i) => ({ mac, addr, power: 5, energyWh: 100 * (i + 1), reportedAt: ago(daysAgo) })),
    );
  }, 60_000);
  afterAll(async () => h?.close());

  it('removes rows past their retention in batches, drops whole past months of readings and keeps the rollups', async () => {
    expect(await count('energy_readings')).toBe(4);
    const rollupsBefore = await rollups();
    expect(Number(rollupsBefore[0]!.hours)).toBeGreaterThan(0);
    const sut = createHistoryRetention({
      db: h.database.db,
      reads: ownedReads,
      config: h.config,
      clock: h.clock,
      // A stand-in runner: the app's own already has this job; here only the batches are looked at.
      jobs: { register: () => undefined, schedule: (job) => h.app.jobs.schedule(job) },
      logger: memoryLogger().logger,
      batch: 3,
    });

    const result = await sut.purge();
    expect(result).toEqual({
      reports: 7,
      readings: 1,
      readingMonths: ['energy_readings_y2026m09'],
      events: 4,
      // Reports 3 + 3 + 1, readings 1, events 3 + 1.
      batches: 6,
    });
    const kept = await rows(sql`select received_at from device_reports order by received_at`);
    expect(kept.map((r) => new Date(r.received_at as string).toISOString())).toEqual([29, 10, 1].map(ago));
    expect(await count('device_events')).toBe(1);
    const readings = await rows(sql`select read_at from energy_readings order by read_at`);
    expect(readings.map((r) => new Date(r.read_at as string).toISOString())).toEqual([24, 1].map(ago));
    expect((await rows(sql`select to_regclass('energy_readings_y2026m09') is null as gone`))[0]!.gone).toBe(true);
    expect(await rollups()).toEqual(rollupsBefore);

    // Nothing left to remove: one short batch per kind.
    expect(await sut.purge()).toMatchObject({ reports: 0, readings: 0, readingMonths: [], events: 0, batches: 3 });
  });

  it('runs daily through the durable job runner', async () => {
    await createDeviceReportsRepo(h.database.db).appendHistory([reportRow(31)]);
    expect(await count('device_reports')).toBe(4);
    // Started with the app, the first run is due at the next midnight (UTC).
    h.clock.advance(DAY);
    expect(await h.app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    // Only the row past the retention goes; the one written 29 days ago is now exactly 30 days old and stays.
    expect(await count('device_reports')).toBe(3);
    const next = await rows(sql`select run_at from jobs where kind = 'history.retention' and state = 'queued'`);
    expect(next.map((r) => new Date(r.run_at as string).toISOString())).toEqual(['2026-11-25T00:00:00.000Z']);
  });
});
