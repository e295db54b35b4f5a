import { describe, expect, it } from 'vitest';
import { reconnectDelay, RECONNECT_MAX_MS } from './backoff.ts';
import { seededRandom } from './seeded-random.ts';

describe('reconnect back-off', () => {
  it('doubles its window each attempt up to the ceiling, and never waits less than half of it', () => {
    const low = Array.from({ length: 8 }, (_, n) => reconnectDelay(n, { random: () => 0 }));
    const high = Array.from({ length: 8 }, (_, n) => reconnectDelay(n, { random: () => 0.999_999 }));
    expect(low).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
    expect(high).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(reconnectDelay(1000, { random: () => 0.999_999 })).toBe(RECONNECT_MAX_MS);
  });

  it('spreads a fleet that lost its broker together over the window instead of one wave', () => {
    const random = seededRandom(42);
    const waits = Array.from({ length: 1000 }, () => reconnectDelay(4, { random }));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(8000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(16_000);
    // Every second of the window gets some of the fleet, and none gets more than a fair share's double.
    const perSecond = new Map<number, number>();
    for (const w of waits) perSecond.set(Math.floor(w / 1000), (perSecond.get(Math.floor(w / 1000)) ?? 0) + 1);
    expect([...perSecond.keys()].sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
    for (const n of perSecond.values()) expect(n).toBeLessThan(2 * (1000 / 8));
    // The same seed draws the same waits.
    const again = seededRandom(42);
    expect(Array.from({ length: 1000 }, () => reconnectDelay(4, { random: again }))).toEqual(waits);
  });
});
