import { manualSchedule, ONLINE_REPEAT } from '@lumigrid/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewaysOnTestCloud, poll } from './broker.fixtures.ts';

const rig = gatewaysOnTestCloud('A4C13A1F');
afterEach(() => {
  rig.cloud.acknowledging = true;
});

describe('an answer to the online state that is lost', () => {
  it('is asked for again: the online state goes again until answered, then the report and replies go', async () => {
    const timers = manualSchedule();
    const { cloud } = rig;
    // The server node that took the online state died before answering it.
    cloud.acknowledging = false;
    const gateway = await rig.startGateway({ schedule: timers.schedule, onlineRepeat: { random: () => 0 } });
    const states = () => cloud.up.filter((m) => m.mac === gateway.mac && m.channel === 'state');
    await poll(() => states().length === 1, 'the online state');
    expect(timers.pending.map((p) => p.ms)).toEqual([ONLINE_REPEAT.initialMs / 2]);
    expect(gateway.uplinkWaiting).toBeGreaterThan(0);

    // Still unanswered: the same online state again, and a longer wait.
    timers.runNext();
    await poll(() => states().length === 2, 'the online state sent again');
    expect(states()[1]).toEqual(states()[0]);
    expect(timers.pending.map((p) => p.ms)).toEqual([ONLINE_REPEAT.initialMs]);

    // Another node hears the repeat and answers it: the store opens and the waiting stops.
    cloud.acknowledging = true;
    timers.runNext();
    // The store empties on the broker's PUBACK, which can come before the broker hands the report to the cloud.
    const fullReport = () => cloud.up.some((m) => m.mac === gateway.mac && m.channel === 'report' && m.message.full);
    await poll(() => gateway.uplinkWaiting === 0 && fullReport(), 'the stored full report delivered');
    const reply = await cloud.call(gateway.mac, 'gateway.identify', { durationS: 1 });
    expect(reply).toMatchObject({ ok: true });
    expect(timers.pending).toHaveLength(0);
    expect(states()).toHaveLength(3);
  });

  it('is not repeated once answered, and waits at most the ceiling between repeats', async () => {
    const timers = manualSchedule();
    const answered = await rig.startGateway({ schedule: timers.schedule });
    await poll(() => answered.uplinkWaiting === 0, 'the answered gateway sending its report');
    expect(timers.pending).toHaveLength(0);

    rig.cloud.acknowledging = false;
    const unanswered = await rig.startGateway({ schedule: timers.schedule, onlineRepeat: { random: () => 0.5 } });
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      waits.push(...timers.pending.map((p) => p.ms));
      timers.runNext();
    }
    // 7.5 s, 15 s, 30 s, 60 s, then 90 s (three quarters of the 2-minute ceiling) for as long as it lasts.
    const { initialMs, maxMs } = ONLINE_REPEAT;
    expect(waits).toEqual([0.75, 1.5, 3, 6, 9, 9, 9].map((f) => f * initialMs));
    expect(waits.every((ms) => ms <= maxMs)).toBe(true);
    await poll(() => rig.cloud.up.filter((m) => m.mac === unanswered.mac && m.channel === 'state').length === 8, 'eight online states');
    expect(unanswered.uplinkWaiting).toBeGreaterThan(0);
  });
});
