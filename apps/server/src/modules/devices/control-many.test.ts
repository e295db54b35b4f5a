import { OPERATE_AUTH, deviceEndpoints, gatewayEndpoints, type ControlManyResult, type GatewayDevice } from '@lumigrid/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_DATABASES, expectError, signUpByMail } from '../../test/harness.ts';
import { bind, data, defaultMapId, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { subAccount } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';

describe.each(SERVICE_DATABASES)('controlling a selection from the floor plan on %s', (kind) => {
  const devices: GatewayDevice[][] = [];
  const gatewayIds: string[] = [];
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 2, commandTimeoutMs: 800 }, 'selection@example.com');
  const simDevice = (i: number, d: GatewayDevice) => sim(i).devices.get(d.addr.toUpperCase());
  const ofKind = (i: number, k: string) => devices[i]!.find((d) => d.kind === k)!;
  const controlMany = (
    ids: string[],
    action: { op: 'onOff'; on: boolean } | { op: 'brightness'; percent: number } | { op: 'curtain'; command: 'open' },
    token?: string,
  ) => send(deviceEndpoints.controlMany, { body: { ids, action } }, token);

  beforeAll(async () => {
    const mapId = await defaultMapId(h(), token());
    for (const i of [0, 1]) {
      const gw = await bind(h(), token(), sim(i).mac, mapId, `Gateway ${i + 1}`);
      gatewayIds.push(gw.id);
      await data(send(gatewayEndpoints.importDevices, { params: { id: gw.id } }));
      devices.push(await data<GatewayDevice[]>(send(gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gw.id } })));
    }
  }, 60_000);

  it('sends one command to each gateway with its own selected lights that can take the action', async () => {
    const selection = [ofKind(0, 'light-single'), ofKind(0, 'light-dimmer'), ofKind(0, 'sensor-motion'), ofKind(1, 'light-cct')];
    const result = await data<ControlManyResult>(
      controlMany(
        selection.map((d) => d.id),
        { op: 'onOff', on: true },
      ),
    );
    expect(result.gateways.sort((a, b) => a.gatewayName.localeCompare(b.gatewayName))).toEqual([
      // A motion sensor's on/off is its sensing, not a light's: it is left out.
      { gatewayId: gatewayIds[0], gatewayName: 'Gateway 1', targets: 2, queued: 2, code: 0 },
      { gatewayId: gatewayIds[1], gatewayName: 'Gateway 2', targets: 1, queued: 1, code: 0 },
    ]);
    await poll(
      () =>
        [simDevice(0, ofKind(0, 'light-single')), simDevice(0, ofKind(0, 'light-dimmer')), simDevice(1, ofKind(1, 'light-cct'))].every(
          (d) => d?.state.on === true,
        ),
      'the selected lights on both gateways switched on',
    );
    expect(simDevice(1, ofKind(1, 'light-single'))?.state.on).not.toBe(true);
  });

  it('reports an offline gateway in its own row and still sends to the others', async () => {
    await sim(1).goOffline();
    await poll(() => h().app.gatewayLink!.presence.isOnline(sim(1).mac) === false, 'gateway 2 offline');
    try {
      const result = await data<ControlManyResult>(
        controlMany([ofKind(0, 'light-dimmer').id, ofKind(1, 'light-dimmer').id], { op: 'brightness', percent: 40 }),
      );
      const byName = Object.fromEntries(result.gateways.map((g) => [g.gatewayName, g]));
      expect(byName['Gateway 1']).toMatchObject({ targets: 1, queued: 1, code: 0 });
      expect(byName['Gateway 2']).toMatchObject({ targets: 1, queued: 0, code: 100101 });
    } finally {
      await sim(1).goOnline();
    }
  });

  it('refuses an action none of them can take, a foreign id and a view-only caller, and changes nothing', async () => {
    const sensor = ofKind(0, 'sensor-motion');
    expectError(await controlMany([sensor.id], { op: 'onOff', on: true }), 100209);
    expectError(await controlMany([ofKind(0, 'light-single').id], { op: 'curtain', command: 'open' }), 100209);
    const stranger = await signUpByMail(h(), 'stranger@example.com');
    expectError(await controlMany([ofKind(0, 'light-single').id], { op: 'onOff', on: false }, stranger), 110011);
    const viewer = await subAccount(h(), 'selection@example.com', OPERATE_AUTH.viewOnly);
    expectError(await controlMany([ofKind(0, 'light-single').id], { op: 'onOff', on: false }, viewer), 110003);
    expect(simDevice(0, ofKind(0, 'light-single'))?.state.on).toBe(true);
  });
});
