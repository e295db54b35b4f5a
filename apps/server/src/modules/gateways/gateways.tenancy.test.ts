import { gatewayEndpoints, type Gateway, type GatewayDevice, type SuperGatewayDevices } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, tenancyWorld, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, api, expectError, prepared } from '../../test/harness.ts';
import { OPERATE_AUTH, subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { bind, data, defaultMapId, startGatewayRig } from '../../test/gateways.fixtures.ts';

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
  // Another account's MAC answers as a MAC never provisioned does; the limited sibling is refused its target map first.
  tenancyCase(gatewayEndpoints.bind, (a, b) => ({ body: { mac: a.gw.mac, mapId: b.map } }), { code: 100110, codeFor: { sibling: 110011 } }),
  tenancyCase(gatewayEndpoints.bind, (a, b) => ({ body: { mac: b.gw.mac, mapId: a.map } })),
  tenancyCase(gatewayEndpoints.rename, (a) => ({ body: { id: a.gw.id, name: 'Taken over' } })),
  tenancyCase(gatewayEndpoints.changePlace, (a, b) => ({ body: { id: a.gw.id, mapId: b.map } })),
  tenancyCase(gatewayEndpoints.changePlace, (a, b) => ({ body: { id: b.gw.id, mapId: a.map } })),
  tenancyCase(gatewayEndpoints.position, (a) => ({ body: { id: a.gw.id, x: 0.5, y: 0.5 } })),
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

describe.each(SERVICE_DATABASES)('tenancy and roles of the gateway calls on %s', (kind) => {
  let commandsSeen = 0;
  const world = tenancyWorld({
    start: () => startGatewayRig(kind, { count: 3, superGateways: 1 }),
    accounts: { victim: 'owner@example.com', intruder: 'intruder@example.com' },
    seed: async (rig, tokens) => {
      const { h } = rig;
      const [plain, other, superSim] = rig.fleet.gateways;
      const mapA = (await treeFactory(h, tokens.victim).map({ name: 'Secret floor' })).id;
      const gw = await bind(h, tokens.victim, plain!.mac, mapA, SECRET[0]);
      const superGw = await bind(h, tokens.victim, superSim!.mac, mapA, SECRET[1]);
      await data(api(h.app, gatewayEndpoints.importDevices, { params: { id: gw.id } }, { token: tokens.victim }));
      await data(api(h.app, gatewayEndpoints.importDevices, { params: { id: superGw.id } }, { token: tokens.victim }));
      const bridges = await data<SuperGatewayDevices>(
        api(h.app, gatewayEndpoints.superGatewayDevices, { params: { id: superGw.id, bridgeId: '0' } }, { token: tokens.victim }),
      );
      const mapB = await defaultMapId(h, tokens.intruder);
      for (const g of [plain!, superSim!]) g.on('command', () => (commandsSeen += 1));
      return {
        a: { map: mapA, project: gw.projectId, gw, superGw, bridge: bridges.bridges[0]!.id } as Ids,
        b: { map: mapB, gw: await bind(h, tokens.intruder, other!.mac, mapB, 'Own gateway') } as Ids,
      };
    },
    timeout: 60_000,
  });
  const h = () => world().h;

  tenancyMatrix({ domain: gatewayEndpoints, cases: CASES, withoutIds: WITHOUT_IDS, secrets: SECRET, world });

  it('lists, searches and tells nothing of the first account\u2019s gateways', async () => {
    const { intruder, a, b } = world();
    const list = await data(api(h().app, gatewayEndpoints.list, { query: { name: 'Secret' } }, { token: intruder }));
    expect(list).toEqual({ total: 0, list: [] });
    const sync = await data(api(h().app, gatewayEndpoints.syncStatus, {}, { token: intruder }));
    expect(sync.map((s: { id: string }) => s.id)).toEqual([b.gw.id]);
    const seen = await data(api(h().app, gatewayEndpoints.lookup, { body: { mac: a.gw.mac } }, { token: intruder }));
    expect(seen).toEqual({ mac: a.gw.mac, state: 'unavailable', online: false, superGateway: false, gateway: null });
  });

  it('sent no command to the first account\u2019s gateways and left them as they were', async () => {
    const { victim, a } = world();
    expect(commandsSeen).toBe(0);
    const gw = await data<Gateway>(api(h().app, gatewayEndpoints.detail, { params: { id: a.gw.id } }, { token: victim }));
    expect(gw).toMatchObject({ name: SECRET[0], mapId: a.map, settings: a.gw.settings, longitude: null, x: null, y: null });
    const outmap = await data<GatewayDevice[]>(
      api(h().app, gatewayEndpoints.outmapDevices, { params: { mapId: a.map, gatewayId: a.gw.id } }, { token: victim }),
    );
    expect(outmap.length).toBeGreaterThan(0);
  });

  it('lets view-only users read, controllable users operate, editable users change', async () => {
    const { started: rig, a } = world();
    const viewer = await subAccount(h(), 'owner@example.com', OPERATE_AUTH.viewOnly);
    const operator = await subAccount(h(), 'owner@example.com', OPERATE_AUTH.controllable);
    const editor = await subAccount(h(), 'owner@example.com', OPERATE_AUTH.editable);
    const id = a.gw.id;
    const g = gatewayEndpoints;
    const reads = [
      prepared(g.detail, { params: { id } }),
      prepared(g.list, {}),
      prepared(g.syncStatus, {}),
      prepared(g.updateProgress, { params: { id } }),
      prepared(g.checkVersion, { params: { id, target: 'gateway' } }),
      prepared(g.readTime, { params: { id } }),
    ];
    const controls = [
      prepared(g.identify, { params: { id } }),
      prepared(g.syncTime, { params: { id } }),
      prepared(g.reReport, { params: { id } }),
      prepared(g.sync, { params: { id } }),
    ];
    const changes = [
      prepared(g.rename, { body: { id, name: 'Renamed' } }),
      prepared(g.changePlace, { body: { id, mapId: a.map } }),
      prepared(g.position, { body: { id, x: 0.1, y: 0.1 } }),
      prepared(g.setLonLat, { body: { id, longitude: 2, latitude: 2 } }),
      prepared(g.bind, { body: { mac: rig.fleet.gateways[0]!.mac, mapId: a.map } }),
      prepared(g.importDevices, { params: { id } }),
      prepared(g.checkImport, { params: { id } }),
      prepared(g.unbind, { params: { id } }),
      prepared(g.startUpdate, { params: { id, target: 'gateway' } }),
      prepared(g.unbindBridge, { params: { id: a.superGw!.id, bridgeId: a.bridge! } }),
      prepared(g.broadcast, { query: { id, durationS: 0 } }),
      prepared(g.sensorsIndependent, { params: { id } }),
      prepared(g.sensorsLinkage, { params: { id } }),
      prepared(g.setMicrowaveParams, { body: { id, holdTime: 60 } }),
    ];
    const as = (token: string) => ({ token });
    for (const c of reads) expect((await c.send(h().app, as(viewer))).body.code, c.endpoint.path).toBe(0);
    for (const c of controls) expectError(await c.send(h().app, as(viewer)), 110003);
    for (const c of changes) {
      expectError(await c.send(h().app, as(viewer)), 110003);
      expectError(await c.send(h().app, as(operator)), 110003);
    }
    for (const c of controls) expect((await c.send(h().app, as(operator))).body.code, c.endpoint.path).toBe(0);
    const renamed = await data(api(h().app, g.rename, { body: { id, name: 'Renamed by editor' } }, as(editor)));
    expect(renamed.name).toBe('Renamed by editor');
    expect((await api(h().app, g.checkImport, { params: { id } }, as(editor))).body.code).toBe(0);
  });
});
