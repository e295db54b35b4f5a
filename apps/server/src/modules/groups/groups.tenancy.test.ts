import type { Gateway, GatewayDevice, GroupView } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, call, expectError, signUpByMail } from '../../test/harness.ts';
import { bind, data, defaultMapId, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';

const Z = '/api4/zone/v1';
const D = '/api4/device/v1';
/** The first account's group name: it may appear in no answer to the second account. */
const SECRET = 'Secret zone';

type Ids = { map: string; gateway: string; device: string; group: string };
type Case = { route: string; method: 'GET' | 'POST'; url: (a: Ids, b: Ids) => string; body?: (a: Ids, b: Ids) => unknown };

/**
 * Every zone route, called by a second account with the first account's ids (`a`) and, where a call takes
 * several ids, its own (`b`) for the others. `route` is the OpenAPI path, so the table covers every route.
 */
const CASES: Case[] = [
  { route: `${Z}/list/{id}`, method: 'POST', url: (a) => `${Z}/list/${a.map}` },
  { route: `${Z}/groups_for_gateway_id/{id}`, method: 'POST', url: (a) => `${Z}/groups_for_gateway_id/${a.gateway}` },
  { route: `${Z}/get/{id}`, method: 'POST', url: (a) => `${Z}/get/${a.group}` },
  {
    route: `${Z}/add`,
    method: 'POST',
    url: () => `${Z}/add`,
    body: (a, b) => ({ mapId: a.map, gatewayId: b.gateway, name: 'Taken', deviceIds: [b.device] }),
  },
  {
    route: `${Z}/add`,
    method: 'POST',
    url: () => `${Z}/add`,
    body: (a, b) => ({ mapId: b.map, gatewayId: a.gateway, name: 'Taken', deviceIds: [b.device] }),
  },
  {
    route: `${Z}/add`,
    method: 'POST',
    url: () => `${Z}/add`,
    body: (a, b) => ({ mapId: b.map, gatewayId: b.gateway, name: 'Taken', deviceIds: [a.device] }),
  },
  { route: `${Z}/update`, method: 'POST', url: () => `${Z}/update`, body: (a) => ({ id: a.group, name: 'Taken over' }) },
  { route: `${Z}/update`, method: 'POST', url: () => `${Z}/update`, body: (a, b) => ({ id: b.group, deviceIds: [a.device] }) },
  { route: `${Z}/succeed_device`, method: 'POST', url: () => `${Z}/succeed_device`, body: (a) => ({ id: a.group, remove: [a.device] }) },
  { route: `${Z}/succeed_device`, method: 'POST', url: () => `${Z}/succeed_device`, body: (a, b) => ({ id: b.group, add: [a.device] }) },
  { route: `${Z}/delete/{id}`, method: 'POST', url: (a) => `${Z}/delete/${a.group}` },
  { route: `${Z}/del_group_succeed/{id}`, method: 'POST', url: (a) => `${Z}/del_group_succeed/${a.group}` },
  {
    route: `${Z}/add_group_devices/{mapId}/{gatewayId}/{groupId}/{type}`,
    method: 'GET',
    url: (a) => `${Z}/add_group_devices/${a.map}/${a.gateway}/0/0`,
  },
  {
    route: `${Z}/add_group_devices/{mapId}/{gatewayId}/{groupId}/{type}`,
    method: 'GET',
    url: (a, b) => `${Z}/add_group_devices/${b.map}/${b.gateway}/${a.group}/0`,
  },
  { route: `${Z}/control`, method: 'POST', url: () => `${Z}/control`, body: (a) => ({ id: a.group, action: { op: 'onOff', on: false } }) },
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  { route: `${Z}/get/{id}`, method: 'POST', url: () => `${Z}/get/987654321` },
  { route: `${Z}/list/{id}`, method: 'POST', url: () => `${Z}/list/9999999999999999999` },
];

describe.each(DATABASES)('tenancy of the zone calls on %s', (kind) => {
  let rig: GatewayRig;
  let tokenA: string;
  let tokenB: string;
  let a: Ids;
  let b: Ids;
  let commandsSeen = 0;
  const h = () => rig.h;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 2 });
    tokenA = await signUpByMail(h(), 'zone-owner@example.com');
    tokenB = await signUpByMail(h(), 'zone-intruder@example.com');
    const place = async (token: string, mac: string, name: string): Promise<Ids> => {
      const map = await defaultMapId(h(), token);
      const gw = (await bind(h(), token, mac, map)) as Gateway;
      await data(call(h().app, 'GET', `/api4/gateway/v1/import/${gw.id}`, { token }));
      const list = await data<GatewayDevice[]>(call(h().app, 'GET', `/api4/gateway/v1/devices/outmap/${map}/${gw.id}`, { token }));
      const light = list.find((d) => d.kind === 'light-cct')!;
      await data(call(h().app, 'POST', `${D}/move_in`, { token, body: { mapId: map, devices: [{ id: light.id, x: 0.5, y: 0.5 }] } }));
      const group = await data<GroupView>(
        call(h().app, 'POST', `${Z}/add`, { token, body: { mapId: map, gatewayId: gw.id, name, deviceIds: [light.id] } }),
      );
      return { map, gateway: gw.id, device: light.id, group: group.id };
    };
    const [first, second] = rig.fleet.gateways;
    a = await place(tokenA, first!.mac, SECRET);
    b = await place(tokenB, second!.mac, 'Own zone');
    first!.on('command', (c: { name: string }) => (c.name.startsWith('group.') || c.name.startsWith('device')) && (commandsSeen += 1));
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('covers every zone route in its table', async () => {
    const doc = (await h().app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    const routes = Object.keys(doc.paths).filter((p) => p.startsWith(`${Z}/`));
    const covered = new Set(CASES.map((c) => c.route));
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
    expect(routes.length).toBe(10);
  });

  it.each(CASES.map((c, i) => [`${i + 1}. ${c.method} ${c.route}`, c] as const))(
    'refuses %s with the first account\u2019s ids',
    async (_name, c) => {
      const res = await call(h().app, c.method, c.url(a, b), { token: tokenB, body: c.body?.(a, b) });
      expectError(res, 110011);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    },
  );

  it.each(CASES.map((c, i) => [`${i + 1}. ${c.method} ${c.route}`, c] as const))('refuses %s without a token', async (_name, c) => {
    expectError(await call(h().app, c.method, c.url(a, b), { body: c.body?.(a, b) }), 250004);
  });

  it('left the first account\u2019s group as it was and sent its gateway nothing', async () => {
    const group = await data<GroupView>(call(h().app, 'POST', `${Z}/get/${a.group}`, { token: tokenA }));
    expect(group).toMatchObject({ name: SECRET, deviceIds: [a.device] });
    expect(commandsSeen).toBe(0);
    const own = await data<GroupView>(call(h().app, 'POST', `${Z}/get/${b.group}`, { token: tokenB }));
    expect(own.deviceIds).toEqual([b.device]);
  });
});
