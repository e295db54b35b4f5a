import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, call, expectError, signUpByMail } from '../../test/harness.ts';
import { bind, data, defaultMapId, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';

const D = '/api4/device/v1';
/** The first account's device name: it may appear in no answer to the second account. */
const SECRET = 'Secret lamp';

type Ids = { map: string; device: string; gateway: string };
type Case = { route: string; method: 'GET' | 'POST' | 'PUT'; url: (a: Ids, b: Ids) => string; body?: (a: Ids, b: Ids) => unknown };
const at = (id: string) => [{ id, x: 0.5, y: 0.5 }];

/**
 * Every device route of this slice, called by a second account with the first account's ids (`a`) and, where
 * a call takes a map and a device, its own (`b`) for the other. `route` is the OpenAPI path, so the table covers all.
 */
const CASES: Case[] = [
  { route: `${D}/state`, method: 'GET', url: (a) => `${D}/state?mapId=${a.map}` },
  { route: `${D}/details/{mapId}/{id}`, method: 'GET', url: (a) => `${D}/details/${a.map}/${a.device}` },
  { route: `${D}/details/{mapId}/{id}`, method: 'GET', url: (a, b) => `${D}/details/${b.map}/${a.device}` },
  { route: `${D}/details/{mapId}/{id}`, method: 'GET', url: (a, b) => `${D}/details/${a.map}/${b.device}` },
  { route: `${D}/update_name`, method: 'POST', url: () => `${D}/update_name`, body: (a) => ({ id: a.device, name: 'Taken over' }) },
  { route: `${D}/move_in`, method: 'POST', url: () => `${D}/move_in`, body: (a, b) => ({ mapId: b.map, devices: at(a.device) }) },
  { route: `${D}/move_in`, method: 'POST', url: () => `${D}/move_in`, body: (a, b) => ({ mapId: a.map, devices: at(b.device) }) },
  { route: `${D}/move`, method: 'PUT', url: () => `${D}/move`, body: (a, b) => ({ mapId: b.map, devices: at(a.device) }) },
  { route: `${D}/move`, method: 'PUT', url: () => `${D}/move`, body: (a) => ({ mapId: a.map, devices: at(a.device) }) },
  { route: `${D}/move_out`, method: 'POST', url: () => `${D}/move_out`, body: (a, b) => ({ ids: [b.device, a.device] }) },
  { route: `${D}/try_me`, method: 'POST', url: () => `${D}/try_me`, body: (a) => ({ id: a.device }) },
  { route: `${D}/control`, method: 'POST', url: () => `${D}/control`, body: (a) => ({ id: a.device, action: { op: 'onOff', on: true } }) },
  { route: `${D}/list`, method: 'POST', url: () => `${D}/list`, body: (a) => ({ mapId: a.map }) },
  { route: `${D}/list`, method: 'POST', url: () => `${D}/list`, body: (a) => ({ gatewayId: a.gateway }) },
  { route: `${D}/read_params`, method: 'POST', url: () => `${D}/read_params`, body: (a) => ({ id: a.device }) },
  { route: `${D}/get_daylight_params`, method: 'POST', url: () => `${D}/get_daylight_params`, body: (a) => ({ id: a.device }) },
  {
    route: `${D}/set_device_params`,
    method: 'POST',
    url: () => `${D}/set_device_params`,
    body: (a) => ({ id: a.device, params: { reportInterval: 60 } }),
  },
  {
    route: `${D}/set_motion_params`,
    method: 'POST',
    url: () => `${D}/set_motion_params`,
    body: (a) => ({ id: a.device, params: { holdTime: 60 } }),
  },
  {
    route: `${D}/set_daylight_params`,
    method: 'POST',
    url: () => `${D}/set_daylight_params`,
    body: (a) => ({ id: a.device, params: { lux: 60 } }),
  },
  {
    route: `${D}/set_stairs_mode`,
    method: 'POST',
    url: () => `${D}/set_stairs_mode`,
    body: (a) => ({ id: a.device, params: { stairsMode: true } }),
  },
  {
    route: `${D}/control_sensor_onoff`,
    method: 'POST',
    url: () => `${D}/control_sensor_onoff`,
    body: (a) => ({ id: a.device, on: false }),
  },
  {
    route: `${D}/broad_control`,
    method: 'POST',
    url: () => `${D}/broad_control`,
    body: (a) => ({ gatewayId: a.gateway, action: { op: 'onOff', on: true } }),
  },
  { route: `${D}/delete`, method: 'POST', url: () => `${D}/delete`, body: (a) => ({ ids: [a.device], fromGateway: true }) },
  {
    route: `${D}/delete`,
    method: 'POST',
    url: () => `${D}/delete`,
    body: (a, b) => ({ ids: [b.device, a.device], fromGateway: false, force: true }),
  },
  {
    route: `${D}/del_device_succeed/{gatewayId}/{id}`,
    method: 'POST',
    url: (a) => `${D}/del_device_succeed/${a.gateway}/${a.device}`,
    body: () => ({}),
  },
  {
    route: `${D}/del_device_succeed/{gatewayId}/{id}`,
    method: 'POST',
    url: (a, b) => `${D}/del_device_succeed/${b.gateway}/${a.device}`,
    body: () => ({}),
  },
  {
    route: `${D}/batch_alter_devices`,
    method: 'POST',
    url: () => `${D}/batch_alter_devices`,
    body: (a, b) => ({ ids: [b.device, a.device], type: 2 }),
  },
  { route: `${D}/update_device_nwk`, method: 'POST', url: () => `${D}/update_device_nwk`, body: (a) => ({ id: a.device }) },
  { route: `${D}/input_status/{id}`, method: 'GET', url: (a) => `${D}/input_status/${a.device}` },
  { route: `${D}/get_all_temperature/{mapId}/{gatewayId}`, method: 'GET', url: (a) => `${D}/get_all_temperature/${a.map}/0` },
  { route: `${D}/get_all_temperature/{mapId}/{gatewayId}`, method: 'GET', url: (a, b) => `${D}/get_all_temperature/${b.map}/${a.gateway}` },
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  { route: `${D}/details/{mapId}/{id}`, method: 'GET', url: (a) => `${D}/details/${a.map}/987654321` },
  { route: `${D}/state`, method: 'GET', url: () => `${D}/state?mapId=9999999999999999999` },
];

describe.each(DATABASES)('tenancy of the device calls on %s', (kind) => {
  let rig: GatewayRig;
  let tokenA: string;
  let tokenB: string;
  let a: Ids;
  let b: Ids;
  let commandsSeen = 0;
  const h = () => rig.h;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 2 });
    tokenA = await signUpByMail(h(), 'owner@example.com');
    tokenB = await signUpByMail(h(), 'intruder@example.com');
    const place = async (token: string, mac: string, map: string, name?: string): Promise<Ids> => {
      const gw = await bind(h(), token, mac, map);
      await data(call(h().app, 'GET', `/api4/gateway/v1/import/${(gw as Gateway).id}`, { token }));
      const [device] = await data<GatewayDevice[]>(
        call(h().app, 'GET', `/api4/gateway/v1/devices/outmap/${map}/${(gw as Gateway).id}`, { token }),
      );
      await data(call(h().app, 'POST', `${D}/move_in`, { token, body: { mapId: map, devices: at(device!.id) } }));
      if (name) await data(call(h().app, 'POST', `${D}/update_name`, { token, body: { id: device!.id, name } }));
      return { map, device: device!.id, gateway: (gw as Gateway).id };
    };
    const [first, second] = rig.fleet.gateways;
    a = await place(tokenA, first!.mac, (await treeFactory(h(), tokenA).map({ name: 'Secret floor' })).id, SECRET);
    b = await place(tokenB, second!.mac, await defaultMapId(h(), tokenB));
    first!.on('command', (c: { name: string }) => c.name.startsWith('device.') && (commandsSeen += 1));
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('covers every device route in its table', async () => {
    const doc = (await h().app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    const routes = Object.keys(doc.paths).filter((p) => p.startsWith(`${D}/`));
    const covered = new Set(CASES.map((c) => c.route));
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(7);
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

  it('lists only the caller\u2019s own devices', async () => {
    const page = await data<{ total: number; list: Array<{ id: string; name: string }> }>(
      call(h().app, 'POST', `${D}/list`, { token: tokenB, body: { pageSize: 200 } }),
    );
    expect(page.list.map((d) => d.id)).not.toContain(a.device);
    expect(JSON.stringify(page)).not.toContain(SECRET);
    expect(page.total).toBeGreaterThan(0);
  });

  it('left the first account\u2019s device where it was and sent its gateway nothing', async () => {
    const device = await data(call(h().app, 'GET', `${D}/details/${a.map}/${a.device}`, { token: tokenA }));
    expect(device).toMatchObject({ name: SECRET, mapId: a.map, x: 0.5, y: 0.5 });
    expect(commandsSeen).toBe(0);
  });
});
