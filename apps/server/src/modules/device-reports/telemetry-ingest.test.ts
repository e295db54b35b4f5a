import { deviceEndpoints } from '@lumigrid/contract';
import type { Device, DevicePage, GatewayDevice } from '@lumigrid/contract';
import type { SimGateway } from '@lumigrid/gateway-sim';
import { encodeUp, upTopic } from '@lumigrid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, runPrefix } from '../../test/gateway-link.fixtures.ts';
import { DATABASES, signUpByMail, type Harness, endpointCaller } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, defaultMapId, startAppWithGateway } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

/**
 * A simulated gateway publishes up/telemetry over the real broker: the last sample of each device reaches the
 * device list (status view) and the device detail of the account that holds the gateway, and nobody else's.
 */
describe.each(DATABASES)('device telemetry from a simulated gateway through the broker on %s', (kind) => {
  let h: Harness;
  let sim: SimGateway;
  let token: string;
  let otherToken: string;
  let mapId: string;
  let light: GatewayDevice;
  const mac = `A4C1${runPrefix()}71`;
  const password = `pw-${mac}`;
  const send = endpointCaller(
    () => h.app,
    () => token,
  );
  const rowOf = async (id: string, t = token) =>
    (await data<DevicePage>(send(deviceEndpoints.list, { body: { pageSize: 100 } }, t))).list.find((d) => d.id === id);

  beforeAll(async () => {
    ({ h, sim } = await startAppWithGateway(kind, { mac, password }));
    token = await signUpByMail(h, `telemetry-${kind}@example.com`);
    otherToken = await signUpByMail(h, `telemetry-other-${kind}@example.com`);
    mapId = await defaultMapId(h, token);
    const built = await buildGatewayWithDevices(h, token, { mac, mapId, name: 'Metered floor', place: (d) => d.kind === 'light-dimmer' });
    light = built.placed[0]!;
  }, 90_000);
  afterAll(async () => {
    await sim?.stop();
    await h?.close();
  });

  it('shows nothing before the gateway sends telemetry', async () => {
    const row = await rowOf(light.id);
    expect(row).toMatchObject({ voltage: null, current: null, power: null, energyWh: null, telemetryAt: null });
  });

  it('shows the last sample in the status view and the detail, with power from the light level', async () => {
    const device = sim.devices.get(light.addr.toUpperCase())!;
    device.state.on = true;
    device.state.level = 254;
    sim.reportTelemetry();
    await poll(async () => ((await rowOf(light.id))?.power ?? 0) > 1, 'the power in the status row', { timeoutMs: 10_000 });
    const row = (await rowOf(light.id))!;
    expect(row.voltage).toBe(230);
    expect(row.power).toBeGreaterThan(1);
    expect(row.current).toBeCloseTo(row.power! / 230, 2);
    expect(row.energyWh).not.toBeNull();
    expect(row.telemetryAt).not.toBeNull();
    const detail = await data<Device>(send(deviceEndpoints.detail, { params: { mapId, id: light.id } }));
    expect(detail).toMatchObject({ voltage: row.voltage, current: row.current, power: row.power, energyWh: row.energyWh });

    // Switched off, the next sample shows the standby draw only.
    device.state.on = false;
    sim.reportTelemetry();
    await poll(async () => ((await rowOf(light.id))?.power ?? 99) < 1, 'the standby power in the status row', { timeoutMs: 10_000 });
  });

  it('dates the sample by the server’s receipt, so a gateway clock an hour ahead does not make it look fresh', async () => {
    const before = (await rowOf(light.id))!.telemetryAt;
    sim.clock.set(Date.now() + 60 * 60 * 1000);
    const sent = Date.now();
    sim.reportTelemetry();
    await poll(async () => (await rowOf(light.id))?.telemetryAt !== before, 'the new sample', { timeoutMs: 10_000 });
    const at = Date.parse((await rowOf(light.id))!.telemetryAt!);
    expect(at).toBeGreaterThanOrEqual(sent - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    sim.clock.set(Date.now());
  });

  it('drops a malformed telemetry message and keeps the next good one', async () => {
    const link = h.app.gatewayLink!;
    const dropped = link.stats.dropped;
    const { client, error } = await rawClient(`mqtt://127.0.0.1:${link.brokerPort}`, { clientId: `${mac}-bad`, username: mac, password });
    expect(error).toBeUndefined();
    await client.publishAsync(upTopic(mac, 'telemetry'), JSON.stringify({ ts: Date.now(), samples: [{ addr: light.addr, voltage: -5 }] }), {
      qos: 1,
    });
    await client.publishAsync(
      upTopic(mac, 'telemetry'),
      encodeUp('telemetry', { ts: Date.now(), samples: [{ addr: light.addr, power: 7.5, voltage: 231 }] }),
      { qos: 1 },
    );
    await client.endAsync();
    await poll(() => link.stats.dropped === dropped + 1, 'the malformed telemetry dropped');
    await poll(async () => (await rowOf(light.id))?.voltage === 231, 'the good sample shown');
    expect((await rowOf(light.id))!.power).toBe(7.5);
  });

  it('shows another account nothing of it', async () => {
    const page = await data<DevicePage>(send(deviceEndpoints.list, { body: { pageSize: 100 } }, otherToken));
    expect(page.list.find((d) => d.id === light.id)).toBeUndefined();
    expect(page.list.every((d) => d.power === null && d.voltage === null)).toBe(true);
    const res = await send(deviceEndpoints.detail, { params: { mapId, id: light.id } }, otherToken);
    expect(res.body.code).not.toBe(0);
    expect(JSON.stringify(res.body)).not.toContain('231');
  });
});
