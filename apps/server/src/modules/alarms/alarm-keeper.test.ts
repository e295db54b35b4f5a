import { DEFAULT_ALARM_SETTINGS } from '@lumigrid/contract';
import { describe, expect, it, vi } from 'vitest';
import { TestClock } from '../../test/harness.ts';
import { createAlarmKeeper, type FaultSource } from './alarm-keeper.ts';
import type { AlarmPatch, AlarmRow, AlarmsRepo, NewAlarm } from './alarms.repo.ts';
import type { WebhookEventSource } from '../webhooks/webhooks.service.ts';

const LIGHT: FaultSource = {
  tenantId: 1n,
  gatewayId: 10n,
  gatewayName: 'GW',
  deviceId: 100n,
  addr: '0001',
  name: 'Exit 1',
  projectId: null,
  mapId: null,
  code: 6,
};

/** A repo whose inserts wait until the test lets them through, recording every write. */
function slowRepo() {
  const inserted: NewAlarm[] = [];
  const updated: Array<{ id: bigint; patch: AlarmPatch }> = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const repo = {
    insertMany: async (rows: NewAlarm[]) => {
      await gate;
      inserted.push(...rows);
      return rows.map((_, i) => BigInt(500 + i));
    },
    updateMany: async (changes: Array<{ id: bigint; patch: AlarmPatch }>) => void updated.push(...changes),
    standingAnyTenant: async () => [],
    audience: async () => [1n],
    codeSettings: async () => [],
    rules: async () => [],
  } as unknown as AlarmsRepo;
  return { repo, inserted, updated, release };
}

describe('the alarm keeper', () => {
  it('writes a change staged while its alarm\u2019s insert is being written, with the id the insert answered', async () => {
    const { repo, inserted, updated, release } = slowRepo();
    const notices: unknown[] = [];
    const sut = createAlarmKeeper({
      repo,
      clock: new TestClock(),
      jobs: { schedule: async () => true, register: () => undefined },
      messenger: { send: async () => undefined },
      hub: { publishToUser: (userId, topic, payload) => void notices.push({ userId, topic, payload }) },
      logger: { warn: (o: unknown) => void notices.push(o) },
      tickMs: 0,
      bannerGapMs: 0,
    });
    await sut.faultRaised(LIGHT);
    // The insert is under way (held at the gate) when the fault clears and comes back.
    await new Promise((resolve) => setImmediate(resolve));
    await sut.faultCleared({ gatewayId: LIGHT.gatewayId, addr: LIGHT.addr, codes: [LIGHT.code] });
    await sut.faultRaised(LIGHT);
    release();
    await sut.settled();
    expect(inserted).toMatchObject([{ state: 'activeUnacked', severity: DEFAULT_ALARM_SETTINGS[5]!.severity, raiseCount: 1 }]);
    expect(updated).toMatchObject([{ id: 500n, patch: { state: 'activeUnacked', raiseCount: 2 } }]);
    await sut.flushBanner();
    expect(notices).toContainEqual({ userId: 1n, topic: 'alarms', payload: { userId: '1' } });
    sut.close();
  });

  it('tells integrators each alarm raised, acknowledged and cleared once it is written (webhooks)', async () => {
    const { repo, release } = slowRepo();
    const told: WebhookEventSource[] = [];
    const clock = new TestClock();
    const sut = createAlarmKeeper({
      repo,
      clock,
      jobs: { schedule: async () => true, register: () => undefined },
      messenger: { send: async () => undefined },
      hub: { publishToUser: () => undefined },
      logger: { warn: () => undefined },
      events: { emit: (source) => void told.push(source as WebhookEventSource) },
      tickMs: 0,
      bannerGapMs: 0,
    });
    await sut.faultRaised({ ...LIGHT, projectId: 7n, mapId: 8n });
    // Nothing is told before the row is written: the event carries the alarm's id.
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([]);
    release();
    await sut.settled();
    const row = { id: 500n, gatewayId: LIGHT.gatewayId, addr: LIGHT.addr, code: LIGHT.code } as AlarmRow;
    expect(await sut.acknowledge([row], 'Ann')).toBe(1);
    await sut.faultCleared({ gatewayId: LIGHT.gatewayId, addr: LIGHT.addr, codes: [LIGHT.code] });
    // A clear counts after the code's off-delay.
    clock.advance(3_600_000);
    await sut.tick();
    await sut.settled();
    expect(told.map((e) => e.kind)).toEqual(['alarm.raised', 'alarm.acknowledged', 'alarm.cleared']);
    expect(told[0]).toMatchObject({
      tenantId: 1n,
      projectId: 7n,
      data: { alarmId: '500', code: LIGHT.code, state: 'activeUnacked', deviceId: '100', addr: '0001', mapId: '8' },
    });
    expect(told[1]!.data).toMatchObject({ acknowledgedBy: 'Ann', state: 'activeAcked' });
    sut.close();
  });

  it('tells the banner as soon as an alarm is written, then at most once a gap while a storm goes on, and the last change too', async () => {
    // The banner's timers and clock only: the repo's writes still settle on real immediates.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { repo, release } = slowRepo();
      release();
      const notices: number[] = [];
      const gapMs = 60_000;
      const sut = createAlarmKeeper({
        repo,
        clock: new TestClock(),
        jobs: { schedule: async () => true, register: () => undefined },
        messenger: { send: async () => undefined },
        hub: { publishToUser: () => void notices.push(notices.length) },
        logger: { warn: () => undefined },
        tickMs: 0,
        bannerGapMs: gapMs,
      });
      await sut.faultRaised(LIGHT);
      await sut.settled();
      // No time passes: the first notice goes out without waiting for a gap.
      await vi.advanceTimersByTimeAsync(0);
      expect(notices).toHaveLength(1);
      for (let i = 1; i <= 20; i++) await sut.faultRaised({ ...LIGHT, deviceId: BigInt(100 + i), addr: String(i).padStart(4, '0') });
      await sut.settled();
      // The twenty changes within the gap wait for its end, and go out together then.
      await vi.advanceTimersByTimeAsync(gapMs - 1);
      expect(notices).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(notices).toHaveLength(2);
      sut.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
