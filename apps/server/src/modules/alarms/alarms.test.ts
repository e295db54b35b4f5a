import {
  alarmEndpoints,
  alertEndpoints,
  DEFAULT_ALARM_SETTINGS,
  userDestination,
  type AlarmPage,
  type AlarmSettings,
  type AlertPage,
  type GatewayDevice,
} from '@lumigrid/contract';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alarms, outbox } from '../../db/schema/index.ts';
import { DATABASES, expectError } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, userIdOf, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { createAlarmKeeper } from './alarm-keeper.ts';
import { createAlarmsRepo } from './alarms.repo.ts';
import { listenForRealtime, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const LED = 8;
const BATTERY = 6;

describe.each(DATABASES)('alarms over the faults of simulated gateways on %s', (kind) => {
  let devices: GatewayDevice[];
  let projectId: string;
  let stomp: StompTestClient;
  const bannerNotices: unknown[] = [];
  const { h, sim, send, token } = gatewayRigSuite(
    kind,
    { count: 1, alarmTickMs: 0, jobs: { start: false }, devicesPerKind: 2 },
    'alarms@example.com',
  );
  /** A device of its own for each test, so one test's alarm is not the next one's. */
  let light: GatewayDevice;
  let used = 0;

  const alarmsOf = (body: Parameters<typeof send<typeof alarmEndpoints.page>>[1]['body'] = {}) =>
    data<AlarmPage>(send(alarmEndpoints.page, { body }));
  const ofLight = async () =>
    (await alarmsOf({ states: ['activeUnacked', 'activeAcked', 'clearedUnacked', 'normal'] })).list.filter((a) => a.deviceId === light.id);
  const openAlerts = async (code: number) =>
    (await data<AlertPage>(send(alertEndpoints.page, { body: { code, open: true } }))).list.filter((a) => a.deviceId === light.id);
  const settled = async () => {
    await h().app.alertTracker.settled();
    await h().app.alarmKeeper.settled();
  };
  /** The simulated light raises a fault; the server has taken it as an alert and the engine has seen it. */
  const raise = async (code: number) => {
    sim().raiseFault(light.addr, code);
    await poll(async () => (await openAlerts(code)).length === 1, `the alert of code ${code}`);
    await settled();
  };
  const clear = async (code: number) => {
    sim().clearFault(light.addr);
    await poll(async () => (await openAlerts(code)).length === 0, `the alert of code ${code} cleared`);
    await settled();
  };
  /** Time passes on the server's clock and the engine looks at its delays. */
  const after = async (ms: number) => {
    h().clock.advance(ms);
    await h().app.alarmKeeper.tick();
    await settled();
  };
  const mailsTo = async (recipient: string) =>
    h().database.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(asc(outbox.id));

  beforeAll(async () => {
    ({ devices } = await buildGatewayWithDevices(h(), token(), {
      mac: sim().mac,
      name: 'Plant gateway',
      place: (d) => d.kind.startsWith('light'),
    }));
    projectId = (await defaultProject(h(), token())).id;
    stomp = await stompClient(await listenForRealtime(h().app), { Authorization: `Bearer ${token()}` });
    await stomp.subscribe(userDestination('alarms', await userIdOf(h(), 'alarms@example.com')), (m) =>
      bannerNotices.push(JSON.parse(m.body)),
    );
  }, 90_000);
  afterAll(async () => {
    await stomp?.stop();
  });
  beforeEach(() => {
    const lights = devices.filter((d) => d.kind.startsWith('light'));
    light = lights[used % lights.length]!;
    used += 1;
  });

  it('raises an alarm only when the fault lasts its code\u2019s on-delay, and clears it after the off-delay', async () => {
    const led = DEFAULT_ALARM_SETTINGS.find((s) => s.code === LED)!;
    await raise(LED);
    expect(await ofLight()).toEqual([]);
    await after(led.onDelaySec * SECOND);
    expect(await ofLight()).toMatchObject([
      { code: LED, severity: led.severity, state: 'activeUnacked', chattering: false, name: light.name },
    ]);
    await clear(LED);
    await after(led.offDelaySec * SECOND - SECOND);
    expect(await ofLight()).toMatchObject([{ state: 'activeUnacked' }]);
    await after(SECOND);
    expect(await ofLight()).toMatchObject([{ state: 'clearedUnacked' }]);
    const [alarm] = await ofLight();
    expect(await data(send(alarmEndpoints.acknowledge, { body: { ids: [alarm!.id] } }))).toEqual({ count: 1 });
    expect(await ofLight()).toMatchObject([{ state: 'normal', ackedBy: expect.any(String) }]);
  });

  it('makes a fault that comes and goes five times one chattering alarm, while the fault list keeps its five alerts', async () => {
    for (let i = 0; i < 5; i += 1) {
      await raise(LED);
      await after(20 * SECOND);
      await clear(LED);
      await after(40 * SECOND);
    }
    const standing = await ofLight();
    expect(standing).toHaveLength(1);
    expect(standing[0]).toMatchObject({ chattering: true, raiseCount: 5, state: 'activeUnacked' });
    const alerts = (await data<AlertPage>(send(alertEndpoints.page, { body: { code: LED } }))).list.filter((a) => a.deviceId === light.id);
    expect(alerts).toHaveLength(5);
    expect(alerts.every((a) => a.state === 'pending')).toBe(true);
  });

  it('acknowledges apart from clearing, shelves with a reason, and unshelves when the time is up; the banner follows', async () => {
    await raise(BATTERY);
    const [alarm] = await ofLight();
    expect(alarm).toMatchObject({ severity: 'critical', state: 'activeUnacked' });
    const before = await data(send(alarmEndpoints.summary, {}));
    expect(before.unacked.critical).toBeGreaterThanOrEqual(1);

    bannerNotices.length = 0;
    expect(
      await data(send(alarmEndpoints.shelve, { body: { ids: [alarm!.id], minutes: 30, reason: 'Battery replacement ordered' } })),
    ).toEqual({
      count: 1,
    });
    await h().app.alarmKeeper.flushBanner();
    await poll(() => bannerNotices.length > 0, 'the banner notice');
    const shelved = await data(send(alarmEndpoints.summary, {}));
    expect(shelved.unacked.critical).toBe(before.unacked.critical - 1);
    expect(shelved.shelved).toBeGreaterThanOrEqual(1);
    expect((await ofLight())[0]).toMatchObject({ shelvedReason: 'Battery replacement ordered', shelvedBy: expect.any(String) });

    await after(30 * MINUTE);
    expect((await ofLight())[0]).toMatchObject({ shelvedUntil: null, state: 'activeUnacked' });
    expect((await data(send(alarmEndpoints.summary, {}))).unacked.critical).toBe(before.unacked.critical);

    expect(await data(send(alarmEndpoints.acknowledge, { body: { ids: [alarm!.id] } }))).toEqual({ count: 1 });
    expect((await ofLight())[0]).toMatchObject({ state: 'activeAcked' });
    // Acknowledged again: nothing changes.
    expect(await data(send(alarmEndpoints.acknowledge, { body: { ids: [alarm!.id] } }))).toEqual({ count: 0 });
    await clear(BATTERY);
    await after(MINUTE);
    expect((await ofLight())[0]).toMatchObject({ state: 'normal' });
  });

  it('refuses a blank shelving reason and an unknown id, changing nothing', async () => {
    await raise(BATTERY);
    const [alarm] = await ofLight();
    expectError(await send(alarmEndpoints.shelve, { body: { ids: [alarm!.id], minutes: 5, reason: '  \t' } }), 100001);
    expectError(await send(alarmEndpoints.acknowledge, { body: { ids: [alarm!.id, '9999999999'] } }), 110011);
    expect((await ofLight())[0]).toMatchObject({ state: 'activeUnacked', shelvedUntil: null });
  });

  describe('notification rules', () => {
    const OPS = 'ops@example.com';
    const BOSS = 'boss@example.com';

    it('mails each rule step once, escalates after the time unacknowledged, and stops on acknowledgement', async () => {
      const settings: AlarmSettings = {
        projectId,
        codes: [],
        rules: [
          {
            name: 'Critical to the night shift',
            severities: ['critical'],
            lang: 'en',
            steps: [
              { afterMinutes: 0, mails: [OPS] },
              { afterMinutes: 30, mails: [BOSS] },
            ],
          },
        ],
      };
      const saved = await data(send(alarmEndpoints.saveSettings, { body: settings }));
      expect(saved.codes).toHaveLength(DEFAULT_ALARM_SETTINGS.length);
      expect(saved.rules).toEqual(settings.rules);

      await raise(BATTERY);
      await h().app.jobs.runDue();
      await h().app.jobs.runDue();
      const first = await mailsTo(OPS);
      expect(first).toHaveLength(1);
      expect(first[0]!.subject).toContain('Critical');
      expect(first[0]!.subject).toContain(light.name);
      expect(await mailsTo(BOSS)).toHaveLength(0);

      // A fault that comes back on the same standing alarm plans nothing new.
      await clear(BATTERY);
      await raise(BATTERY);
      await h().app.jobs.runDue();
      expect(await mailsTo(OPS)).toHaveLength(1);

      await after(29 * MINUTE);
      await h().app.jobs.runDue();
      expect(await mailsTo(BOSS)).toHaveLength(0);
      await after(MINUTE);
      await h().app.jobs.runDue();
      await h().app.jobs.runDue();
      expect(await mailsTo(BOSS)).toHaveLength(1);
      expect(await mailsTo(OPS)).toHaveLength(1);
      const [alarm] = await ofLight();
      await data(send(alarmEndpoints.acknowledge, { body: { ids: [alarm!.id] } }));
      await clear(BATTERY);
      await after(MINUTE);
    });

    it('mails nobody past the first step of an alarm acknowledged in time', async () => {
      const opsBefore = (await mailsTo(OPS)).length;
      const bossBefore = (await mailsTo(BOSS)).length;
      await raise(BATTERY);
      await h().app.jobs.runDue();
      expect(await mailsTo(OPS)).toHaveLength(opsBefore + 1);
      const [alarm] = (await ofLight()).filter((a) => a.state !== 'normal');
      await data(send(alarmEndpoints.acknowledge, { body: { ids: [alarm!.id] } }));
      await after(31 * MINUTE);
      await h().app.jobs.runDue();
      expect(await mailsTo(BOSS)).toHaveLength(bossBefore);
    });

    it('refuses settings naming a code twice', async () => {
      const twice = DEFAULT_ALARM_SETTINGS.find((s) => s.code === LED)!;
      expectError(await send(alarmEndpoints.saveSettings, { body: { projectId, codes: [twice, twice], rules: [] } }), 100001);
    });
  });

  it('takes back the standing alarms when the engine starts again', async () => {
    const standing = (await h().database.db.select().from(alarms)).filter((r) => r.state === 'activeUnacked');
    expect(standing.length).toBeGreaterThan(0);
    const restarted = createAlarmKeeper({
      repo: createAlarmsRepo(h().database.db),
      clock: h().clock,
      jobs: { schedule: async () => true, register: () => undefined },
      messenger: { send: async () => undefined },
      hub: { publishToUser: () => undefined },
      logger: { warn: () => undefined },
      tickMs: 0,
    });
    await restarted.start();
    expect(await restarted.acknowledge(standing, 'After restart')).toBe(standing.length);
    await restarted.settled();
    const after = await h().database.db.select().from(alarms).where(eq(alarms.id, standing[0]!.id));
    expect(after[0]).toMatchObject({ state: 'activeAcked', ackedByName: 'After restart' });
    restarted.close();
  });
});
