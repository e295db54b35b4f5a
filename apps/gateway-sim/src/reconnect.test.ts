import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { poll } from './broker.fixtures.ts';
import { SimGateway } from './gateway.ts';
import { seededRandom } from '@lumigrid/protocol';

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
