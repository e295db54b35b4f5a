import { describe, expect, it } from 'vitest';
import { createPresence, type GatewayPresence } from './presence.ts';
import { gatewayInfo } from '../test/gateway-link.fixtures.ts';

const A = 'A4C138000001';
const INFO = gatewayInfo(A);
const B = 'A4C138000002';

describe('presence when the broker is lost', () => {
  it('calls every known gateway unknown, keeps its info, and settles the ones not heard again as lost', () => {
    let clock = 1000;
    const presence = createPresence(() => clock);
    const changes: GatewayPresence[] = [];
    presence.onChange((p) => changes.push(p));
    presence.update(A, { state: 'online', info: INFO });
    presence.update(B, { state: 'offline', reason: 'shutdown' });

    clock = 2000;
    presence.markAllUnknown();
    presence.markAllUnknown();
    expect(presence.list()).toEqual([
      { mac: A, online: false, info: INFO, reason: 'unknown', since: 2000 },
      { mac: B, online: false, info: undefined, reason: 'unknown', since: 2000 },
    ]);
    // Told once each, not again for the second call.
    expect(changes.slice(2).map((p) => `${p.mac} ${p.reason}`)).toEqual([`${A} unknown`, `${B} unknown`]);

    // Back: A's retained state is heard again, B's is not.
    clock = 3000;
    presence.update(A, { state: 'online', info: INFO });
    presence.settleUnknown();
    expect(presence.get(A)).toMatchObject({ online: true, reason: undefined });
    expect(presence.get(B)).toMatchObject({ online: false, reason: 'lost', since: 3000 });
  });

  it('keeps waiters waiting through unknown and wakes them when the gateway is heard online', async () => {
    const presence = createPresence();
    presence.update(A, { state: 'offline', reason: 'restart' });
    const back = presence.waitOnline(A, 60_000);
    presence.markAllUnknown();
    expect(presence.waiterCount()).toBe(1);
    presence.update(A, { state: 'online', info: INFO });
    expect(await back).toBe(true);
    expect(presence.waiterCount()).toBe(0);
  });
});

/** A clock and timers the test moves by hand. */
function manualTime(start = 1000) {
  let clock = start;
  const timers = new Set<{ at: number; work: () => void }>();
  return {
    now: () => clock,
    schedule: (work: () => void, ms: number) => {
      const timer = { at: clock + ms, work };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms: number) {
      clock += ms;
      for (const t of [...timers].sort((a, b) => a.at - b.at))
        if (t.at <= clock) {
          timers.delete(t);
          t.work();
        }
    },
  };
}

