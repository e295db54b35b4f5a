import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { trackRequestsInFlight } from './requests-in-flight.ts';

/** A server whose one route answers when the test says so. */
async function serverWithHeldRoute() {
  // The abandoned request's socket is gone: close() must not wait for it.
  const app = Fastify({ forceCloseConnections: true });
  const requests = trackRequestsInFlight(app);
  const held: Array<() => void> = [];
  let arrived: () => void = () => {};
  app.get('/held', async () => {
    arrived();
    await new Promise<void>((resolve) => held.push(resolve));
    return { ok: true };
  });
  app.get('/quick', async () => ({ ok: true }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const nextArrival = () => new Promise<void>((resolve) => (arrived = resolve));
  return { app, requests, held, address, nextArrival };
}

describe('requests in flight', () => {
  let close: () => Promise<void> = async () => {};
  afterEach(async () => close());

  it('counts requests until they are answered, and is idle once none is left', async () => {
    const { app, requests, held, address, nextArrival } = await serverWithHeldRoute();
    close = () => app.close();
    expect(requests.count).toBe(0);
    await requests.idle();

    const first = nextArrival();
    const answered = fetch(`${address}/held`).then((r) => r.json());
    await first;
    expect(requests.count).toBe(1);
    let idle = false;
    const becameIdle = requests.idle().then(() => (idle = true));
    // A request answered meanwhile does not end the wait for the held one.
    expect((await fetch(`${address}/quick`)).status).toBe(200);
    expect(requests.count).toBe(1);
    expect(idle).toBe(false);

    held.shift()!();
    expect(await answered).toEqual({ ok: true });
    await becameIdle;
    expect(requests.count).toBe(0);
  });

  it('stops counting a request its client abandoned', async () => {
    const { app, requests, held, address, nextArrival } = await serverWithHeldRoute();
    close = async () => {
      for (const release of held) release();
      await app.close();
    };
    const abandon = new AbortController();
    const arrival = nextArrival();
    const abandoned = fetch(`${address}/held`, { signal: abandon.signal }).catch(() => 'aborted');
    await arrival;
    expect(requests.count).toBe(1);
    abandon.abort();
    expect(await abandoned).toBe('aborted');
    await requests.idle();
    expect(requests.count).toBe(0);
  });
});
