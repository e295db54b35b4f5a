import { gatewayEndpoints } from '@lumigrid/contract';
import type { ErrorCode, Gateway, GatewayBroadcast, GatewayMicrowaveResult, GatewaySensorMode } from '@lumigrid/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, refusedInput } from '../../test/harness.ts';
import { DATABASES_AND_BROKERS, bind, data, defaultMapId, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

/**
 * The gateway calls of spec section 7 that work on the gateway's networks and sensors as a whole: broadcast
 * (open the networks for joining), sensor_self_oper / sensor_sync_model (sensor mode of spec section 4) and
 * set_mawa_params (microwave motion sensors), against the real simulator over a real broker.
 */
describe.each(DATABASES_AND_BROKERS)('network and sensor calls of a gateway on %s over the %s broker', (kind, broker) => {
  let gw: Gateway;
  const { h, sim, send, rig, token } = gatewayRigSuite(kind, { count: 2, broker }, 'sensors@example.com');

  beforeAll(async () => {
    const mapId = await defaultMapId(h(), token());
    gw = await bind(h(), token(), sim().mac, mapId, 'Sensor gateway');
    await bind(h(), token(), rig().fleet.gateways[1]!.mac, mapId, 'Quiet gateway');
  }, 60_000);

  it('broadcast opens the networks: a device pairs and shows up for import', async () => {
    const before = (await data(send(gatewayEndpoints.checkImport, { params: { id: gw.id } }))).total as number;
    const opened = await data<GatewayBroadcast>(send(gatewayEndpoints.broadcast, { query: { id: gw.id, durationS: 120 } }));
    expect(opened.durationS).toBe(120);
    expect(opened.openUntil).not.toBeNull();
    // The simulator pairs a light a couple of simulated seconds after its networks open.
    await poll(
      async () => (await data(send(gatewayEndpoints.checkImport, { params: { id: gw.id } }))).total === before + 1,
      'a joined device',
    );
    const check = await data(send(gatewayEndpoints.checkImport, { params: { id: gw.id } }));
    expect(check.fresh).toBeGreaterThanOrEqual(1);
    const closed = await data<GatewayBroadcast>(send(gatewayEndpoints.broadcast, { query: { id: gw.id, durationS: 0 } }));
    expect(closed).toEqual({ id: gw.id, durationS: 0, openUntil: null });
  });

  it('broadcast defaults to 60 s and refuses a duration out of range without sending anything', async () => {
    expect((await data<GatewayBroadcast>(send(gatewayEndpoints.broadcast, { query: { id: gw.id } }))).durationS).toBe(60);
    let seen = 0;
    const count = () => (seen += 1);
    sim().on('command', count);
    expectError(await send(gatewayEndpoints.broadcast, { query: { id: gw.id, durationS: 255 } }), 100001);
    expectError(await send(gatewayEndpoints.broadcast, { query: { id: gw.id, durationS: -1 } }), 100001);
    expectError(await send(gatewayEndpoints.broadcast, refusedInput({ query: { id: gw.id, durationS: 'abc' } })), 100001);
    expectError(await send(gatewayEndpoints.broadcast, refusedInput({})), 100001);
    sim().off('command', count);
    expect(seen).toBe(0);
  });

  it('switches the sensors to default linkage and back to self-operation, and stores the mode', async () => {
    const linked = await data<GatewaySensorMode>(send(gatewayEndpoints.sensorsLinkage, { params: { id: gw.id } }));
    // One motion and one daylight sensor per simulated gateway.
    expect(linked).toEqual({ id: gw.id, mode: 'linkage', count: 2 });
    expect(sim().params.sensorMode).toBe('linkage');
    expect((await data<Gateway>(send(gatewayEndpoints.detail, { params: { id: gw.id } }))).settings.sensorMode).toBe('linkage');

    const alone = await data<GatewaySensorMode>(send(gatewayEndpoints.sensorsIndependent, { params: { id: gw.id } }));
    expect(alone).toEqual({ id: gw.id, mode: 'independent', count: 2 });
    expect(sim().params.sensorMode).toBe('independent');
    expect((await data<Gateway>(send(gatewayEndpoints.detail, { params: { id: gw.id } }))).settings.sensorMode).toBe('independent');
  });

  it('writes microwave sensor parameters, converting brightness to the device scale', async () => {
    const set = await data<GatewayMicrowaveResult>(
      send(gatewayEndpoints.setMicrowaveParams, { body: { id: gw.id, holdTime: 120, lux: 300, brightness: 80, standbyBrightness: 10 } }),
    );
    expect(set).toEqual({ id: gw.id, count: 1, holdTime: 120, lux: 300, brightness: 80, standbyBrightness: 10 });
    expect(sim().microwave).toEqual({ holdS: 120, luxAbove: 300, level: 203, standbyLevel: 25 });
    // Only what is given changes; the reply has every value now in force.
    const partial = await data<GatewayMicrowaveResult>(send(gatewayEndpoints.setMicrowaveParams, { body: { id: gw.id, holdTime: 30 } }));
    expect(partial).toMatchObject({ holdTime: 30, lux: 300, brightness: 80, standbyBrightness: 10 });
  });

  it('refuses bad microwave parameters with each field\u2019s message and sends nothing', async () => {
    const before = { ...sim().microwave };
    let seen = 0;
    const count = () => (seen += 1);
    sim().on('command', count);
    const cases: Array<[Record<string, unknown>, ErrorCode]> = [
      [{ holdTime: 125 }, 100221],
      [{ holdTime: 0 }, 100221],
      [{ holdTime: 2550 }, 100221],
      [{ lux: 4001 }, 100227],
      [{ brightness: 101 }, 100220],
      [{ standbyBrightness: 31 }, 100232],
      [{ brightness: 50.5 }, 100246],
      [{}, 100001],
      [{ holdTime: 'long' }, 100001],
    ];
    for (const [body, code] of cases) expectError(await send(gatewayEndpoints.setMicrowaveParams, { body: { id: gw.id, ...body } }), code);
    sim().off('command', count);
    expect(seen).toBe(0);
    expect(sim().microwave).toEqual(before);
  });

  it('answers 100101 at once for an offline gateway and 100104 when the gateway stays silent', async () => {
    const quiet = rig().fleet.gateways[1]!;
    const list = await data(send(gatewayEndpoints.list, { query: { name: 'Quiet' } }));
    const quietId = list.list[0]!.id;
    quiet.faults.noReply = new Set(['sensors.mode', 'sensors.microwave', 'devices.permitJoin']);
    expectError(await send(gatewayEndpoints.sensorsIndependent, { params: { id: quietId } }), 100104);
    expectError(await send(gatewayEndpoints.setMicrowaveParams, { body: { id: quietId, holdTime: 60 } }), 100104);
    expectError(await send(gatewayEndpoints.broadcast, { query: { id: quietId } }), 100104);
    quiet.faults.noReply = false;
    // A silent gateway's mode is not stored: the cloud shows only what a gateway confirmed.
    expect((await data<Gateway>(send(gatewayEndpoints.detail, { params: { id: quietId } }))).settings.sensorMode).toBe(null);
    await quiet.goOffline();
    await poll(() => h().app.gatewayLink!.presence.isOnline(quiet.mac) === false, 'quiet offline');
    expectError(await send(gatewayEndpoints.sensorsLinkage, { params: { id: quietId } }), 100101);
    expectError(await send(gatewayEndpoints.setMicrowaveParams, { body: { id: quietId, lux: 10 } }), 100101);
    expectError(await send(gatewayEndpoints.broadcast, { query: { id: quietId, durationS: 10 } }), 100101);
    await quiet.goOnline();
  });
});
