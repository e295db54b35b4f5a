import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient } from '../../test/gateway-link.fixtures.ts';
import { SERVICE_DATABASES } from '../../test/harness.ts';
import { startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

describe.each(SERVICE_DATABASES)('gateway provisioning and broker credentials from the gateways table on %s', (kind) => {
  let rig: GatewayRig;
  let url: string;
  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1 });
    url = `mqtt://127.0.0.1:${rig.h.app.gatewayLink!.brokerPort}`;
  }, 60_000);
  afterAll(async () => rig?.close());

  it('lets a provisioned gateway in with its password only, and no unprovisioned one', async () => {
    const issued = await rig.h.app.gatewayFleet.provision('a4:c1:38:ff:00:01');
    expect(issued.mac).toBe('A4C138FF0001');
    expect(issued.password.length).toBeGreaterThanOrEqual(24);
    const good = await rawClient(url, { username: issued.mac, password: issued.password, clientId: issued.mac });
    expect(good.error).toBeUndefined();
    good.client.end(true);
    const wrong = await rawClient(url, { username: issued.mac, password: 'not-it', clientId: issued.mac });
    expect(wrong.error).toBeDefined();
    const unknown = await rawClient(url, { username: 'A4C138FF0002', password: 'anything', clientId: 'A4C138FF0002' });
    expect(unknown.error).toBeDefined();
  });

  it('re-provisioning issues a new password and the old one stops working', async () => {
    const first = await rig.h.app.gatewayFleet.provision('A4C138FF0003', 'first-password-123');
    const second = await rig.h.app.gatewayFleet.provision('A4C138FF0003');
    expect(second.password).not.toBe(first.password);
    const old = await rawClient(url, { username: first.mac, password: first.password, clientId: first.mac });
    expect(old.error).toBeDefined();
    const fresh = await rawClient(url, { username: second.mac, password: second.password, clientId: second.mac });
    expect(fresh.error).toBeUndefined();
    fresh.client.end(true);
  });

  it('persists presence: a stopped gateway is offline with its last-seen time', async () => {
    const sim = rig.fleet.gateways[0]!;
    await sim.stop();
    await poll(async () => {
      await rig.h.app.gatewayFleet.settled();
      const row = await rig.h.database.db.query.gateways.findFirst({ where: (g, { eq }) => eq(g.mac, sim.mac) });
      return row?.online === false && row.lastSeenAt !== null && row.info?.mac === sim.mac;
    }, 'offline in the table');
  });
});
