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
