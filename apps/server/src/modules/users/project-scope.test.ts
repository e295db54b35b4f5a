import {
  OPERATE_AUTH,
  USER_AUTH,
  authEndpoints,
  deviceEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  mapDestination,
  mapEndpoints,
  projectEndpoints,
  userEndpoints,
  type GatewayDevice,
  type ManagedAccount,
  type MapInfo,
  type Project,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, api, apiData, SERVICE_DATABASES, expectError, login, signUpByMail } from '../../test/harness.ts';
import { buildGatewayWithDevices, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';
import { listenForRealtime, stompClient } from '../../test/realtime.fixtures.ts';
import { createGatewaysRepo } from '../gateways/gateways.repo.ts';

const PASSWORD = 'Scoped-Pass1';

/**
 * A sub-account limited to some projects sees those projects, their sub-projects and what stands on their
 * maps, everywhere: the tree, every list, every id, the real-time topics and the gateway notices.
 */
describe.each(SERVICE_DATABASES)('sub-accounts limited to some projects on %s', (kind) => {
  let rig: GatewayRig;
  let owner: string;
  let member: string;
  let account: ManagedAccount;
  let east: Project;
  let eastChild: Project;
  let west: Project;
  let eastMap: MapInfo;
  let eastChildMap: MapInfo;
  let westMap: MapInfo;
  const w = { gateway: '', devices: [] as GatewayDevice[], group: '' };
  const e = { gateway: '', devices: [] as GatewayDevice[] };
  const h = () => rig.h;
  const as = (token: string) => ({ token });

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 2, commandTimeoutMs: 800 });
    owner = await signUpByMail(h(), 'scopes@example.com');
    const f = treeFactory(h(), owner);
    east = await f.project({ name: 'East wing' });
    eastChild = await f.project({ name: 'East annex', parentId: east.id });
    west = await f.project({ name: 'West wing' });
    eastMap = await f.map({ buildId: (await f.building({ projectId: east.id })).id, name: 'East floor' });
    eastChildMap = await f.map({ buildId: (await f.building({ projectId: eastChild.id })).id, name: 'Annex floor' });
    westMap = await f.map({ buildId: (await f.building({ projectId: west.id })).id, name: 'West floor' });
    const inEast = await buildGatewayWithDevices(h(), owner, { mac: rig.fleet.gateways[0]!.mac, mapId: eastMap.id, name: 'East gateway' });
    const inWest = await buildGatewayWithDevices(h(), owner, {
      mac: rig.fleet.gateways[1]!.mac,
      mapId: westMap.id,
      name: 'West gateway',
      place: (d) => d.kind.startsWith('light'),
    });
    Object.assign(e, { gateway: inEast.gateway.id, devices: inEast.devices });
    Object.assign(w, { gateway: inWest.gateway.id, devices: inWest.devices });
    const light = inWest.placed[0]!;
    w.group = (
      await apiData(
        h().app,
        groupEndpoints.add,
        { body: { mapId: westMap.id, gatewayId: w.gateway, name: 'West lights', deviceIds: [light.id] } },
        as(owner),
      )
    ).id;
    account = await apiData(
      h().app,
      userEndpoints.add,
      {
        body: {
          userAuth: USER_AUTH.subAccount,
          account: 'east-keeper',
          password: PASSWORD,
          operateAuth: OPERATE_AUTH.editable,
          projectIds: [east.id],
        },
      },
      as(owner),
    );
    member = await login(h(), 'east-keeper', PASSWORD);
  }, 90_000);
  afterAll(async () => rig?.close());

  it('stores the projects given and shows them to the owner', async () => {
    expect(account.projectIds).toEqual([east.id]);
    const page = await apiData(
      h().app,
      userEndpoints.list,
      { params: { userAuth: USER_AUTH.subAccount, page: 1, pageSize: 10 } },
      as(owner),
    );
    expect(page.list.find((a) => a.id === account.id)?.projectIds).toEqual([east.id]);
  });

  it('shows the given project with its sub-projects as the top of the tree, and nothing else', async () => {
    const tree = await apiData(h().app, projectEndpoints.tree, { params: { id: '0' } }, as(member));
    expect(tree.projects.map((p) => p.name)).toEqual(['East wing', 'East annex']);
    expect(tree.projects[0]!.parentId).toBeNull();
    const maps = tree.projects.flatMap((p) => p.builds.flatMap((b) => b.maps.map((m) => m.id)));
    expect(maps.sort()).toEqual([eastMap.id, eastChildMap.id].sort());
    expectError(await api(h().app, projectEndpoints.tree, { params: { id: west.id } }, as(member)), 110011);

    const projects = await apiData(h().app, projectEndpoints.searchProjects, { body: {} }, as(member));
    expect(projects.list.map((p) => p.name).sort()).toEqual(['East annex', 'East wing']);
    const found = await apiData(h().app, mapEndpoints.searchMaps, { body: {} }, as(member));
    expect(found.list.map((m) => m.id).sort()).toEqual([eastMap.id, eastChildMap.id].sort());
    expectError(await api(h().app, mapEndpoints.searchMaps, { body: { projectId: west.id } }, as(member)), 110011);
  });

  it('lists only the gateways, devices and groups on its maps', async () => {
    const gateways = await apiData(h().app, gatewayEndpoints.list, { query: {} }, as(member));
    expect(gateways.list.map((g) => g.id)).toEqual([e.gateway]);
    const devices = await apiData(h().app, deviceEndpoints.list, { body: { pageSize: 100 } }, as(member));
    expect(devices.list.map((d) => d.id).sort()).toEqual(e.devices.map((d) => d.id).sort());
    const seenByOwner = await apiData(h().app, deviceEndpoints.list, { body: { pageSize: 100 } }, as(owner));
    expect(seenByOwner.total).toBe(e.devices.length + w.devices.length);
    const lookup = await apiData(h().app, gatewayEndpoints.lookup, { body: { mac: rig.fleet.gateways[1]!.mac } }, as(member));
    expect(lookup).toMatchObject({ state: 'unavailable', gateway: null });
  });

  it('answers 110011 for every id beyond its projects, as for another account’s', async () => {
    const light = w.devices.find((d) => d.kind.startsWith('light'))!;
    const refused = [
      api(h().app, projectEndpoints.projectDetail, { params: { id: west.id } }, as(member)),
      api(h().app, mapEndpoints.getMap, { params: { id: west.id, mapId: westMap.id } }, as(member)),
      api(h().app, deviceEndpoints.markers, { query: { mapId: westMap.id } }, as(member)),
      api(h().app, gatewayEndpoints.detail, { params: { id: w.gateway } }, as(member)),
      api(h().app, gatewayEndpoints.rename, { body: { id: w.gateway, name: 'Taken over' } }, as(member)),
      api(h().app, deviceEndpoints.detail, { params: { mapId: westMap.id, id: light.id } }, as(member)),
      api(h().app, deviceEndpoints.rename, { body: { id: light.id, name: 'Taken over' } }, as(member)),
      api(h().app, deviceEndpoints.control, { body: { id: light.id, action: { op: 'onOff', on: false } } }, as(member)),
      api(h().app, deviceEndpoints.remove, { body: { ids: [light.id], fromGateway: false } }, as(member)),
      api(h().app, deviceEndpoints.list, { body: { gatewayId: w.gateway } }, as(member)),
      api(h().app, groupEndpoints.get, { params: { id: w.group } }, as(member)),
      api(h().app, groupEndpoints.forGateway, { params: { id: w.gateway } }, as(member)),
      api(h().app, groupEndpoints.list, { params: { id: westMap.id } }, as(member)),
      api(h().app, projectEndpoints.addBuilding, { body: { projectId: west.id, name: 'Taken over' } }, as(member)),
    ];
    for (const res of await Promise.all(refused)) expectError(res, 110011);
    // Binding the MAC of a gateway beyond its projects cannot move it onto one of its maps: as another account's.
    expectError(
      await api(h().app, gatewayEndpoints.bind, { body: { mac: rig.fleet.gateways[1]!.mac, mapId: eastMap.id } }, as(member)),
      100110,
    );
    // Nothing changed.
    expect(await apiData(h().app, gatewayEndpoints.detail, { params: { id: w.gateway } }, as(owner))).toMatchObject({
      name: 'West gateway',
      mapId: westMap.id,
    });
    // A project it would not see is not its to add; a sub-project of its own is.
    expectError(await api(h().app, projectEndpoints.addProject, { body: { name: 'Elsewhere' } }, as(member)), 110003);
    const annex = await apiData(h().app, projectEndpoints.addProject, { body: { name: 'East shed', parentId: east.id } }, as(member));
    expect((await apiData(h().app, projectEndpoints.tree, { params: { id: '0' } }, as(member))).projects.map((p) => p.id)).toContain(
      annex.id,
    );
  });

  it('may watch its maps in real time but not another project’s, and hears only its gateways', async () => {
    const url = await listenForRealtime(h().app);
    const client = await stompClient(url, { token: member });
    await client.subscribe(mapDestination(eastMap.id), () => undefined);
    expect(client.errors).toEqual([]);
    await client.subscribe(mapDestination(westMap.id), () => undefined);
    expect(client.errors.map((f) => f.headers.message).join()).toMatch(/./);
    await client.stop();

    const gatewaysRepo = createGatewaysRepo(h().database.db);
    const hearsEast = await gatewaysRepo.audienceAnyTenant({ mac: rig.fleet.gateways[0]!.mac });
    const hearsWest = await gatewaysRepo.audienceAnyTenant({ mac: rig.fleet.gateways[1]!.mac });
    expect(hearsEast!.userIds.map(String)).toContain(account.id);
    expect(hearsWest!.userIds.map(String)).not.toContain(account.id);
    expect(hearsWest!.userIds.length).toBeGreaterThan(0);
  });

  it('ends the sessions when its projects change (250019), and refuses projects of another account', async () => {
    const stranger = await signUpByMail(h(), 'stranger@example.com');
    const theirs = await treeFactory(h(), stranger).project({ name: 'Not yours' });
    const update = (projectIds: string[] | null) => api(h().app, userEndpoints.update, { body: { id: account.id, projectIds } }, as(owner));
    expectError(await update([east.id, theirs.id]), 110011);
    expect((await apiData(h().app, projectEndpoints.tree, { params: { id: '0' } }, as(member))).projects.length).toBeGreaterThan(0);

    expect(
      (await apiData(h().app, userEndpoints.update, { body: { id: account.id, projectIds: [west.id] } }, as(owner))).projectIds,
    ).toEqual([west.id]);
    expectError(await api(h().app, projectEndpoints.tree, { params: { id: '0' } }, as(member)), 250019);
    member = await login(h(), 'east-keeper', PASSWORD);
    const gateways = await apiData(h().app, gatewayEndpoints.list, { query: {} }, as(member));
    expect(gateways.list.map((g) => g.id)).toEqual([w.gateway]);

    // The platform administrator may change them too, from the account's own projects.
    const admin = await login(h(), 'admin', ADMIN_PASSWORD);
    const byAdmin = await apiData(h().app, userEndpoints.update, { body: { id: account.id, projectIds: [east.id, west.id] } }, as(admin));
    expect(byAdmin.projectIds?.slice().sort()).toEqual([east.id, west.id].sort());

    // Every project again: it sees the whole account.
    expect((await update(null)).body.data.projectIds).toBeNull();
    member = await login(h(), 'east-keeper', PASSWORD);
    expect((await apiData(h().app, gatewayEndpoints.list, { query: {} }, as(member))).total).toBe(2);
  });

  it('refuses the sign-in with 280007 once none of its projects is left', async () => {
    const spare = await treeFactory(h(), owner).project({ name: 'Soon gone' });
    await apiData(h().app, userEndpoints.update, { body: { id: account.id, projectIds: [spare.id] } }, as(owner));
    await apiData(h().app, projectEndpoints.deleteProject, { params: { id: spare.id } }, as(owner));
    expectError(await api(h().app, authEndpoints.login, { body: { account: 'east-keeper', password: PASSWORD } }), 280007);
    const own = await apiData(
      h().app,
      userEndpoints.list,
      { params: { userAuth: USER_AUTH.subAccount, page: 1, pageSize: 10 } },
      as(owner),
    );
    expect(own.list.find((a) => a.id === account.id)?.projectIds).toEqual([]);
  });

  it('limits only sub-accounts to projects', async () => {
    const admin = await login(h(), 'admin', ADMIN_PASSWORD);
    const body = { userAuth: USER_AUTH.account, account: 'whole-account', password: PASSWORD, projectIds: [east.id] };
    expectError(await api(h().app, userEndpoints.add, { body }, as(admin)), 100001);
    expectError(await api(h().app, authEndpoints.login, { body: { account: 'whole-account', password: PASSWORD } }), 100018);
  });
});
