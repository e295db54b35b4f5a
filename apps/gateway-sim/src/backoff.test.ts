import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { poll } from './broker.fixtures.ts';
import { reconnectDelay, RECONNECT_MAX_MS } from './backoff.ts';
import { SimGateway } from './gateway.ts';
import { seededRandom } from '@lumigrid/protocol';

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

describe('a simulated gateway that cannot reach its broker', () => {
  const sockets = new Set<Socket>();
  const refusing = createServer((socket) => {
    sockets.add(socket);
    // Takes the connection and drops it, as a broker going down does.
    socket.destroy();
  });
  afterEach(() => new Promise<void>((done) => refusing.close(() => done())));

  it('retries on its back-off schedule, drawing a wait from its own random source each time', async () => {
    await new Promise<void>((done) => refusing.listen(0, '127.0.0.1', done));
    const port = (refusing.address() as AddressInfo).port;
    const draws: number[] = [];
    const random = seededRandom(7);
    const gateway = new SimGateway({
      mac: 'A4C138B0FF01',
      password: 'x',
      url: `mqtt://127.0.0.1:${port}`,
      activityIntervalS: 0,
      reconnect: { initialMs: 10, maxMs: 40, random: () => (draws.push(random()), draws.at(-1)!) },
    });
    void gateway.start().catch(() => undefined);
    await poll(() => sockets.size >= 5, 'five attempts to connect');
    await gateway.stop();
    // One draw per wait: every retry came from the back-off, none from mqtt.js's own fixed period.
    expect(draws.length).toBeGreaterThanOrEqual(sockets.size - 1);
    expect(draws.length).toBeLessThanOrEqual(sockets.size);
  });
});
