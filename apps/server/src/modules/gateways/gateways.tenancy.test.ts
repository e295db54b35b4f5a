import { gatewayEndpoints, type Gateway, type GatewayDevice, type SuperGatewayDevices } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, type TenancyCase } from '../../test/tenancy.ts';
import { DATABASES, call, expectError, signUpByMail } from '../../test/harness.ts';
import { OPERATE_AUTH, subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { bind, data, defaultMapId, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';

const G = '/api4/gateway/v1';
/** Names of the first account's gateways: none may appear in an answer to the second account. */
const SECRET = ['Secret gateway', 'Secret super gateway'];

type Ids = { map: string; project?: string; gw: Gateway; superGw?: Gateway; bridge?: string; device?: string };

/**
 * Every gateway route, called by a second account with the first account's ids (`a`) and, where
 * a call takes two ids, its own (`b`) for the other. Each case names its endpoint, so the matrix proves every endpoint of the domain has one.
 */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(gatewayEndpoints.list, (a) => ({ query: { mapId: a.map } })),
  tenancyCase(gatewayEndpoints.list, (a) => ({ query: { projectId: a.project } })),
  tenancyCase(gatewayEndpoints.list, (a) => ({ query: { buildId: a.gw.buildId } })),
  tenancyCase(gatewayEndpoints.detail, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.bind, (a, b) => ({ body: { mac: a.gw.mac, mapId: b.map } })),
  tenancyCase(gatewayEndpoints.bind, (a, b) => ({ body: { mac: b.gw.mac, mapId: a.map } })),
  tenancyCase(gatewayEndpoints.rename, (a) => ({ body: { id: a.gw.id, name: 'Taken over' } })),
  tenancyCase(gatewayEndpoints.changePlace, (a, b) => ({ body: { id: a.gw.id, mapId: b.map } })),
  tenancyCase(gatewayEndpoints.changePlace, (a, b) => ({ body: { id: b.gw.id, mapId: a.map } })),
  tenancyCase(gatewayEndpoints.setParams, (a) => ({ body: { id: a.gw.id, reportIntervalS: 900 } })),
  tenancyCase(gatewayEndpoints.setLonLat, (a) => ({ body: { id: a.gw.id, longitude: 1, latitude: 1 } })),
  tenancyCase(gatewayEndpoints.identify, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.broadcast, (a) => ({ query: { id: a.gw.id, durationS: 30 } })),
  tenancyCase(gatewayEndpoints.sensorsIndependent, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.sensorsLinkage, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.setMicrowaveParams, (a) => ({ body: { id: a.gw.id, holdTime: 60 } })),
  tenancyCase(gatewayEndpoints.restart, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.readTime, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.syncTime, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.reReport, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.refreshAll, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.checkImport, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.importDevices, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.outmapDevices, (a) => ({ params: { mapId: a.map, gatewayId: a.gw.id } })),
  tenancyCase(gatewayEndpoints.outmapDevices, (a, b) => ({ params: { mapId: b.map, gatewayId: a.gw.id } })),
  tenancyCase(gatewayEndpoints.outmapDevices, (a, b) => ({ params: { mapId: a.map, gatewayId: b.gw.id } })),
  tenancyCase(gatewayEndpoints.unbind, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.superGatewayDevices, (a) => ({ params: { id: a.superGw!.id, bridgeId: '0' } })),
  tenancyCase(gatewayEndpoints.superGatewayDevices, (a, b) => ({ params: { id: b.gw.id, bridgeId: a.bridge! } })),
  tenancyCase(gatewayEndpoints.unbindBridge, (a) => ({ params: { id: a.superGw!.id, bridgeId: a.bridge! } })),
  tenancyCase(gatewayEndpoints.unbindBridge, (a, b) => ({ params: { id: b.gw.id, bridgeId: a.bridge! } })),
  tenancyCase(gatewayEndpoints.sync, (a) => ({ params: { id: a.gw.id } })),
  tenancyCase(gatewayEndpoints.checkVersion, (a) => ({ params: { id: a.gw.id, target: 'gateway' as const } })),
  tenancyCase(gatewayEndpoints.startUpdate, (a) => ({ params: { id: a.gw.id, target: 'gateway' as const } })),
  tenancyCase(gatewayEndpoints.updateProgress, (a) => ({ params: { id: a.gw.id } })),
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  tenancyCase(gatewayEndpoints.detail, () => ({ params: { id: '987654321' } })),
  tenancyCase(gatewayEndpoints.detail, () => ({ params: { id: '9999999999999999999' } })),
];

/** Routes that take no id of the caller's choosing, tested separately below. */
const WITHOUT_IDS = [gatewayEndpoints.syncStatus, gatewayEndpoints.lookup];

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

  tenancyMatrix({
    domain: gatewayEndpoints,
    cases: CASES,
    withoutIds: WITHOUT_IDS,
    secrets: SECRET,
    world: () => ({ app: h().app, intruder: tokenB, a, b }),
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
