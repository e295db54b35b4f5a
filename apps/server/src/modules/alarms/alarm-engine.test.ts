import { describe, expect, it } from 'vitest';
import { TestClock } from '../../test/harness.ts';
import { createAlarmEngine, stepAlarm, QUIET_SOURCE, type AlarmPolicy } from './alarm-engine.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const policy: AlarmPolicy = {
  severity: 'high',
  onDelayMs: 10 * SECOND,
  offDelayMs: 30 * SECOND,
  chatterCount: 3,
  chatterWindowMs: 15 * MINUTE,
};
const LIGHT = 'gw1/0001/2';

function rig(p: AlarmPolicy = policy) {
  const clock = new TestClock();
  const sut = createAlarmEngine<string>({ clock });
  const kinds = (change: { events: Array<{ kind: string }> }) => change.events.map((e) => e.kind);
  return {
    clock,
    sut,
    kinds,
    fault: () => kinds(sut.fault(LIGHT, p)),
    clear: () => kinds(sut.clear(LIGHT, p)),
    after: (ms: number) => {
      clock.advance(ms);
      return sut.advance().flatMap(kinds);
    },
    alarm: () => sut.source(LIGHT).alarm,
  };
}

describe('the alarm engine', () => {
  describe('on-delay', () => {
    it('raises no alarm for a fault gone within the on-delay', () => {
      const r = rig();
      expect(r.fault()).toEqual([]);
      expect(r.after(9 * SECOND)).toEqual([]);
      expect(r.clear()).toEqual([]);
      expect(r.after(MINUTE)).toEqual([]);
      expect(r.alarm()).toBeNull();
    });

    it('raises the alarm when the fault lasts the on-delay, dated when the delay ended', () => {
      const r = rig();
      const start = r.clock.now().getTime();
      r.fault();
      expect(r.after(10 * SECOND)).toEqual(['raised']);
      expect(r.alarm()).toMatchObject({ state: 'activeUnacked', severity: 'high', chattering: false, raisedAt: start + 10 * SECOND });
    });

    it('raises at once with no on-delay', () => {
      const r = rig({ ...policy, onDelayMs: 0 });
      expect(r.fault()).toEqual(['raised']);
    });
  });

  describe('off-delay', () => {
    it('keeps the alarm active when the fault returns within the off-delay', () => {
      const r = rig();
      r.fault();
      r.after(10 * SECOND);
      expect(r.clear()).toEqual([]);
      expect(r.after(29 * SECOND)).toEqual([]);
      expect(r.fault()).toEqual(['repeated']);
      expect(r.after(MINUTE)).toEqual([]);
      expect(r.alarm()).toMatchObject({ state: 'activeUnacked', raiseCount: 2 });
    });

    it('clears the alarm when the fault stays away for the off-delay', () => {
      const r = rig();
      r.fault();
      r.after(10 * SECOND);
      r.clear();
      expect(r.after(30 * SECOND)).toEqual(['cleared']);
      expect(r.alarm()).toMatchObject({ state: 'clearedUnacked' });
    });
  });

  describe('acknowledge apart from clear', () => {
    it('active-unacknowledged, acknowledged, then cleared is over', () => {
      const r = rig({ ...policy, onDelayMs: 0, offDelayMs: 0 });
      r.fault();
      expect(r.kinds(r.sut.acknowledge(LIGHT))).toEqual(['acknowledged']);
      expect(r.alarm()).toMatchObject({ state: 'activeAcked' });
      const cleared = r.sut.clear(LIGHT, { ...policy, onDelayMs: 0, offDelayMs: 0 });
      expect(r.kinds(cleared)).toEqual(['cleared', 'ended']);
      expect(cleared.alarm).toMatchObject({ state: 'normal' });
      expect(r.alarm()).toBeNull();
    });

    it('cleared-unacknowledged waits for the acknowledgement, then is over', () => {
      const r = rig({ ...policy, onDelayMs: 0, offDelayMs: 0 });
      r.fault();
      r.clear();
      expect(r.alarm()).toMatchObject({ state: 'clearedUnacked' });
      expect(r.kinds(r.sut.acknowledge(LIGHT))).toEqual(['acknowledged', 'ended']);
      expect(r.alarm()).toBeNull();
    });

    it('a fault back before the acknowledgement makes the same alarm active again', () => {
      const r = rig({ ...policy, onDelayMs: 0, offDelayMs: 0 });
      r.fault();
      r.clear();
      expect(r.fault()).toEqual(['returned']);
      expect(r.alarm()).toMatchObject({ state: 'activeUnacked', raiseCount: 2, clearedAt: null });
    });

    it('acknowledging twice changes nothing the second time', () => {
      const r = rig({ ...policy, onDelayMs: 0 });
      r.fault();
      r.sut.acknowledge(LIGHT);
      expect(r.kinds(r.sut.acknowledge(LIGHT))).toEqual([]);
    });
  });

  describe('chattering', () => {
    it('makes a light flapping offline and online five times in fifteen minutes one chattering alarm', () => {
      const r = rig({ ...policy, onDelayMs: 0 });
      const raised: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        raised.push(...r.fault());
        r.after(MINUTE);
        raised.push(...r.clear());
        raised.push(...r.after(2 * MINUTE));
      }
      expect(raised.filter((k) => k === 'raised')).toHaveLength(1);
      expect(raised.filter((k) => k === 'chattering')).toHaveLength(1);
      expect(r.alarm()).toMatchObject({ chattering: true, raiseCount: 5, state: 'activeUnacked' });
    });

    it('counts faults shorter than the on-delay: flapping faster than the delay is still one alarm', () => {
      const r = rig();
      const events: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        events.push(...r.fault());
        events.push(...r.after(2 * SECOND));
        events.push(...r.clear());
        events.push(...r.after(MINUTE));
      }
      expect(events).toEqual(['raised', 'chattering']);
      expect(r.alarm()).toMatchObject({ chattering: true });
    });

    it('clears a chattering alarm only after a whole quiet window', () => {
      const r = rig({ ...policy, onDelayMs: 0 });
      for (let i = 0; i < 3; i += 1) {
        r.fault();
        r.after(SECOND);
        r.clear();
        r.after(SECOND);
      }
      expect(r.after(14 * MINUTE)).toEqual([]);
      expect(r.alarm()).toMatchObject({ state: 'activeUnacked', chattering: true });
      expect(r.after(MINUTE)).toEqual(['cleared']);
      expect(r.alarm()).toMatchObject({ state: 'clearedUnacked', chattering: false });
    });

    it('raises within the window only: three faults an hour apart are three alarms', () => {
      const r = rig({ ...policy, onDelayMs: 0, offDelayMs: 0 });
      const events: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        events.push(...r.fault(), ...r.clear());
        r.sut.acknowledge(LIGHT);
        r.after(60 * MINUTE);
      }
      expect(events.filter((k) => k === 'raised')).toHaveLength(3);
      expect(events).not.toContain('chattering');
    });
  });

  describe('shelving', () => {
    it('unshelves by itself when its time is up', () => {
      const r = rig({ ...policy, onDelayMs: 0 });
      r.fault();
      const until = new Date(r.clock.now().getTime() + 30 * MINUTE);
      expect(r.kinds(r.sut.shelve(LIGHT, until))).toEqual(['shelved']);
      expect(r.sut.source(LIGHT).shelf).toEqual({ until: until.getTime() });
      expect(r.after(29 * MINUTE)).toEqual([]);
      expect(r.after(MINUTE)).toEqual(['unshelved']);
      expect(r.sut.source(LIGHT).shelf).toBeNull();
    });

    it('keeps the shelf over the alarm ending and a new one being raised', () => {
      const r = rig({ ...policy, onDelayMs: 0, offDelayMs: 0 });
      r.fault();
      r.sut.shelve(LIGHT, new Date(r.clock.now().getTime() + 60 * MINUTE));
      r.clear();
      r.sut.acknowledge(LIGHT);
      r.after(20 * MINUTE);
      expect(r.fault()).toEqual(['raised']);
      expect(r.sut.source(LIGHT).shelf).not.toBeNull();
    });

    it('shelves only a standing alarm, and only into the future', () => {
      const r = rig();
      expect(r.kinds(r.sut.shelve(LIGHT, new Date(r.clock.now().getTime() + MINUTE)))).toEqual([]);
      r.fault();
      r.after(10 * SECOND);
      expect(r.kinds(r.sut.shelve(LIGHT, r.clock.now()))).toEqual([]);
    });

    it('an unshelve before the time ends it at once', () => {
      const r = rig({ ...policy, onDelayMs: 0 });
      r.fault();
      r.sut.shelve(LIGHT, new Date(r.clock.now().getTime() + 30 * MINUTE));
      expect(r.kinds(r.sut.unshelve(LIGHT))).toEqual(['unshelved']);
      expect(r.after(30 * MINUTE)).toEqual([]);
    });
  });

  it('forgets a source with nothing left to remember', () => {
    const r = rig({ ...policy, onDelayMs: 0, offDelayMs: 0, chatterWindowMs: MINUTE });
    r.fault();
    r.clear();
    r.sut.acknowledge(LIGHT);
    r.after(2 * MINUTE);
    expect(r.sut.size()).toBe(0);
  });

  it('is a pure step: the state it is given is left as it was', () => {
    const before = { ...QUIET_SOURCE, raises: [] };
    const step = stepAlarm(before, { kind: 'fault', at: 1000, policy: { ...policy, onDelayMs: 0 } });
    expect(before).toEqual(QUIET_SOURCE);
    expect(step.state.alarm).toMatchObject({ state: 'activeUnacked' });
  });
});
