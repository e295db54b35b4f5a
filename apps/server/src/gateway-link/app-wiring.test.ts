import { SimGateway } from '@lumigrid/gateway-sim';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { freshPglite } from '../test/database-templates.ts';
import { loadConfig } from '../config.ts';
import { createMemoryCredentialStore } from './credentials.ts';
import { reachable } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';

describe('buildApp with the gateway link', () => {
  it('starts the embedded broker, lets a provisioned gateway in, and stops it on close', async () => {
    const database = await freshPglite();
    const credentials = createMemoryCredentialStore();
    const app = await buildApp({
      config: loadConfig({ ADMIN_PASSWORD: 'Admin-Pass-2026', WEB_DIST: '/nonexistent' }),
      database,
      logger: false,
      gatewayLink: { credentials, port: 0 },
    });
    const link = app.gatewayLink!;
    const port = link.brokerPort!;
    expect(port).toBeGreaterThan(0);
    await credentials.set('A4C1380000AA', 'secret-1');
    const gateway = new SimGateway({ mac: 'A4C1380000AA', password: 'secret-1', url: `mqtt://127.0.0.1:${port}`, activityIntervalS: 0 });
    await gateway.start();
    await poll(() => link.presence.isOnline('A4C1380000AA') === true, 'online');
    expect((await link.bus.call('A4C1380000AA', 'gateway.info', {})).mac).toBe('A4C1380000AA');
    await gateway.stop();
    await app.close();
    await database.close();
    expect(await reachable(port)).toBe(false);
  });

  it('starts no broker unless asked', async () => {
    const database = await freshPglite();
    const app = await buildApp({
      config: loadConfig({ ADMIN_PASSWORD: 'Admin-Pass-2026', WEB_DIST: '/nonexistent' }),
      database,
      logger: false,
    });
    expect(app.gatewayLink).toBeUndefined();
    await app.close();
    await database.close();
  });
});
