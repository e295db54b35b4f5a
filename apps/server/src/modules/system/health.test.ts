import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Harness } from '../../test/harness.ts';

describe('GET /healthz', () => {
  let harness: Harness;
  let draining = false;

  beforeAll(async () => {
    harness = await startApp('pglite', {}, { draining: () => draining });
  });
  afterAll(() => harness?.close());

  it('answers 200 ok while the node serves, and 503 draining from the moment it is told to stop', async () => {
    const ok = await harness.app.inject({ method: 'GET', url: '/healthz' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'ok' });

    draining = true;
    const stopping = await harness.app.inject({ method: 'GET', url: '/healthz' });
    expect(stopping.statusCode).toBe(503);
    expect(stopping.json()).toMatchObject({ status: 'draining', version: expect.any(String) });
    // The rest of the API still answers during the grace.
    expect((await harness.app.inject({ method: 'GET', url: '/api1/system/v1/info' })).statusCode).toBe(200);
  });
});
