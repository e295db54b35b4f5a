import type { Gateway, GatewayDevice, SuperGatewayDevices } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, call, expectError, signUpByMail } from '../../test/harness.ts';
import { OPERATE_AUTH, subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { bind, data, defaultMapId, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';

const G = '/api4/gateway/v1';
/** Names of the first account's gateways: none may appear in an answer to the second account. */
const SECRET = ['Secret gateway', 'Secret super gateway'];

type Ids = { map: string; project?: string; gw: Gateway; superGw?: Gateway; bridge?: string; device?: string };
type Case = { route: string; method: 'GET' | 'POST'; url: (a: Ids, b: Ids) => string; body?: (a: Ids, b: Ids) => unknown };

/**
 * Every gateway route, called by a second account with the first account's ids (`a`) and, where
 * a call takes two ids, its own (`b`) for the other. `route` is the OpenAPI path, so the table covers all.
 */
const CASES: Case[] = [
  { route: `${G}/gateways`, method: 'GET', url: (a) => `${G}/gateways?mapId=${a.map}` },
  { route: `${G}/gateways`, method: 'GET', url: (a) => `${G}/gateways?projectId=${a.project}` },
  { route: `${G}/gateways`, method: 'GET', url: (a) => `${G}/gateways?buildId=${a.gw.buildId}` },
  { route: `${G}/detail/{id}`, method: 'GET', url: (a) => `${G}/detail/${a.gw.id}` },
  { route: `${G}/move`, method: 'POST', url: () => `${G}/move`, body: (a, b) => ({ mac: a.gw.mac, mapId: b.map }) },
  { route: `${G}/move`, method: 'POST', url: () => `${G}/move`, body: (a, b) => ({ mac: b.gw.mac, mapId: a.map }) },
  { route: `${G}/update_name`, method: 'POST', url: () => `${G}/update_name`, body: (a) => ({ id: a.gw.id, name: 'Taken over' }) },
  { route: `${G}/change_place`, method: 'POST', url: () => `${G}/change_place`, body: (a, b) => ({ id: a.gw.id, mapId: b.map }) },
  { route: `${G}/change_place`, method: 'POST', url: () => `${G}/change_place`, body: (a, b) => ({ id: b.gw.id, mapId: a.map }) },
  { route: `${G}/set_params`, method: 'POST', url: () => `${G}/set_params`, body: (a) => ({ id: a.gw.id, reportIntervalS: 900 }) },
  { route: `${G}/set_lon_lat`, method: 'POST', url: () => `${G}/set_lon_lat`, body: (a) => ({ id: a.gw.id, longitude: 1, latitude: 1 }) },
  { route: `${G}/tryme/{id}`, method: 'GET', url: (a) => `${G}/tryme/${a.gw.id}` },
  { route: `${G}/broadcast`, method: 'GET', url: (a) => `${G}/broadcast?id=${a.gw.id}&durationS=30` },
  { route: `${G}/sensor_self_oper/{id}`, method: 'GET', url: (a) => `${G}/sensor_self_oper/${a.gw.id}` },
  { route: `${G}/sensor_sync_model/{id}`, method: 'GET', url: (a) => `${G}/sensor_sync_model/${a.gw.id}` },
  { route: `${G}/set_mawa_params`, method: 'POST', url: () => `${G}/set_mawa_params`, body: (a) => ({ id: a.gw.id, holdTime: 60 }) },
  { route: `${G}/restart_gateway/{id}`, method: 'GET', url: (a) => `${G}/restart_gateway/${a.gw.id}` },
  { route: `${G}/read_gateway_time/{id}`, method: 'GET', url: (a) => `${G}/read_gateway_time/${a.gw.id}` },
  { route: `${G}/sync_gateway_systemtime/{id}`, method: 'GET', url: (a) => `${G}/sync_gateway_systemtime/${a.gw.id}` },
  { route: `${G}/re_report/{id}`, method: 'GET', url: (a) => `${G}/re_report/${a.gw.id}` },
  { route: `${G}/refresh_all/{id}`, method: 'GET', url: (a) => `${G}/refresh_all/${a.gw.id}` },
  { route: `${G}/check/import/{id}`, method: 'GET', url: (a) => `${G}/check/import/${a.gw.id}` },
  { route: `${G}/import/{id}`, method: 'GET', url: (a) => `${G}/import/${a.gw.id}` },
  { route: `${G}/devices/outmap/{mapId}/{gatewayId}`, method: 'GET', url: (a) => `${G}/devices/outmap/${a.map}/${a.gw.id}` },
  { route: `${G}/devices/outmap/{mapId}/{gatewayId}`, method: 'GET', url: (a, b) => `${G}/devices/outmap/${b.map}/${a.gw.id}` },
  { route: `${G}/devices/outmap/{mapId}/{gatewayId}`, method: 'GET', url: (a, b) => `${G}/devices/outmap/${a.map}/${b.gw.id}` },
  { route: `${G}/delete/{id}`, method: 'GET', url: (a) => `${G}/delete/${a.gw.id}` },
  { route: `${G}/super_gateway_devices/{id}/{bridgeId}`, method: 'GET', url: (a) => `${G}/super_gateway_devices/${a.superGw!.id}/0` },
  {
    route: `${G}/super_gateway_devices/{id}/{bridgeId}`,
    method: 'GET',
    url: (a, b) => `${G}/super_gateway_devices/${b.gw.id}/${a.bridge}`,
  },
  { route: `${G}/delete_bridge/{id}/{bridgeId}`, method: 'GET', url: (a) => `${G}/delete_bridge/${a.superGw!.id}/${a.bridge}` },
  { route: `${G}/delete_bridge/{id}/{bridgeId}`, method: 'GET', url: (a, b) => `${G}/delete_bridge/${b.gw.id}/${a.bridge}` },
  { route: `${G}/sync/{id}`, method: 'GET', url: (a) => `${G}/sync/${a.gw.id}` },
  { route: `${G}/check_gateway_version/{id}/{target}`, method: 'GET', url: (a) => `${G}/check_gateway_version/${a.gw.id}/gateway` },
  { route: `${G}/post_gateway_update/{id}/{target}`, method: 'GET', url: (a) => `${G}/post_gateway_update/${a.gw.id}/gateway` },
  { route: `${G}/gateway_upgrade_progress/{id}`, method: 'GET', url: (a) => `${G}/gateway_upgrade_progress/${a.gw.id}` },
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  { route: `${G}/detail/{id}`, method: 'GET', url: () => `${G}/detail/987654321` },
  { route: `${G}/detail/{id}`, method: 'GET', url: () => `${G}/detail/9999999999999999999` },
];

/** Routes that take no id of the caller's choosing, tested separately below. */
const WITHOUT_IDS = [`${G}/sync_status`, `${G}/search_device_for_mac`];

describe.each(DATABASES)('tenancy and roles of the gateway calls on %s', (kind) => {
  let rig: GatewayRig;
  let tokenA: string;
  let tokenB: string;
  let a: Ids;
  let b: Ids;
  let commandsSeen = 0;
  const h = () => rig.h;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 3, superGateways: 1 });
    tokenA = await signUpByMail(h(), 'owner@example.com');
    tokenB = await signUpByMail(h(), 'intruder@example.com');
    const [plain, other, superSim] = rig.fleet.gateways;
    const mapA = (await treeFactory(h(), tokenA).map({ name: 'Secret floor' })).id;
    const gw = await bind(h(), tokenA, plain!.mac, mapA, SECRET[0]);
    const superGw = await bind(h(), tokenA, superSim!.mac, mapA, SECRET[1]);
    await data(call(h().app, 'GET', `${G}/import/${gw.id}`, { token: tokenA }));
    await data(call(h().app, 'GET', `${G}/import/${superGw.id}`, { token: tokenA }));
    const bridges = await data<SuperGatewayDevices>(call(h().app, 'GET', `${G}/super_gateway_devices/${superGw.id}/0`, { token: tokenA }));
    a = { map: mapA, project: gw.projectId, gw, superGw, bridge: bridges.bridges[0]!.id };
    const mapB = await defaultMapId(h(), tokenB);
    b = { map: mapB, gw: await bind(h(), tokenB, other!.mac, mapB, 'Own gateway') };
    for (const g of [plain!, superSim!]) g.on('command', () => (commandsSeen += 1));
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('covers every gateway route in its table', async () => {
    const doc = (await h().app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    const routes = Object.keys(doc.paths).filter((p) => p.startsWith(`${G}/`));
    const covered = new Set([...CASES.map((c) => c.route), ...WITHOUT_IDS]);
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CASES.map((c, i) => [`${i + 1}. ${c.method} ${c.route}`, c] as const))(
    'refuses %s with the first account\u2019s ids',
    async (_name, c) => {
      const res = await call(h().app, c.method, c.url(a, b), { token: tokenB, body: c.body?.(a, b) });
      expectError(res, 110011);
      for (const name of SECRET) expect(JSON.stringify(res.body)).not.toContain(name);
    },
  );

  it.each(CASES.map((c, i) => [`${i + 1}. ${c.method} ${c.route}`, c] as const))('refuses %s without a token', async (_name, c) => {
    expectError(await call(h().app, c.method, c.url(a, b), { body: c.body?.(a, b) }), 250004);
  });

  it('lists, searches and tells nothing of the first account\u2019s gateways', async () => {
    const list = await data(call(h().app, 'GET', `${G}/gateways?name=Secret`, { token: tokenB }));
    expect(list).toEqual({ total: 0, list: [] });
    const sync = await data(call(h().app, 'GET', `${G}/sync_status`, { token: tokenB }));
    expect(sync.map((s: { id: string }) => s.id)).toEqual([b.gw.id]);
    const seen = await data(call(h().app, 'POST', `${G}/search_device_for_mac`, { token: tokenB, body: { mac: a.gw.mac } }));
    expect(seen).toEqual({ mac: a.gw.mac, state: 'other', online: false, superGateway: false, gateway: null });
  });

  it('sent no command to the first account\u2019s gateways and left them as they were', async () => {
    expect(commandsSeen).toBe(0);
    const gw = await data<Gateway>(call(h().app, 'GET', `${G}/detail/${a.gw.id}`, { token: tokenA }));
    expect(gw).toMatchObject({ name: SECRET[0], mapId: a.map, settings: a.gw.settings, longitude: null });
    const outmap = await data<GatewayDevice[]>(call(h().app, 'GET', `${G}/devices/outmap/${a.map}/${a.gw.id}`, { token: tokenA }));
    expect(outmap.length).toBeGreaterThan(0);
  });

  it('lets view-only users read, controllable users operate, editable users change', async () => {
    const viewer = await subAccount(h(), 'owner@example.com', OPERATE_AUTH.viewOnly);
    const operator = await subAccount(h(), 'owner@example.com', OPERATE_AUTH.controllable);
    const editor = await subAccount(h(), 'owner@example.com', OPERATE_AUTH.editable);
    const id = a.gw.id;
    const reads = [
      `${G}/detail/${id}`,
      `${G}/gateways`,
      `${G}/sync_status`,
      `${G}/gateway_upgrade_progress/${id}`,
      `${G}/check_gateway_version/${id}/gateway`,
      `${G}/read_gateway_time/${id}`,
    ];
    for (const url of reads) expect((await call(h().app, 'GET', url, { token: viewer })).body.code, url).toBe(0);
    const controls = [`${G}/tryme/${id}`, `${G}/sync_gateway_systemtime/${id}`, `${G}/re_report/${id}`, `${G}/sync/${id}`];
    const changes: Array<[string, unknown?]> = [
      [`${G}/update_name`, { id, name: 'Renamed' }],
      [`${G}/change_place`, { id, mapId: a.map }],
      [`${G}/set_lon_lat`, { id, longitude: 2, latitude: 2 }],
      [`${G}/move`, { mac: rig.fleet.gateways[0]!.mac, mapId: a.map }],
      [`${G}/import/${id}`],
      [`${G}/check/import/${id}`],
      [`${G}/delete/${id}`],
      [`${G}/post_gateway_update/${id}/gateway`],
      [`${G}/delete_bridge/${a.superGw!.id}/${a.bridge}`],
      [`${G}/broadcast?id=${id}&durationS=0`],
      [`${G}/sensor_self_oper/${id}`],
      [`${G}/sensor_sync_model/${id}`],
      [`${G}/set_mawa_params`, { id, holdTime: 60 }],
    ];
    const send = (token: string, url: string, body?: unknown) => call(h().app, body === undefined ? 'GET' : 'POST', url, { token, body });
    for (const url of controls) expectError(await send(viewer, url), 110003);
    for (const [url, body] of changes) {
      expectError(await send(viewer, url, body), 110003);
      expectError(await send(operator, url, body), 110003);
    }
    for (const url of controls) expect((await send(operator, url)).body.code, url).toBe(0);
    expect((await data<Gateway>(send(editor, `${G}/update_name`, { id, name: 'Renamed by editor' }))).name).toBe('Renamed by editor');
    expect((await send(editor, `${G}/check/import/${id}`)).body.code).toBe(0);
  });
});
