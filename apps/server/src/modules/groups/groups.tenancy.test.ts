import { groupEndpoints, type GroupView } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, api } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, twoGatewayTenancyWorld } from '../../test/gateways.fixtures.ts';

/** The first account's group name: it may appear in no answer to the second account. */
const SECRET = 'Secret zone';

type Ids = { map: string; gateway: string; device: string; group: string };

/**
 * Every zone route, called by a second account with the first account's ids (`a`) and, where a call takes
 * several ids, its own (`b`) for the others. Each case names its endpoint, so the matrix proves every endpoint of the domain has one.
 */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(groupEndpoints.list, (a) => ({ params: { id: a.map } })),
  tenancyCase(groupEndpoints.forGateway, (a) => ({ params: { id: a.gateway } })),
  tenancyCase(groupEndpoints.get, (a) => ({ params: { id: a.group } })),
  tenancyCase(groupEndpoints.add, (a, b) => ({ body: { mapId: a.map, gatewayId: b.gateway, name: 'Taken', deviceIds: [b.device] } })),
  tenancyCase(groupEndpoints.add, (a, b) => ({ body: { mapId: b.map, gatewayId: a.gateway, name: 'Taken', deviceIds: [b.device] } })),
  tenancyCase(groupEndpoints.add, (a, b) => ({ body: { mapId: b.map, gatewayId: b.gateway, name: 'Taken', deviceIds: [a.device] } })),
  tenancyCase(groupEndpoints.update, (a) => ({ body: { id: a.group, name: 'Taken over' } })),
  tenancyCase(groupEndpoints.update, (a, b) => ({ body: { id: b.group, deviceIds: [a.device] } })),
  tenancyCase(groupEndpoints.changeMembers, (a) => ({ body: { id: a.group, remove: [a.device] } })),
  tenancyCase(groupEndpoints.changeMembers, (a, b) => ({ body: { id: b.group, add: [a.device] } })),
  tenancyCase(groupEndpoints.remove, (a) => ({ params: { id: a.group } })),
  tenancyCase(groupEndpoints.removeAndSync, (a) => ({ params: { id: a.group } })),
  tenancyCase(groupEndpoints.candidates, (a) => ({ params: { mapId: a.map, gatewayId: a.gateway, groupId: '0', type: 0 } })),
  tenancyCase(groupEndpoints.candidates, (a, b) => ({ params: { mapId: b.map, gatewayId: b.gateway, groupId: a.group, type: 0 } })),
  tenancyCase(groupEndpoints.control, (a) => ({ body: { id: a.group, action: { op: 'onOff' as const, on: false } } })),
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  tenancyCase(groupEndpoints.get, () => ({ params: { id: '987654321' } })),
  tenancyCase(groupEndpoints.list, () => ({ params: { id: '9999999999999999999' } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the zone calls on %s', (kind) => {
  const { world, commandsSeen } = twoGatewayTenancyWorld(kind, {
    accounts: { victim: 'zone-owner@example.com', intruder: 'zone-intruder@example.com' },
    countCommands: (c) => c.name.startsWith('group.') || c.name.startsWith('device'),
    build: async (rig, { token, sim, victim }): Promise<Ids> => {
      const {
        gateway: gw,
        mapId: map,
        placed,
      } = await buildGatewayWithDevices(rig.h, token, { mac: sim.mac, place: (d) => d.kind === 'light-cct' });
      const light = placed[0]!;
      const name = victim ? SECRET : 'Own zone';
      const group = await data<GroupView>(
        api(rig.h.app, groupEndpoints.add, { body: { mapId: map, gatewayId: gw.id, name, deviceIds: [light.id] } }, { token }),
      );
      return { map, gateway: gw.id, device: light.id, group: group.id };
    },
  });

  tenancyMatrix({ domain: groupEndpoints, cases: CASES, secrets: [SECRET], world });

  it('left the first account\u2019s group as it was and sent its gateway nothing', async () => {
    const { app, victim, intruder, a, b } = world();
    const group = await data<GroupView>(api(app, groupEndpoints.get, { params: { id: a.group } }, { token: victim }));
    expect(group).toMatchObject({ name: SECRET, deviceIds: [a.device] });
    expect(commandsSeen()).toBe(0);
    const own = await data<GroupView>(api(app, groupEndpoints.get, { params: { id: b.group } }, { token: intruder }));
    expect(own.deviceIds).toEqual([b.device]);
  });
});
