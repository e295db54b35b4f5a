import { alertEndpoints, userDestination, type AlertPage, type DefectiveNotice, type GatewayDevice } from '@lumigrid/contract';
import { FAULT_CODES } from '@lumigrid/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents } from '../../db/schema/index.ts';
import { DATABASES, api, expectError, signUpByMail } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, userIdOf, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { listenForRealtime, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';

const GRACE_MS = 400;
/** Every code of spec section 4 but offline, which waits out the grace period. */
const IMMEDIATE = Object.values(FAULT_CODES).filter((c) => c !== FAULT_CODES.offline);

describe.each(DATABASES)('alerts from simulated gateways on %s', (kind) => {
  let otherToken: string;
  let devices: GatewayDevice[];
  let stomp: StompTestClient;
  let otherStomp: StompTestClient;
  const notices: DefectiveNotice[] = [];
  const otherNotices: unknown[] = [];
  const { h, sim, send, rig, token } = gatewayRigSuite(kind, { count: 2, offlineGraceMs: GRACE_MS }, 'faults@example.com');
  const light = () => devices.find((d) => d.kind === 'light-dimmer')!;
  const alertsOf = async (body: Parameters<typeof send<typeof alertEndpoints.page>>[1]['body'] = {}) =>
    data<AlertPage>(send(alertEndpoints.page, { body }));
  const settled = () => h().app.alertTracker.settled();

  beforeAll(async () => {
    otherToken = await signUpByMail(h(), 'faults-other@example.com');
    ({ devices } = await buildGatewayWithDevices(h(), token(), { mac: sim().mac, name: 'Lobby gateway', place: () => true }));
    await buildGatewayWithDevices(h(), otherToken, { mac: rig().fleet.gateways[1]!.mac, place: () => true });
    const url = await listenForRealtime(h().app);
    stomp = await stompClient(url, { Authorization: `Bearer ${token()}` });
    otherStomp = await stompClient(url, { Authorization: `Bearer ${otherToken}` });
    await stomp.subscribe(userDestination('defective', await userIdOf(h(), 'faults@example.com')), (m) =>
      notices.push(JSON.parse(m.body) as DefectiveNotice),
    );
    await otherStomp.subscribe(userDestination('defective', await userIdOf(h(), 'faults-other@example.com')), (m) =>
      otherNotices.push(JSON.parse(m.body)),
    );
  }, 90_000);
  afterAll(async () => {
    await stomp?.stop();
    await otherStomp?.stop();
  });

  it('raises one alert per fault of each code, tells the owner once, and records when it clears', async () => {
    for (const code of IMMEDIATE) {
      notices.length = 0;
      sim().raiseFault(light().addr, code);
      // The gateway says it twice (event and report); a redelivery says it again.
      sim().reportAll();
      await settled();
      await poll(() => notices.length > 0, `the notice of code ${code}`);
      const open = await alertsOf({ code, open: true });
      expect(open.list).toHaveLength(1);
      expect(open.list[0]).toMatchObject({
        kind: 'device',
        deviceId: light().id,
        name: light().name,
        code,
        state: 'pending',
        clearedAt: null,
      });
      sim().clearFault(light().addr);
      await poll(async () => (await alertsOf({ code, open: true })).total === 0, `code ${code} cleared`);
      expect(notices).toEqual([{ userId: expect.any(String), id: light().id, name: light().name, code, mapId: expect.any(String) }]);
    }
    const all = await alertsOf();
    expect(all.total).toBe(IMMEDIATE.length);
    expect(all.list.every((a) => a.clearedAt !== null && a.gatewayName === 'Lobby gateway')).toBe(true);
    expect(otherNotices).toEqual([]);
  });

  it('raises offline only when it lasts the grace period, for a device and for its gateway', async () => {
    const before = (await alertsOf({ code: FAULT_CODES.offline })).total;
    // Away and back within the grace period: nobody is paged.
    const reportsBefore = h().app.gatewayLink!.stats.received;
    sim().raiseFault(light().addr, FAULT_CODES.offline);
    sim().clearFault(light().addr);
    // Both reports and both events have arrived: the wait the first one started was called off by the second.
    await poll(() => h().app.gatewayLink!.stats.received >= reportsBefore + 4, 'the flap received');
    await settled();
    expect(h().app.alertTracker.waitingOffline()).toBe(0);
    expect((await alertsOf({ code: FAULT_CODES.offline })).total).toBe(before);

    notices.length = 0;
    sim().raiseFault(light().addr, FAULT_CODES.offline);
    await poll(async () => (await alertsOf({ code: FAULT_CODES.offline, open: true })).total === 1, 'the device offline alert');
    // The notice follows the stored alert (it names the device's map, read after the alert is kept).
    await poll(() => notices.length > 0, 'the offline notice');
    expect(notices).toMatchObject([{ id: light().id, code: FAULT_CODES.offline }]);
    sim().clearFault(light().addr);
    await poll(async () => (await alertsOf({ code: FAULT_CODES.offline, open: true })).total === 0, 'the device back');

    await sim().goOffline();
    await poll(
      async () => (await alertsOf({ code: FAULT_CODES.offline, open: true })).list.some((a) => a.kind === 'gateway'),
      'the gateway alert',
    );
    await sim().goOnline();
    await poll(async () => (await alertsOf({ code: FAULT_CODES.offline, open: true })).total === 0, 'cleared on reconnect');
  });

  it('dates an alert by when the server received it, not by the gateway clock, which runs days ahead', async () => {
    const DAY_MS = 86_400_000;
    sim().clock.set(h().clock.now().getTime() + 3 * DAY_MS);
    const raisedAt = h().clock.now();
    sim().raiseFault(light().addr, FAULT_CODES.power);
    await poll(async () => (await alertsOf({ code: FAULT_CODES.power, open: true })).total === 1, 'the power alert');
    const [raised] = (await alertsOf({ code: FAULT_CODES.power, open: true })).list;
    expect(raised!.raisedAt).toBe(raisedAt.toISOString());
    // A day's filter around the server's time finds it; the gateway's day does not.
    const day = (at: Date) => ({
      from: new Date(at.getTime() - DAY_MS / 2).toISOString(),
      to: new Date(at.getTime() + DAY_MS / 2).toISOString(),
    });
    expect((await alertsOf({ code: FAULT_CODES.power, open: true, ...day(raisedAt) })).total).toBe(1);
    expect((await alertsOf({ code: FAULT_CODES.power, open: true, ...day(new Date(sim().clock.now())) })).total).toBe(0);

    h().clock.advance(60_000);
    sim().clearFault(light().addr);
    await poll(async () => (await alertsOf({ code: FAULT_CODES.power, open: true })).total === 0, 'the power alert cleared');
    await data(send(alertEndpoints.handle, { body: { ids: [raised!.id], note: 'Driver replaced' } }));
    const handled = (await alertsOf({ code: FAULT_CODES.power })).list.find((a) => a.id === raised!.id);
    expect(handled).toMatchObject({ raisedAt: raisedAt.toISOString(), clearedAt: h().clock.now().toISOString(), state: 'handled' });
    expect(Date.parse(handled!.handledAt!)).toBeGreaterThanOrEqual(Date.parse(handled!.raisedAt));
  });

  it('counts alerts by code, by map and by day, with the mean time to clear', async () => {
    const stats = await data(
      send(alertEndpoints.statistics, { body: { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z', unit: 'day' } }),
    );
    const all = await alertsOf({ pageSize: 200 });
    expect(stats.total).toBe(all.total);
    expect(stats.byCode.reduce((n, c) => n + c.count, 0)).toBe(all.total);
    expect(stats.byCode.find((c) => c.code === FAULT_CODES.led)?.count).toBe(all.list.filter((a) => a.code === FAULT_CODES.led).length);
    expect(stats.pending).toBe(all.list.filter((a) => a.state === 'pending').length);
    expect(stats.overTime.reduce((n, b) => n + b.count, 0)).toBe(all.total);
    expect(stats.overTime.every((b) => /^\d{4}-\d{2}-\d{2}$/.test(b.bucket))).toBe(true);
    expect(stats.meanMinutesToClear).not.toBeNull();
    const empty = await data(
      send(alertEndpoints.statistics, { body: { from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z', unit: 'month' } }),
    );
    expect(empty).toMatchObject({ total: 0, byCode: [], overTime: [], meanMinutesToClear: null });
  });

  it('keeps what sensors tell as events, for the heatmap and the emergency tests', async () => {
    const sensor = devices.find((d) => d.kind === 'sensor-motion')!;
    expect(sim().detectMotion(sensor.addr)).toBe(true);
    const stored = async () =>
      h()
        .database.db.select()
        .from(deviceEvents)
        .where(and(eq(deviceEvents.addr, sensor.addr), eq(deviceEvents.type, 'sensor')));
    await poll(async () => (await stored()).length > 0, 'the motion event stored');
    const [row] = await stored();
    expect(row!.data).toEqual({ sensor: 'motion', value: 1 });
    expect(row!.tenantId).not.toBeNull();
  });

  it('marks alerts handled with who and a note, pages by cursor, deletes, and refuses another account', async () => {
    const { list } = await alertsOf({ pageSize: 3, state: 'pending' });
    const ids = list.map((a) => a.id);
    expect(await data(send(alertEndpoints.handle, { body: { ids, note: '  Lamp replaced  ' } }))).toEqual({ count: 3 });
    const handled = await alertsOf({ state: 'handled' });
    expect(handled.list.map((a) => a.id)).toEqual(expect.arrayContaining(ids));
    const lampReplaced = handled.list.find((a) => a.id === ids[0]);
    expect(lampReplaced).toMatchObject({ state: 'handled', note: 'Lamp replaced', handledBy: expect.any(String) });
    expect(lampReplaced!.handledAt).not.toBeNull();

    // Keyset pages follow each other without gaps or repeats.
    const first = await alertsOf({ pageSize: 4 });
    const second = await alertsOf({ pageSize: 4, after: first.next! });
    const byPage = await alertsOf({ pageSize: 4, page: 2 });
    expect(second.list.map((a) => a.id)).toEqual(byPage.list.map((a) => a.id));
    expect(second.list.some((a) => first.list.some((b) => b.id === a.id))).toBe(false);

    expectError(await api(h().app, alertEndpoints.handle, { body: { ids: [ids[0]!], note: '' } }, { token: otherToken }), 110011);
    expectError(await api(h().app, alertEndpoints.remove, { body: { ids: [ids[0]!] } }, { token: otherToken }), 110011);
    expect((await api(h().app, alertEndpoints.page, { body: {} }, { token: otherToken })).body.data.total).toBe(0);

    const total = (await alertsOf()).total;
    expect(await data(send(alertEndpoints.remove, { body: { ids: [ids[0]!] } }))).toEqual({ count: 1 });
    expect((await alertsOf()).total).toBe(total - 1);
  });
});
