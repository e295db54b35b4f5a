import { SimGateway } from '@lumigrid/gateway-sim';
import { encodeUp, upTopic } from '@lumigrid/protocol';
import { count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceReports, deviceStates, gateways } from '../../db/schema/index.ts';
import { rawClient } from '../../test/gateway-link.fixtures.ts';
import { bind, defaultMapId } from '../../test/gateways.fixtures.ts';
import { DATABASES, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';

describe.each(DATABASES)('device reports from a simulated gateway through the broker on %s', (kind) => {
  let h: Harness;
  let gateway: SimGateway;
  let url: string;
  const mac = 'A4C13800AA01';
  const password = 'report-ingest-secret';

  beforeAll(async () => {
    h = await startApp(kind, { HOST: '127.0.0.1' }, { gatewayLink: { port: 0 } });
    await h.app.gatewayFleet.provision(mac, password);
    url = `mqtt://127.0.0.1:${h.app.gatewayLink!.brokerPort}`;
    gateway = new SimGateway({ mac, password, url, activityIntervalS: 0, radio: { unicastPerSecond: 0, groupPerSecond: 0 } });
    await gateway.start();
  });
  afterAll(async () => {
    await gateway.stop();
    await h.close();
  });

  const statesOf = async () => {
    const [gw] = await h.database.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.mac, mac));
    return h.database.db.select().from(deviceStates).where(eq(deviceStates.gatewayId, gw!.id));
  };

  it('stores the full report sent on connect as the current state of every device', async () => {
    await poll(async () => (await statesOf()).length === gateway.devices.size, 'every device state');
    const states = await statesOf();
    for (const s of states) expect(s.state).toEqual(gateway.devices.get(s.addr)!.state);
  });

  it('stores a change as the new current state and one more history row', async () => {
    const addr = [...gateway.devices.values()].find((d) => d.state.kind === 'light-cct')!.state.addr;
    const before = (await h.database.db.select({ n: count() }).from(deviceReports).where(eq(deviceReports.addr, addr)))[0]!.n;
    gateway.raiseFault(addr, 8);
    await poll(async () => (await statesOf()).find((s) => s.addr === addr)?.fault === 8, 'the fault in the current state');
    const after = (await h.database.db.select({ n: count() }).from(deviceReports).where(eq(deviceReports.addr, addr)))[0]!.n;
    expect(after).toBe(before + 1);
  });

  it('adds no history row for a report that repeats the current states, but moves their last seen', async () => {
    const [gw] = await h.database.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.mac, mac));
    const historyRows = async () =>
      (await h.database.db.select({ n: count() }).from(deviceReports).where(eq(deviceReports.gatewayId, gw!.id)))[0]!.n;
    const before = await historyRows();
    const seenBefore = Math.max(...(await statesOf()).map((s) => s.receivedAt.getTime()));
    gateway.reportAll();
    await poll(async () => (await statesOf()).every((s) => s.receivedAt.getTime() > seenBefore), 'every device seen again');
    await h.app.reportWriter!.flush();
    expect(await historyRows()).toBe(before);
  });

  it('writes the account a gateway is bound to from its next report on, though its pool state was held', async () => {
    const [gw] = await h.database.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.mac, mac));
    // Reported from the pool first, so the ingest holds the gateway without an account.
    await poll(async () => (await statesOf()).length === gateway.devices.size, 'every device state');
    await h.app.reportWriter!.flush();
    const token = await signUpByMail(h, 'report-ingest@example.com');
    await bind(h, token, mac, await defaultMapId(h, token));
    const [bound] = await h.database.db.select({ tenantId: gateways.tenantId }).from(gateways).where(eq(gateways.id, gw!.id));
    const addr = [...gateway.devices.values()].find((d) => d.state.kind === 'light-cct')!.state.addr;
    gateway.raiseFault(addr, 9);
    await poll(async () => (await statesOf()).find((s) => s.addr === addr)?.fault === 9, 'the fault in the current state');
    await h.app.reportWriter!.flush();
    const [last] = await h.database.db
      .select({ tenantId: deviceReports.tenantId })
      .from(deviceReports)
      .where(eq(deviceReports.gatewayId, gw!.id))
      .orderBy(desc(deviceReports.id))
      .limit(1);
    expect(bound!.tenantId).not.toBeNull();
    expect(last!.tenantId).toBe(bound!.tenantId);
    expect((await statesOf()).find((s) => s.addr === addr)!.tenantId).toBe(bound!.tenantId);
  });

  it('logs and drops a malformed report without losing the next good one', async () => {
    const link = h.app.gatewayLink!;
    const dropped = link.stats.dropped;
    // The gateway's own second session (client id MAC-suffix) playing a misbehaving firmware.
    const { client, error } = await rawClient(url, { clientId: `${mac}-bad`, username: mac, password });
    expect(error).toBeUndefined();
    await client.publishAsync(
      upTopic(mac, 'report'),
      JSON.stringify({ ts: Date.now(), full: false, devices: [{ addr: 'XYZ', kind: 'lamp' }] }),
      { qos: 1 },
    );
    const good = { addr: '00124B00AA01FFFF', kind: 'curtain', online: true, position: 42, fault: 0 } as const;
    await client.publishAsync(upTopic(mac, 'report'), encodeUp('report', { ts: Date.now(), full: false, devices: [good] }), { qos: 1 });
    await client.endAsync();
    await poll(() => link.stats.dropped === dropped + 1, 'the malformed report dropped');
    await poll(async () => (await statesOf()).some((s) => s.addr === good.addr && s.state.position === 42), 'the good report stored');
  });
});
