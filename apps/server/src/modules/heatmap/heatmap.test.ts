import {
  DEFAULT_HEAT_LEVELS,
  OPERATE_AUTH,
  deviceEndpoints,
  heatmapEndpoints,
  percentOfMax,
  type GatewayDevice,
  type HeatmapGen,
} from '@lumigrid/contract';
import { wallClock } from '@lumigrid/protocol';
import { activationWindows, type OccupancyBackfill, type SimGateway } from '@lumigrid/gateway-sim';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateways } from '../../db/schema/index.ts';
import { buildGatewayWithDevices, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { SERVICE_DATABASES, apiData, endpointCaller, expectError, signUpByMail } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';
import { subAccount } from '../../test/projects.fixtures.ts';
import { downloadWorkbook } from '../../test/workbook.ts';
import { createActivationsRepo, windowStartOf } from './activations.repo.ts';

const ZONE = 'Asia/Tokyo';
/** Monday 16 to Friday 20 November 2026, 09:00 Tokyo: four working days of occupancy. */
const UNTIL = Date.parse('2026-11-20T00:00:00Z');
const RANGE = { from: '2026-11-16', to: '2026-11-20' };

/**
 * The heatmap over the simulator's occupancy, through the real broker and ingest path: counts equal the
 * distinct 30-minute windows of the occupied reports the simulator sent, percentages of the most active
 * sensor, the week grid in the gateway's local time, the colour levels' rules, the workbook and the roles.
 */
describe.each(SERVICE_DATABASES)('heatmap on %s', (kind) => {
  let rig: GatewayRig;
  let sim: SimGateway;
  let token: string;
  let mapId: string;
  let projectId: string;
  let sensors: GatewayDevice[];
  let others: GatewayDevice[];
  let outcome: OccupancyBackfill;
  const account = `heatmap-${kind}@example.com`;
  const send = endpointCaller(
    () => rig.h.app,
    () => token,
  );
  const gen = (body: { sensorId?: string } = {}) =>
    apiData(rig.h.app, heatmapEndpoints.gen, { body: { mapId, ...RANGE, ...body } }, { token });
  const storedWindows = async () => {
    const result = (await rig.h.database.db.execute(
      sql`select count(*)::int as n from sensor_activation_windows w join devices d on d.id = w.device_id where d.map_id = ${mapId}::bigint`,
    )) as unknown as { rows: Array<{ n: number }> };
    return Number(result.rows[0]!.n);
  };

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1 });
    sim = rig.fleet.gateways[0]!;
    // Three motion sensors: the simulator's own and two that join, each in a room of its own kind.
    sim.simulateJoin('sensor-motion');
    sim.simulateJoin('sensor-motion');
    token = await signUpByMail(rig.h, account);
    const built = await buildGatewayWithDevices(rig.h, token, {
      mac: sim.mac,
      name: 'Occupied floor',
      place: (d) => d.kind === 'sensor-motion',
    });
    mapId = built.mapId;
    projectId = built.gateway.projectId;
    sensors = built.placed;
    others = built.devices.filter((d) => d.kind !== 'sensor-motion');
    expect(sensors).toHaveLength(3);
    const profiles = ['meeting', 'office', 'corridor'] as const;
    for (const [i, s] of sensors.entries()) sim.occupancyProfiles.set(s.addr, profiles[i]!);
    await rig.h.database.db.update(gateways).set({ timezone: ZONE }).where(eq(gateways.mac, sim.mac));
    sim.params = { ...sim.params, timezone: ZONE };

    outcome = await sim.backfillOccupancy({ days: 4, until: UNTIL, eventsPerSecond: 5000 });
    const expected = [...activationWindows(outcome.events).values()].reduce((a, b) => a + b, 0);
    expect(expected).toBeGreaterThan(50);
    await poll(async () => (await storedWindows()) === expected, 'every activation window counted', { timeoutMs: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('counts each sensor as the distinct 30-minute windows of the occupied reports the simulator sent', async () => {
    const heat = await gen();
    const expected = activationWindows(outcome.events);
    const byAddr = new Map(sensors.map((s) => [s.id, s.addr]));
    expect(heat.sensors).toHaveLength(3);
    for (const s of heat.sensors) expect(s.count, s.name).toBe(expected.get(byAddr.get(s.id)!) ?? 0);
    expect(heat.totalCount).toBe([...expected.values()].reduce((a, b) => a + b, 0));
    // Reports outnumber windows: the rule of at most one activation per window did some work.
    expect(outcome.events.filter((e) => e.value === 1).length).toBeGreaterThan(heat.totalCount);
    // Meeting rooms are busy at 10:00, not all day; offices fill the day: the office sensor leads.
    expect(heat.sensors[0]!.id).toBe(sensors[1]!.id);
    expect(heat.windowMinutes).toBe(30);
  });

  it('gives percentages of the most active sensor, at most 100', async () => {
    const heat = await gen();
    expect(heat.maxCount).toBe(Math.max(...heat.sensors.map((s) => s.count)));
    expect(heat.sensors[0]!.percent).toBe(100);
    for (const s of heat.sensors) {
      expect(s.percent).toBe(percentOfMax(s.count, heat.maxCount));
      expect(s.percent).toBeLessThanOrEqual(100);
    }
    const page = await apiData(rig.h.app, heatmapEndpoints.page, { body: { projectId, mapId, ...RANGE, pageSize: 2 } }, { token });
    expect(page.total).toBe(3);
    expect(page.maxCount).toBe(heat.maxCount);
    expect(page.list.map((r) => [r.deviceId, r.count, r.percent])).toEqual(heat.sensors.slice(0, 2).map((s) => [s.id, s.count, s.percent]));
    // A day nobody came in: zero everywhere, nothing divided by zero.
    const empty = await apiData(rig.h.app, heatmapEndpoints.gen, { body: { mapId, from: '2026-10-01', to: '2026-10-01' } }, { token });
    expect(empty.maxCount).toBe(0);
    expect(empty.sensors.every((s) => s.count === 0 && s.percent === 0)).toBe(true);
  });

  it('counts a report once per window, and a replay not at all', async () => {
    const repo = createActivationsRepo(rig.h.database.db);
    const addr = sensors[2]!.addr;
    // A Sunday night nobody is in: 02:10 and 02:25 Tokyo share a window, 02:30 starts the next.
    const at = (time: string) => ({ mac: sim.mac, addr, reportedAt: new Date(Date.parse(`2026-11-07T${time}+09:00`)).toISOString() });
    const before = await storedWindows();
    await repo.record([at('02:10:00'), at('02:25:00'), at('02:29:59')]);
    expect(await storedWindows()).toBe(before + 1);
    await repo.record([at('02:30:00'), at('02:10:00')]);
    expect(await storedWindows()).toBe(before + 2);
    const heat = await apiData(
      rig.h.app,
      heatmapEndpoints.gen,
      { body: { mapId, from: '2026-11-07', to: '2026-11-07', sensorId: sensors[2]!.id } },
      { token },
    );
    expect(heat.week[5]![2]).toBe(2);
    // The whole history again, as a broker redelivering it would: nothing more.
    const total = (await gen()).totalCount;
    const stored = await storedWindows();
    await sim.backfillOccupancy({ days: 1, until: UNTIL, eventsPerSecond: 5000 });
    // Someone walks in now: sent after the replay on the same connection, so once it is counted the replay was taken.
    expect(sim.detectMotion(addr)).toBe(true);
    await poll(async () => (await storedWindows()) === stored + 1, 'the live activation after the replay');
    expect((await gen()).totalCount).toBe(total);
  });

  it('buckets the week by local weekday (Monday first) and hour, of the map and of one sensor', async () => {
    const grid = (events: OccupancyBackfill['events']) => {
      const week = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
      const seen = new Set<string>();
      for (const e of events) {
        const start = windowStartOf(e.ts);
        if (e.value !== 1 || seen.has(`${e.addr}|${start}`)) continue;
        seen.add(`${e.addr}|${start}`);
        const local = new Date(wallClock(start, ZONE));
        week[(local.getUTCDay() + 6) % 7]![local.getUTCHours()]!++;
      }
      return week;
    };
    const map: HeatmapGen = await gen();
    expect(map.week).toEqual(grid(outcome.events));
    const meeting = sensors[0]!;
    const one = await gen({ sensorId: meeting.id });
    expect(one.week).toEqual(grid(outcome.events.filter((e) => e.addr === meeting.addr)));
    // Nobody at 03:00, and the meeting room's 10:00 outdoes its 12:00 on the working days.
    expect(map.week.every((day) => day[3] === 0)).toBe(true);
    const at = (hour: number) => one.week.slice(0, 4).reduce((sum, day) => sum + day[hour]!, 0);
    expect(at(10)).toBeGreaterThan(at(12));
  });

  it('refuses the heat of a device that is no sensor instead of answering an empty week', async () => {
    const light = others.find((d) => d.kind.startsWith('light-'))!;
    await apiData(rig.h.app, deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: light.id, x: 0.9, y: 0.9 }] } }, { token });
    try {
      expectError(await send(heatmapEndpoints.gen, { body: { mapId, ...RANGE, sensorId: light.id } }), 100209);
    } finally {
      await apiData(rig.h.app, deviceEndpoints.moveOut, { body: { ids: [light.id] } }, { token });
    }
  });

  it('keeps colour levels ascending, refuses equal or out-of-range counts, and resets to the defaults', async () => {
    const initial = await apiData(rig.h.app, heatmapEndpoints.settings, { params: { projectId } }, { token });
    expect(initial).toMatchObject({ projectId, levels: DEFAULT_HEAT_LEVELS, isDefault: true, updatedAt: null });
    const levels = [
      { percent: 90, color: '#FF0000' },
      { percent: 30, color: '#0000ff' },
      { percent: 60, color: '#00ff00' },
    ];
    const saved = await apiData(rig.h.app, heatmapEndpoints.saveSettings, { body: { projectId, levels } }, { token });
    expect(saved.levels).toEqual([
      { percent: 30, color: '#0000ff' },
      { percent: 60, color: '#00ff00' },
      { percent: 90, color: '#ff0000' },
    ]);
    expect(saved.isDefault).toBe(false);
    expect((await gen()).levels).toEqual(saved.levels);
    const refused = (percents: number[]) =>
      send(heatmapEndpoints.saveSettings, { body: { projectId, levels: percents.map((percent) => ({ percent, color: '#123456' })) } });
    expectError(await refused([40, 40]), 100901);
    expectError(await refused([40, 101]), 100902);
    expectError(await refused([0, 50]), 100902);
    expectError(await send(heatmapEndpoints.saveSettings, { body: { projectId, levels: [{ percent: 40, color: '#123456' }] } }), 100001);
    const ja = await send(
      heatmapEndpoints.saveSettings,
      { body: { projectId, levels: [50, 50].map((percent) => ({ percent, color: '#123456' })) } },
      token,
      'ja',
    );
    expect(ja.body.msg).toBe('感知回数はそれぞれ異なる値にしてください');
    const reset = await apiData(rig.h.app, heatmapEndpoints.resetSettings, { body: { projectId } }, { token });
    expect(reset).toMatchObject({ levels: DEFAULT_HEAT_LEVELS, isDefault: true });
    // The counts stay.
    expect((await gen()).totalCount).toBeGreaterThan(0);
  });

  it('downloads the sensors as a workbook, most active first, headers in Japanese', async () => {
    const heat = await gen();
    const table = await downloadWorkbook(rig.h.app, heatmapEndpoints.download, { projectId, ...RANGE }, { token, lang: 'ja' });
    expect(table[0]).toEqual(['センサー', '建物', 'マップ', '位置 x (%)', '位置 y (%)', '感知回数（30分単位）', '最大値に対する割合 (%)']);
    expect(table.slice(1).map((r) => [r[0], r[5], r[6]])).toEqual(heat.sensors.map((s) => [s.name, s.count, s.percent]));
  });

  it('lets a view-only user read and refuses its writes; refuses impossible ranges', async () => {
    const viewer = await subAccount(rig.h, account, OPERATE_AUTH.viewOnly);
    expect((await apiData(rig.h.app, heatmapEndpoints.gen, { body: { mapId, ...RANGE } }, { token: viewer })).totalCount).toBeGreaterThan(
      0,
    );
    const levels = DEFAULT_HEAT_LEVELS.map((l) => ({ ...l }));
    expectError(await send(heatmapEndpoints.saveSettings, { body: { projectId, levels } }, viewer), 110003);
    expectError(await send(heatmapEndpoints.resetSettings, { body: { projectId } }, viewer), 110003);
    expectError(await send(heatmapEndpoints.gen, { body: { mapId, from: '2026-11-20', to: '2026-11-19' } }), 100001);
    expectError(await send(heatmapEndpoints.gen, { body: { mapId, from: '2026-02-30', to: '2026-03-01' } }), 100001);
    expectError(await send(heatmapEndpoints.page, { body: { projectId, from: '2024-01-01', to: '2026-01-01' } }), 100001);
  });
});
