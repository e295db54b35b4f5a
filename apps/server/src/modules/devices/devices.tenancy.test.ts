import { deviceEndpoints } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, api } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, defaultMapId, twoGatewayTenancyWorld } from '../../test/gateways.fixtures.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';

/** The first account's device name: it may appear in no answer to the second account. */
const SECRET = 'Secret lamp';

type Ids = { map: string; device: string; gateway: string };
const at = (id: string) => [{ id, x: 0.5, y: 0.5 }];

/**
 * Every device route of this slice, called by a second account with the first account's ids (`a`) and, where
 * a call takes a map and a device, its own (`b`) for the other. Each case names its endpoint, so the matrix proves every endpoint of the domain has one.
 */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(deviceEndpoints.markers, (a) => ({ query: { mapId: a.map } })),
  tenancyCase(deviceEndpoints.detail, (a) => ({ params: { mapId: a.map, id: a.device } })),
  tenancyCase(deviceEndpoints.detail, (a, b) => ({ params: { mapId: b.map, id: a.device } })),
  tenancyCase(deviceEndpoints.detail, (a, b) => ({ params: { mapId: a.map, id: b.device } })),
  tenancyCase(deviceEndpoints.rename, (a) => ({ body: { id: a.device, name: 'Taken over' } })),
  tenancyCase(deviceEndpoints.moveIn, (a, b) => ({ body: { mapId: b.map, devices: at(a.device) } })),
  tenancyCase(deviceEndpoints.moveIn, (a, b) => ({ body: { mapId: a.map, devices: at(b.device) } })),
  tenancyCase(deviceEndpoints.positions, (a, b) => ({ body: { mapId: b.map, devices: at(a.device) } })),
  tenancyCase(deviceEndpoints.positions, (a) => ({ body: { mapId: a.map, devices: at(a.device) } })),
  tenancyCase(deviceEndpoints.moveOut, (a, b) => ({ body: { ids: [b.device, a.device] } })),
  tenancyCase(deviceEndpoints.identify, (a) => ({ body: { id: a.device } })),
  tenancyCase(deviceEndpoints.control, (a) => ({ body: { id: a.device, action: { op: 'onOff' as const, on: true } } })),
  tenancyCase(deviceEndpoints.list, (a) => ({ body: { mapId: a.map } })),
  tenancyCase(deviceEndpoints.list, (a) => ({ body: { gatewayId: a.gateway } })),
  tenancyCase(deviceEndpoints.readParams, (a) => ({ body: { id: a.device } })),
  tenancyCase(deviceEndpoints.panelLockAccounts, (a) => ({ body: { id: a.device } })),
  tenancyCase(deviceEndpoints.readDaylightParams, (a) => ({ body: { id: a.device } })),
  tenancyCase(deviceEndpoints.setParams, (a) => ({ body: { id: a.device, params: { reportInterval: 60 } } })),
  tenancyCase(deviceEndpoints.setMotionParams, (a) => ({ body: { id: a.device, params: { holdTime: 60 } } })),
  tenancyCase(deviceEndpoints.setDaylightParams, (a) => ({ body: { id: a.device, params: { lux: 60 } } })),
  tenancyCase(deviceEndpoints.setStairsMode, (a) => ({ body: { id: a.device, params: { stairsMode: true } } })),
  tenancyCase(deviceEndpoints.sensorOnOff, (a) => ({ body: { id: a.device, on: false } })),
  tenancyCase(deviceEndpoints.broadControl, (a) => ({ body: { gatewayId: a.gateway, action: { op: 'onOff' as const, on: true } } })),
  tenancyCase(deviceEndpoints.controlMany, (a) => ({ body: { ids: [a.device], action: { op: 'onOff' as const, on: true } } })),
  tenancyCase(deviceEndpoints.controlMany, (a, b) => ({ body: { ids: [b.device, a.device], action: { op: 'onOff' as const, on: true } } })),
  tenancyCase(deviceEndpoints.remove, (a) => ({ body: { ids: [a.device], fromGateway: true } })),
  tenancyCase(deviceEndpoints.remove, (a, b) => ({ body: { ids: [b.device, a.device], fromGateway: false, force: true } })),
  tenancyCase(deviceEndpoints.removeConfirmed, (a) => ({ params: { gatewayId: a.gateway, id: a.device }, body: {} })),
  tenancyCase(deviceEndpoints.removeConfirmed, (a, b) => ({ params: { gatewayId: b.gateway, id: a.device }, body: {} })),
  tenancyCase(deviceEndpoints.batchType, (a, b) => ({ body: { ids: [b.device, a.device], type: 2 } })),
  tenancyCase(deviceEndpoints.refreshNetwork, (a) => ({ body: { id: a.device } })),
  tenancyCase(deviceEndpoints.inputStatus, (a) => ({ params: { id: a.device } })),
  tenancyCase(deviceEndpoints.temperatures, (a) => ({ params: { mapId: a.map, gatewayId: '0' } })),
  tenancyCase(deviceEndpoints.temperatures, (a, b) => ({ params: { mapId: b.map, gatewayId: a.gateway } })),
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  tenancyCase(deviceEndpoints.detail, (a) => ({ params: { mapId: a.map, id: '987654321' } })),
  tenancyCase(deviceEndpoints.markers, () => ({ query: { mapId: '9999999999999999999' } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the device calls on %s', (kind) => {
  const { world, commandsSeen } = twoGatewayTenancyWorld(kind, {
    accounts: { victim: 'owner@example.com', intruder: 'intruder@example.com' },
    countCommands: (c) => c.name.startsWith('device.'),
    build: async (rig, { token, sim, victim }): Promise<Ids> => {
      // The first account's device stands on a map of its own under a secret name; the second's on its default map.
      const map = victim ? (await treeFactory(rig.h, token).map({ name: 'Secret floor' })).id : await defaultMapId(rig.h, token);
      const { gateway, placed } = await buildGatewayWithDevices(rig.h, token, {
        mac: sim.mac,
        mapId: map,
        place: (d) => d.kind === 'light-cct',
      });
      const device = placed[0]!;
      if (victim) await data(api(rig.h.app, deviceEndpoints.rename, { body: { id: device.id, name: SECRET } }, { token }));
      return { map, device: device.id, gateway: gateway.id };
    },
  });

  tenancyMatrix({ domain: deviceEndpoints, cases: CASES, secrets: [SECRET], world });

  it('lists only the caller\u2019s own devices', async () => {
    const { app, intruder, a } = world();
    const page = await data<{ total: number; list: Array<{ id: string; name: string }> }>(
      api(app, deviceEndpoints.list, { body: { pageSize: 200 } }, { token: intruder }),
    );
    expect(page.list.map((d) => d.id)).not.toContain(a.device);
    expect(JSON.stringify(page)).not.toContain(SECRET);
    expect(page.total).toBeGreaterThan(0);
  });

  it('left the first account\u2019s device where it was and sent its gateway nothing', async () => {
    const { app, victim, a } = world();
    const device = await data(api(app, deviceEndpoints.detail, { params: { mapId: a.map, id: a.device } }, { token: victim }));
    expect(device).toMatchObject({ name: SECRET, mapId: a.map, x: 0.0625, y: 0.0625 });
    expect(commandsSeen()).toBe(0);
  });
});
