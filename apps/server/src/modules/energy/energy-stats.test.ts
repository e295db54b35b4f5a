import {
  DEVICE_TYPE_CODES,
  OPERATE_AUTH,
  energyEndpoints,
  projectEndpoints,
  type EnergyReportBody,
  type EnergyTotalBody,
} from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, gateways } from '../../db/schema/index.ts';
import { runPrefix } from '../../test/gateway-link.fixtures.ts';
import { userIdOf } from '../../test/gateways.fixtures.ts';
import { DATABASES, apiData, endpointCaller, expectError, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { downloadWorkbook } from '../../test/workbook.ts';
import { ownedReads } from '../../owned-reads.ts';
import { createEnergyRepo, type EnergyRepo, type EnergySample } from './energy.repo.ts';

const HOUR = 3_600_000;
/** Hourly readings from here to END, on UTC gateways: the end of October to the start of December. */
const START = Date.parse('2026-10-30T00:00:00Z');
const END = Date.parse('2026-12-02T00:00:00Z');
/** light-dimmer's rated power: what an hour on would have used without dimming. */
const RATED_W = 36;

/** Wh a light used in the hour starting at `at`: always on (above standby), dimmed differently each hour. */
const usedA = (at: number) => 5 + ((at / HOUR) % 7) * 3;
const usedB = (at: number) => 10 + ((at / HOUR) % 3);

/** Sums `used` over the UTC hours in [from, to). */
function expectedWh(used: (at: number) => number, from: string, to: string) {
  let energy = 0;
  let saved = 0;
  for (let at = Date.parse(from); at < Date.parse(to); at += HOUR) {
    if (at < START || at >= END) continue;
    energy += used(at);
    saved += RATED_W - used(at);
  }
  return { energy, saved };
}

type Rows = Array<Record<string, unknown>>;

/**
 * The energy statistics, records and report over rollups written by the energy repo's own write path: buckets
 * of a day, month and year, the period before, rate and carbon, paging, place filters, the workbook, roles.
 */
describe.each(DATABASES)('energy statistics and records on %s', (kind) => {
  let h: Harness;
  let token: string;
  let repo: EnergyRepo;
  let tenantId: bigint;
  let projectId: string;
  let buildId: string;
  let otherBuildId: string;
  /** On the default building: A (UTC) and C (Tokyo). On a second building: B (UTC). */
  let mapA: string;
  let mapB: string;
  let mapC: string;
  const account = `energy-stats-${kind}@example.com`;
  const send = endpointCaller(
    () => h.app,
    () => token,
  );
  const rows = async (query: ReturnType<typeof sql>) => ((await h.database.db.execute(query)) as unknown as { rows: Rows }).rows;
  const total = (body: EnergyTotalBody) => apiData(h.app, energyEndpoints.total, { body }, { token });

  let addrSeq = 0;
  async function addLight(mapId: string, timeZone: string) {
    const mac = `E1${runPrefix()}${String(++addrSeq).padStart(4, '0')}`;
    const [gateway] = await h.database.db
      .insert(gateways)
      .values({ mac, tenantId, mapId: BigInt(mapId), timezone: timeZone })
      .returning({ id: gateways.id });
    const addr = `00124B01${String(addrSeq).padStart(8, '0')}`;
    await h.database.db.insert(devices).values({
      tenantId,
      gatewayId: gateway!.id,
      mapId: BigInt(mapId),
      addr,
      kind: 'light-dimmer',
      type: DEVICE_TYPE_CODES['light-dimmer'],
      name: addr,
    });
    return (at: number, energyWh: number, power: number): EnergySample => ({
      mac,
      addr,
      energyWh,
      power,
      reportedAt: new Date(at).toISOString(),
    });
  }

  /** Hourly counter readings of a light over START-END, written a batch at a time as the ingest path does. */
  async function recordHourly(sample: Awaited<ReturnType<typeof addLight>>, used: (at: number) => number) {
    const samples: EnergySample[] = [];
    let counter = 1000;
    for (let at = START; at <= END; at += HOUR) {
      samples.push(sample(at, counter, used(at)));
      counter += used(at);
    }
    for (let i = 0; i < samples.length; i += 200) await repo.record(samples.slice(i, i + 200));
  }

  /** The rollups summed directly, for the place's maps. */
  async function directSum(table: 'energy_map_days' | 'energy_map_hours', mapIds: string[], where: ReturnType<typeof sql>) {
    const ids = JSON.stringify(mapIds);
    const [row] = await rows(sql`
      select coalesce(sum(energy_wh), 0) as energy, coalesce(sum(saved_wh), 0) as saved from ${sql.raw(table)}
      where tenant_id = ${String(tenantId)}::bigint and map_id in (select jsonb_array_elements_text(${ids}::jsonb)::bigint) and ${where}`);
    return { energy: Number(row!.energy), saved: Number(row!.saved) };
  }

  beforeAll(async () => {
    h = await startApp(kind);
    token = await signUpByMail(h, account);
    tenantId = BigInt(await userIdOf(h, account));
    repo = createEnergyRepo(h.database.db, ownedReads);
    const tree = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token });
    const project = tree.projects.find((p) => p.isDefault)!;
    projectId = project.id;
    buildId = project.builds[0]!.id;
    mapA = project.builds[0]!.maps[0]!.id;
    const factory = treeFactory(h, token);
    const other = await factory.building({ projectId, name: 'West wing' });
    otherBuildId = other.id;
    mapB = (await factory.map({ buildId: otherBuildId, name: 'West floor' })).id;
    mapC = (await factory.map({ buildId, name: 'Tokyo annex' })).id;

    await recordHourly(await addLight(mapA, 'UTC'), usedA);
    await recordHourly(await addLight(mapB, 'UTC'), usedB);
    // 14:00-16:00 UTC is 23:00-01:00 in Tokyo: 10 Wh on the 10th, 20 Wh on the 11th, local time.
    const tokyo = await addLight(mapC, 'Asia/Tokyo');
    const at = Date.parse('2026-11-10T14:00:00Z');
    await repo.record([tokyo(at, 0, 10), tokyo(at + HOUR, 10, 10), tokyo(at + 2 * HOUR, 30, 20)]);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('answers a day as 24 local hours that sum to the hourly rollups', async () => {
    const day = await total({ projectId, period: 'day', date: '2026-11-11' });
    expect(day.unit).toBe('hour');
    expect(day.buckets.map((b) => b.bucket)).toEqual(Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0')));
    const direct = await directSum('energy_map_hours', [mapA, mapB, mapC], sql`local_hour >= '2026-11-11' and local_hour < '2026-11-12'`);
    const sum = day.buckets.reduce((s, b) => s + b.energyKwh, 0);
    expect(sum).toBeCloseTo(direct.energy / 1000, 2);
    expect(day.totals.energyKwh).toBeCloseTo(direct.energy / 1000, 3);
    expect(day.totals.savedKwh).toBeCloseTo(direct.saved / 1000, 3);
    // Hour 05 UTC of the 11th, on the two UTC maps, plus nothing from Tokyo at 05:00 local.
    const five = Date.parse('2026-11-11T05:00:00Z');
    expect(day.buckets[5]!.energyKwh).toBeCloseTo((usedA(five) + usedB(five)) / 1000, 6);

    // The Tokyo map's local midnight: its 23:00 hour is the 10th's, its 00:00 the 11th's.
    const tokyo11 = await total({ projectId, mapId: mapC, period: 'day', date: '2026-11-11' });
    expect(tokyo11.buckets.filter((b) => b.energyKwh > 0).map((b) => [b.bucket, b.energyKwh])).toEqual([['00', 0.02]]);
    const tokyo10 = await total({ projectId, mapId: mapC, period: 'day', date: '2026-11-10' });
    expect(tokyo10.buckets.filter((b) => b.energyKwh > 0).map((b) => [b.bucket, b.energyKwh])).toEqual([['23', 0.01]]);
  });

  it('answers a month as every one of its days, matching a direct sum, and the month before', async () => {
    const month = await total({ projectId, period: 'month', date: '2026-11-17' });
    expect(month.unit).toBe('day');
    expect(month.buckets).toHaveLength(30);
    expect(month.buckets[0]!.bucket).toBe('2026-11-01');
    expect(month.buckets[29]!.bucket).toBe('2026-11-30');
    const direct = await directSum('energy_map_days', [mapA, mapB, mapC], sql`local_date between '2026-11-01' and '2026-11-30'`);
    expect(month.totals.energyKwh).toBeCloseTo(direct.energy / 1000, 3);
    expect(month.totals.savedKwh).toBeCloseTo(direct.saved / 1000, 3);
    for (const b of month.buckets) expect(b.energyKwh).toBeGreaterThan(0);

    // One map: exactly its counter deltas.
    const a = await total({ projectId, mapId: mapA, period: 'month', date: '2026-11-01' });
    const expected = expectedWh(usedA, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z');
    expect(a.totals.energyKwh).toBeCloseTo(expected.energy / 1000, 3);
    expect(a.totals.savedKwh).toBeCloseTo(expected.saved / 1000, 3);
    // October has readings from the 30th only.
    const october = expectedWh(usedA, '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z');
    expect(a.previous.energyKwh).toBeCloseTo(october.energy / 1000, 3);

    // February has 28 days, and none of them energy.
    const february = await total({ projectId, period: 'month', date: '2027-02-10' });
    expect(february.buckets.map((b) => b.bucket)).toHaveLength(28);
    expect(february.buckets.every((b) => b.energyKwh === 0 && b.savedKwh === 0 && b.rate === null)).toBe(true);
    expect(february.totals).toEqual({ energyKwh: 0, savedKwh: 0, rate: null, carbonKg: 0 });
  });

  it('answers a year as its 12 months, and the year before', async () => {
    const year = await total({ projectId, buildId: otherBuildId, period: 'year', date: '2026-06-30' });
    expect(year.unit).toBe('month');
    expect(year.buckets.map((b) => b.bucket)).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`));
    const nonZero = year.buckets.filter((b) => b.energyKwh > 0).map((b) => b.bucket);
    expect(nonZero).toEqual(['2026-10', '2026-11', '2026-12']);
    const expected = expectedWh(usedB, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z');
    expect(year.totals.energyKwh).toBeCloseTo(expected.energy / 1000, 3);
    expect(year.previous).toEqual({ energyKwh: 0, savedKwh: 0, rate: null, carbonKg: 0 });
    const next = await total({ projectId, buildId: otherBuildId, period: 'year', date: '2027-01-01' });
    expect(next.previous.energyKwh).toBeCloseTo(year.totals.energyKwh, 3);
  });

  it('rates the saving as a share of what would have been used and weighs the carbon by the project\u2019s factor', async () => {
    const before = await total({ projectId, mapId: mapA, period: 'day', date: '2026-11-05' });
    expect(before.carbonFactor).toBe(0.5);
    await apiData(h.app, projectEndpoints.updateProject, { body: { id: projectId, carbonFactor: 0.8 } }, { token });
    const day = await total({ projectId, mapId: mapA, period: 'day', date: '2026-11-05' });
    expect(day.carbonFactor).toBe(0.8);
    const { energy, saved } = expectedWh(usedA, '2026-11-05T00:00:00Z', '2026-11-06T00:00:00Z');
    expect(day.totals.rate).toBeCloseTo((saved / (energy + saved)) * 100, 2);
    expect(day.totals.carbonKg).toBeCloseTo((saved / 1000) * 0.8, 3);
    const hour = day.buckets[3]!;
    expect(hour.rate).toBeCloseTo((hour.savedKwh / (hour.energyKwh + hour.savedKwh)) * 100, 2);
    await apiData(h.app, projectEndpoints.updateProject, { body: { id: projectId, carbonFactor: 0.5 } }, { token });
  });

  it('keeps the carbon factor within 0.0001-100000 with its own code', async () => {
    for (const carbonFactor of [0, 0.00009, 100000.5, -1]) {
      expectError(await send(projectEndpoints.updateProject, { body: { id: projectId, carbonFactor } }), 100020);
    }
    expectError(await send(projectEndpoints.addProject, { body: { name: 'Coal town', carbonFactor: 0 } }), 100020, 'en');
    const res = await send(projectEndpoints.updateProject, { body: { id: projectId, carbonFactor: 200000 } }, token, 'ja');
    expectError(res, 100020, 'ja');
    const added = await apiData(h.app, projectEndpoints.addProject, { body: { name: 'Hydro town', carbonFactor: 0.0001 } }, { token });
    expect(added.carbonFactor).toBe(0.0001);
    const plain = await apiData(h.app, projectEndpoints.addProject, { body: { name: 'Plain town' } }, { token });
    expect(plain.carbonFactor).toBe(0.5);
  });

  it('lists a row per map per day, newest first, and pages them', async () => {
    const body = { projectId, from: '2026-11-01', to: '2026-11-30', unit: 'day' as const };
    const first = await apiData(h.app, energyEndpoints.records, { body: { ...body, pageSize: 7 } }, { token });
    // Two UTC maps every day, and the Tokyo map on the 10th and the 11th.
    expect(first.total).toBe(62);
    expect(first.list).toHaveLength(7);
    expect(first.list[0]).toMatchObject({ dateTimeStr: '2026-11-30', buildName: expect.any(String), mapName: expect.any(String) });
    const all = await apiData(h.app, energyEndpoints.records, { body: { ...body, pageSize: 200 } }, { token });
    expect(all.list).toHaveLength(62);
    const second = await apiData(h.app, energyEndpoints.records, { body: { ...body, page: 2, pageSize: 7 } }, { token });
    expect(second.list).toEqual(all.list.slice(7, 14));
    const dates = all.list.map((r) => r.dateTimeStr);
    expect(dates).toEqual([...dates].sort().reverse());
    const row = all.list.find((r) => r.mapId === mapA && r.dateTimeStr === '2026-11-12')!;
    const expected = expectedWh(usedA, '2026-11-12T00:00:00Z', '2026-11-13T00:00:00Z');
    expect(row).toMatchObject({
      powerActualAll: expected.energy / 1000,
      savePower: expected.saved / 1000,
      projectName: expect.any(String),
      rate: expect.closeTo((expected.saved / (expected.energy + expected.saved)) * 100, 2),
    });
  });

  it('filters the records by building and map, and sums them by month', async () => {
    const west = await apiData(
      h.app,
      energyEndpoints.records,
      { body: { projectId, buildId: otherBuildId, from: '2026-11-01', to: '2026-11-30', unit: 'day' } },
      { token },
    );
    expect(west.total).toBe(30);
    expect(new Set(west.list.map((r) => r.mapId))).toEqual(new Set([mapB]));
    expect(west.list[0]).toMatchObject({ buildName: 'West wing', mapName: 'West floor' });
    const tokyo = await apiData(
      h.app,
      energyEndpoints.records,
      { body: { projectId, mapId: mapC, from: '2026-11-01', to: '2026-11-30', unit: 'day' } },
      { token },
    );
    expect(tokyo.list.map((r) => [r.dateTimeStr, r.powerActualAll])).toEqual([
      ['2026-11-11', 0.02],
      ['2026-11-10', 0.01],
    ]);
    // Any day of October to any day of November: both months, whole.
    const months = await apiData(
      h.app,
      energyEndpoints.records,
      { body: { projectId, mapId: mapA, from: '2026-10-20', to: '2026-11-03', unit: 'month' } },
      { token },
    );
    expect(months.list.map((r) => r.dateTimeStr)).toEqual(['2026-11', '2026-10']);
    expect(months.list[0]!.powerActualAll).toBeCloseTo(expectedWh(usedA, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z').energy / 1000, 3);
    expect(months.list[1]!.powerActualAll).toBeCloseTo(expectedWh(usedA, '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z').energy / 1000, 3);
  });

  it('refuses dates that do not exist and ranges that end before they begin', async () => {
    expectError(await send(energyEndpoints.total, { body: { projectId, period: 'day', date: '2026-02-30' } }), 100001);
    expectError(await send(energyEndpoints.records, { body: { projectId, from: '2026-11-02', to: '2026-11-01', unit: 'day' } }), 100001);
    expectError(await send(energyEndpoints.records, { body: { projectId, from: '2000-01-01', to: '2026-11-01', unit: 'month' } }), 100001);
  });

  it('downloads the records as a workbook with Japanese headers and a totals row', async () => {
    const body: EnergyReportBody = { projectId, buildId: otherBuildId, from: '2026-11-01', to: '2026-11-30', unit: 'day' };
    const table = await downloadWorkbook(h.app, energyEndpoints.report, body, { token, lang: 'ja' });
    expect(table[0]).toEqual(['日付', 'プロジェクト', '建物', 'マップ', '使用電力量 (kWh)', '削減電力量 (kWh)', '削減率 (%)']);
    expect(table).toHaveLength(1 + 30 + 1);
    expect(table[1]!.slice(0, 4)).toEqual(['2026-11-30', expect.any(String), 'West wing', 'West floor']);
    const expected = expectedWh(usedB, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z');
    const totals = table.at(-1)!;
    expect(totals[0]).toBe('合計');
    expect(totals[4]).toBeCloseTo(expected.energy / 1000, 3);
    expect(totals[5]).toBeCloseTo(expected.saved / 1000, 3);
    expect(totals[6]).toBeCloseTo((expected.saved / (expected.energy + expected.saved)) * 100, 2);
  });

  it('lets every role read, and a sub-account limited to another project none of it', async () => {
    const viewer = await subAccount(h, account, OPERATE_AUTH.viewOnly);
    const viewed = await apiData(
      h.app,
      energyEndpoints.total,
      { body: { projectId, period: 'month', date: '2026-11-01' } },
      { token: viewer },
    );
    expect(viewed.totals.energyKwh).toBeGreaterThan(0);
    const elsewhere = await apiData(h.app, projectEndpoints.addProject, { body: { name: 'Energy elsewhere' } }, { token });
    const limited = await subAccount(h, account, OPERATE_AUTH.editable, [elsewhere.id]);
    expectError(await send(energyEndpoints.total, { body: { projectId, period: 'day', date: '2026-11-01' } }, limited), 110011);
    const own = await apiData(
      h.app,
      energyEndpoints.records,
      { body: { projectId: elsewhere.id, from: '2026-11-01', to: '2026-11-30', unit: 'day' } },
      { token: limited },
    );
    expect(own).toEqual({ total: 0, list: [] });
  });
});
