import { DEVICE_TYPE_CODES } from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, gateways } from '../../db/schema/index.ts';
import { runPrefix } from '../../test/gateway-link.fixtures.ts';
import { defaultMapId, userIdOf } from '../../test/gateways.fixtures.ts';
import { DATABASES, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { ownedReads } from '../../owned-reads.ts';
import { createEnergyRepo, monthPartitionOf, type EnergyRepo, type EnergySample } from './energy.repo.ts';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-23T00:00:00Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

type Rows = Array<Record<string, unknown>>;

/**
 * The energy arithmetic against a real database, driven through the repo: rollups equal the counter deltas,
 * resets, gaps, duplicates, late samples, savings and local days in Tokyo, London and Kolkata.
 */
describe.each(DATABASES)('energy rollups on %s', (kind) => {
  let h: Harness;
  let repo: EnergyRepo;
  let tenantId: bigint;
  let mapId: bigint;
  let addrSeq = 0;
  const gatewayByZone = new Map<string, { id: bigint; mac: string }>();

  const rows = async (query: ReturnType<typeof sql>) => ((await h.database.db.execute(query)) as unknown as { rows: Rows }).rows;

  /** A light of `type` imported on a gateway in `timeZone`, on the default map unless `onMap` is false. */
  async function addDevice(options: { timeZone: string; type?: number; onMap?: boolean }) {
    let gateway = gatewayByZone.get(options.timeZone);
    if (!gateway) {
      const mac = `E0${runPrefix()}00${String(gatewayByZone.size).padStart(2, '0')}`;
      const [row] = await h.database.db
        .insert(gateways)
        .values({ mac, tenantId, mapId, timezone: options.timeZone })
        .returning({ id: gateways.id });
      gateway = { id: row!.id, mac };
      gatewayByZone.set(options.timeZone, gateway);
    }
    const addr = `00124B00${String(++addrSeq).padStart(8, '0')}`;
    const type = options.type ?? DEVICE_TYPE_CODES['light-dimmer'];
    const [device] = await h.database.db
      .insert(devices)
      .values({
        tenantId,
        gatewayId: gateway.id,
        mapId: options.onMap === false ? null : mapId,
        addr,
        kind: 'light-dimmer',
        type,
        name: addr,
      })
      .returning({ id: devices.id });
    const sample = (hours: number, energyWh: number | null, power: number | null = null): EnergySample => ({
      mac: gateway.mac,
      addr,
      energyWh,
      power,
      reportedAt: at(hours),
    });
    return { id: device!.id, sample };
  }

  const deviceHours = (id: bigint) =>
    rows(sql`select hour, energy_wh, saved_wh, on_s from energy_device_hours where device_id = ${id} order by hour`);
  const deviceTotal = async (id: bigint) => (await deviceHours(id)).reduce((s, r) => s + Number(r.energy_wh), 0);

  beforeAll(async () => {
    h = await startApp(kind);
    const account = `energy-repo-${kind}@example.com`;
    const token = await signUpByMail(h, account);
    tenantId = BigInt(await userIdOf(h, account));
    mapId = BigInt(await defaultMapId(h, token));
    repo = createEnergyRepo(h.database.db, ownedReads);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('adds up to the direct sum of the counter deltas, hour by hour', async () => {
    const light = await addDevice({ timeZone: 'UTC' });
    // Every 15 minutes for 6 hours, a counter that grows by a different amount each time.
    const counters = [500];
    for (let i = 1; i <= 24; i++) counters.push(counters[i - 1]! + ((i * 7) % 11) + 0.25);
    const samples = counters.map((c, i) => light.sample(i / 4, c, 20));
    // In two batches, as the writer would split them.
    await repo.record(samples.slice(0, 10));
    await repo.record(samples.slice(10));

    const hours = await deviceHours(light.id);
    expect(hours).toHaveLength(6);
    hours.forEach((r, hour) => expect(Number(r.energy_wh)).toBeCloseTo(counters[(hour + 1) * 4]! - counters[hour * 4]!, 9));
    expect(await deviceTotal(light.id)).toBeCloseTo(counters.at(-1)! - counters[0]!, 9);
    const [history] = await rows(sql`select count(*)::int as n from energy_readings where device_id = ${light.id}`);
    expect(history!.n).toBe(25);
  });

  it('counts a reset counter from 0, never negative', async () => {
    const light = await addDevice({ timeZone: 'UTC' });
    await repo.record([light.sample(10, 100), light.sample(10.5, 150), light.sample(11, 20), light.sample(11.5, 50)]);
    // 50, then 20 since the reset (both in 10:00-11:00), then 30.
    expect(await deviceTotal(light.id)).toBeCloseTo(100, 9);
    const hours = await deviceHours(light.id);
    expect(hours.map((r) => Number(r.energy_wh))).toEqual([70, 30]);
    expect(hours.every((r) => Number(r.energy_wh) >= 0 && Number(r.saved_wh) >= 0)).toBe(true);
  });

  it('spreads a gap of several hours evenly over them, neither lost nor doubled', async () => {
    const light = await addDevice({ timeZone: 'UTC' });
    await repo.record([light.sample(0, 1000)]);
    // The gateway was away from 00:00 to 05:00 and reports then; a later batch repeats the last reading.
    await repo.record([light.sample(5, 1500)]);
    await repo.record([light.sample(5, 1500)]);
    const hours = await deviceHours(light.id);
    expect(hours.map((r) => new Date(r.hour as string).toISOString())).toEqual([0, 1, 2, 3, 4].map(at));
    for (const r of hours) expect(Number(r.energy_wh)).toBeCloseTo(100, 9);
    expect(await deviceTotal(light.id)).toBeCloseTo(500, 9);
  });

  it('counts a duplicate and an out-of-order sample once, in the history and the rollups', async () => {
    const light = await addDevice({ timeZone: 'UTC' });
    const first = await repo.record([light.sample(1, 0), light.sample(1.5, 50), light.sample(1.5, 50)]);
    expect(first).toMatchObject({ readings: 2, stale: 1 });
    // A redelivered message, then one from before the last reading that arrived late.
    const late = await repo.record([light.sample(1.5, 50), light.sample(1.25, 25)]);
    expect(late).toMatchObject({ readings: 0, stale: 2 });
    await repo.record([light.sample(2, 80)]);
    expect(await deviceTotal(light.id)).toBeCloseTo(80, 9);
    const [history] = await rows(sql`select count(*)::int as n from energy_readings where device_id = ${light.id}`);
    expect(history!.n).toBe(3);
  });

  it('saves the rated power over the hours on minus what was used; standby saves nothing', async () => {
    // light-dimmer: 36 W rated. 18 W for 2 hours, then standby (0.3 W) for an hour, then 40 W for an hour.
    const light = await addDevice({ timeZone: 'UTC' });
    await repo.record([light.sample(20, 0), light.sample(22, 36), light.sample(23, 36.3), light.sample(24, 76.3)]);
    const hours = await deviceHours(light.id);
    expect(hours.map((r) => [Number(r.energy_wh), Number(r.saved_wh), r.on_s])).toEqual([
      [18, 18, 3600],
      [18, 18, 3600],
      [expect.closeTo(0.3, 9), 0, 0],
      [40, 0, 3600],
    ]);
  });

  it('keeps devices on no map under no map', async () => {
    const light = await addDevice({ timeZone: 'UTC', onMap: false });
    await repo.record([light.sample(30, 0), light.sample(31, 10)]);
    const [day] = await rows(sql`
      select sum(energy_wh) as wh from energy_map_days where tenant_id = ${tenantId} and map_id is null`);
    expect(Number(day!.wh)).toBeCloseTo(10, 9);
  });

  it('skips devices no account imported', async () => {
    const result = await repo.record([{ mac: 'FFFFFFFFFFFF', addr: '00', energyWh: 5, power: 1, reportedAt: at(1) }]);
    expect(result).toEqual({ readings: 0, stale: 0, skipped: 1, closedDays: [] });
  });

  it.each([
    // 14:00-16:00 UTC is 23:00-01:00 in Tokyo: one hour on each local day.
    [
      'Asia/Tokyo',
      [
        ['2026-12-01 23:00:00', '2026-12-01'],
        ['2026-12-02 00:00:00', '2026-12-02'],
      ],
    ],
    // London is on UTC in December: both hours on the same day.
    [
      'Europe/London',
      [
        ['2026-12-01 14:00:00', '2026-12-01'],
        ['2026-12-01 15:00:00', '2026-12-01'],
      ],
    ],
  ] as const)('begins the local days at midnight in %s', async (timeZone, expected) => {
    const light = await addDevice({ timeZone });
    const base = (Date.parse('2026-12-01T14:00:00Z') - T0) / HOUR;
    await repo.record([light.sample(base, 0), light.sample(base + 1, 10), light.sample(base + 2, 30)]);
    const zoneMap = (await rows(sql`select map_id from devices where id = ${light.id}`))[0]!.map_id;
    const hours = await rows(sql`
      select to_char(local_hour, 'YYYY-MM-DD HH24:MI:SS') as local_hour, energy_wh from energy_map_hours
      where tenant_id = ${tenantId} and map_id = ${zoneMap} and local_hour >= '2026-12-01' order by local_hour`);
    expect(hours.map((r) => [r.local_hour, Number(r.energy_wh)])).toEqual([
      [expected[0][0], 10],
      [expected[1][0], 20],
    ]);
    const days = await rows(sql`
      select local_date::text as local_date, energy_wh from energy_map_days
      where tenant_id = ${tenantId} and map_id = ${zoneMap} and local_date >= '2026-12-01' order by local_date`);
    const expectedDays = new Map<string, number>();
    expectedDays.set(expected[0][1], 10);
    expectedDays.set(expected[1][1], (expectedDays.get(expected[1][1]) ?? 0) + 20);
    expect(days.map((r) => [r.local_date, Number(r.energy_wh)])).toEqual([...expectedDays]);
    await h.database.db.execute(sql`delete from energy_map_hours where local_hour >= '2026-12-01'`);
    await h.database.db.execute(sql`delete from energy_map_days where local_date >= '2026-12-01'`);
  });

  it('splits a half-hour zone at its own midnight (Kolkata, UTC+5:30)', async () => {
    const light = await addDevice({ timeZone: 'Asia/Kolkata' });
    // 18:00-19:00 UTC is 23:30-00:30 in Kolkata.
    const base = (Date.parse('2026-12-05T18:00:00Z') - T0) / HOUR;
    await repo.record([light.sample(base, 0), light.sample(base + 1, 60)]);
    const days = await rows(sql`
      select local_date::text as local_date, energy_wh from energy_map_days
      where tenant_id = ${tenantId} and local_date between '2026-12-05' and '2026-12-06' order by local_date`);
    expect(days.map((r) => [r.local_date, Number(r.energy_wh)])).toEqual([
      ['2026-12-05', 30],
      ['2026-12-06', 30],
    ]);
  });

  it('closes a map’s day when its first reading of a later day is recorded, once (webhooks)', async () => {
    const light = await addDevice({ timeZone: 'UTC' });
    const day1 = (Date.parse('2027-02-01T00:00:00Z') - T0) / HOUR;
    await repo.record([light.sample(day1 + 10, 0), light.sample(day1 + 12, 10)]);
    expect((await repo.record([light.sample(day1 + 20, 15)])).closedDays).toEqual([]);
    const next = await repo.record([light.sample(day1 + 25, 30)]);
    const [closed] = await rows(sql`
      select energy_wh, saved_wh, on_s from energy_map_days where tenant_id = ${tenantId} and map_id = ${mapId} and local_date = '2027-02-01'`);
    expect(next.closedDays).toEqual([
      {
        tenantId,
        projectId: expect.any(BigInt) as bigint,
        mapId,
        localDate: '2027-02-01',
        energyWh: Number(closed!.energy_wh),
        savedWh: Number(closed!.saved_wh),
        onS: Number(closed!.on_s),
      },
    ]);
    // More of the new day, and a late reading of the closed one, close nothing more.
    expect((await repo.record([light.sample(day1 + 26, 35)])).closedDays).toEqual([]);
    await h.database.db.execute(sql`delete from energy_map_days where local_date >= '2027-02-01'`);
  });

  it('stores a reading in at most 60 bytes, indexes included', async () => {
    const n = 100_000;
    const p = monthPartitionOf(Date.parse('2031-01-15T00:00:00Z'));
    await h.database.db.execute(
      sql.raw(`create table if not exists ${p.name} partition of energy_readings for values from ('${p.from}') to ('${p.to}')`),
    );
    // 1,000 devices reporting every 15 minutes, as the ingest path appends them (time order, devices interleaved).
    await h.database.db.execute(sql`
      insert into energy_readings (device_id, read_at, energy_wh, power_w)
      select 1000000 + d, ${p.from}::timestamptz + (q * interval '15 minutes'), q * 2.5 + d, 10 + (d % 7)
      from generate_series(0, ${n / 1000 - 1}) q, generate_series(1, 1000) d
      order by q, d
    `);
    await h.database.db.execute(sql.raw(`vacuum analyze ${p.name}`));
    const [size] = await rows(sql`select pg_total_relation_size(${p.name}::regclass)::bigint as bytes`);
    const bytesPerReading = Number(size!.bytes) / n;
    console.info(`energy_readings on ${kind}: ${bytesPerReading.toFixed(1)} bytes per reading over ${n} readings`);
    expect(bytesPerReading).toBeLessThanOrEqual(60);
  }, 60_000);
});