describe('presence with a grace period', () => {
  const GRACE = 30_000;

  /** Presence holding offlines back for the grace, on a clock the test moves. */
  function presenceWithGrace() {
    const time = manualTime();
    return { time, presence: createPresence(time.now, { graceMs: GRACE, schedule: time.schedule }) };
  }

  /** What presence tells from now on, each change as `mac online` or `mac reason`. */
  function toldChanges(presence: ReturnType<typeof createPresence>) {
    const changes: string[] = [];
    presence.onChange((p) => changes.push(`${p.mac} ${p.online ? 'online' : p.reason}`));
    return changes;
  }

  it('tells nobody of a gateway that reconnects within the grace, while the link itself knows it is away', () => {
    const { time, presence } = presenceWithGrace();
    const changes: GatewayPresence[] = [];
    presence.onChange((p) => changes.push(p));
    presence.update(A, { state: 'online', info: INFO });
    changes.length = 0;

    time.advance(1000);
    presence.update(A, { state: 'offline', reason: 'lost' });
    // Commands wait for it, but its users see no change.
    expect(presence.isOnline(A)).toBe(false);
    expect(changes).toEqual([]);
    expect(presence.holding()).toBe(1);

    time.advance(GRACE - 1);
    presence.update(A, { state: 'online', info: INFO });
    expect(presence.holding()).toBe(0);
    time.advance(10 * GRACE);
    // Only the refresh of what its users already hold: online, never offline.
    expect(changes.map((p) => p.online)).toEqual([true]);
  });

  it('tells of an offline that outlasts the grace once, dated from when it began', () => {
    const { time, presence } = presenceWithGrace();
    const changes: GatewayPresence[] = [];
    presence.update(A, { state: 'online', info: INFO });
    presence.onChange((p) => changes.push(p));

    time.advance(1000);
    presence.update(A, { state: 'offline', reason: 'lost' });
    time.advance(5000);
    // A second will in the meantime starts no second wait.
    presence.update(A, { state: 'offline', reason: 'lost' });
    time.advance(GRACE);
    expect(changes).toEqual([{ mac: A, online: false, info: INFO, reason: 'lost', since: 2000 }]);
    expect(presence.holding()).toBe(0);
  });

  it("tells a gateway's own goodbye at once, also while a lost connection of it is waiting out the grace", () => {
    const { time, presence } = presenceWithGrace();
    const changes: GatewayPresence[] = [];
    presence.update(A, { state: 'online', info: INFO });
    presence.update(B, { state: 'online', info: INFO });
    presence.onChange((p) => changes.push(p));

    presence.update(A, { state: 'offline', reason: 'shutdown' });
    expect(changes.map((p) => `${p.mac} ${p.reason}`)).toEqual([`${A} shutdown`]);

    presence.update(B, { state: 'offline', reason: 'lost' });
    time.advance(1000);
    presence.update(B, { state: 'offline', reason: 'update' });
    expect(changes.map((p) => `${p.mac} ${p.reason}`)).toEqual([`${A} shutdown`, `${B} update`]);
    expect(presence.holding()).toBe(0);
    time.advance(GRACE);
    expect(changes).toHaveLength(2);
  });

  it('tells at once of a gateway that was not online (nothing to hold back), and of the broker being lost', () => {
    const { time, presence } = presenceWithGrace();
    const changes = toldChanges(presence);
    presence.update(B, { state: 'offline', reason: 'shutdown' });
    presence.update(A, { state: 'online', info: INFO });
    presence.update(A, { state: 'offline', reason: 'lost' });
    presence.markAllUnknown();
    expect(changes).toEqual([`${B} shutdown`, `${A} online`, `${B} unknown`, `${A} unknown`]);
    // The held offline was replaced by unknown: it is not told later as well.
    time.advance(GRACE);
    expect(changes).toHaveLength(4);
  });

  it('calls the gateways stored online unknown after a restart, tells nothing for those back, and settles the rest', () => {
    const { presence } = presenceWithGrace();
    const changes = toldChanges(presence);
    presence.expect([A, B]);
    expect(presence.isOnline(A)).toBe(false);
    expect(changes).toEqual([]);
    presence.update(A, { state: 'online', info: INFO });
    presence.settleUnknown();
    expect(changes).toEqual([`${A} online`, `${B} lost`]);
  });
});

describe('an online state heard again', () => {
  it('changes nothing and tells nobody when it is the same state repeated; a new one is still told', () => {
    const time = manualTime();
    const presence = createPresence(time.now, { graceMs: 30_000, schedule: time.schedule });
    const changes: GatewayPresence[] = [];
    presence.onChange((p) => changes.push(p));
    presence.update(A, { state: 'online', info: INFO, ts: 5000 });
    const first = presence.get(A);

    // The gateway had no answer to it and says it again, maybe to another server node.
    time.advance(10_000);
    expect(presence.update(A, { state: 'online', info: { ...INFO }, ts: 5000 })).toBe(first);
    expect(presence.get(A)).toBe(first);
    expect(changes).toHaveLength(1);

    // Another online state (new info, or a new connection) is a refresh the listeners hear.
    presence.update(A, { state: 'online', info: { ...INFO, configVersion: 7 }, ts: 5000 });
    presence.update(A, { state: 'online', info: { ...INFO, configVersion: 7 }, ts: 16_000 });
    expect(changes.map((p) => p.info?.configVersion)).toEqual([INFO.configVersion, 7, 7]);

    // After a goodbye the same state is news again (a retained state re-read once back).
    presence.update(A, { state: 'offline', reason: 'shutdown' });
    presence.update(A, { state: 'online', info: { ...INFO, configVersion: 7 }, ts: 16_000 });
    expect(changes.map((p) => (p.online ? 'online' : p.reason))).toEqual(['online', 'online', 'online', 'shutdown', 'online']);
  });
});
