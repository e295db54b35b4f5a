import {
  SYNC_STATUS,
  type Gateway,
  type GatewayDevice,
  type GatewaySyncItem,
  type ImportCheck,
  type ImportResult,
  gatewayEndpoints,
  mapEndpoints,
} from '@lumigrid/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, signUpByMail, api, refusedInput } from '../../test/harness.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';
import { DATABASES_AND_BROKERS, bind, data, defaultMapId, placeDevice, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

describe.each(DATABASES_AND_BROKERS)('gateway management with simulated gateways on %s over the %s broker', (kind, broker) => {
  let otherToken: string;
  let mapId: string;
  let gw: Gateway;
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 4, broker }, 'installer@example.com');
  const detail = async (id = gw.id) => data<Gateway>(send(gatewayEndpoints.detail, { params: { id } }));

  beforeAll(async () => {
    otherToken = await signUpByMail(h(), 'other@example.com');
    mapId = await defaultMapId(h(), token());
    gw = await bind(
      h(),
      token(),
      sim(0)
        .mac.replace(/(..)(?!$)/g, '$1:')
        .toLowerCase(),
      mapId,
      'Hall gateway',
    );
  }, 60_000);

  it('binds a pooled gateway by MAC and shows every field of spec section 3', async () => {
    expect(gw).toMatchObject({
      name: 'Hall gateway',
      mac: sim(0).mac,
      online: true,
      superGateway: false,
      mapId,
      syncStatus: SYNC_STATUS.notSynced,
      syncedVersion: 0,
    });
    const info = sim(0).info();
    expect(gw).toMatchObject({
      ip: info.ip,
      networkAddress: info.networkAddress,
      panId: info.panId,
      channel: info.channel,
      largeGroupNumber: info.largeGroupNumber,
      versions: info.versions,
    });
    expect(gw.projectName).toBe('Default project');
    expect(gw.lastSeenAt).not.toBeNull();
    const list = await data(send(gatewayEndpoints.list, { query: { mapId } }));
    expect(list.list.map((g: Gateway) => g.id)).toEqual([gw.id]);
    expect((await data(send(gatewayEndpoints.list, { query: { online: true, name: 'hall' } }))).total).toBe(1);
    expect((await data(send(gatewayEndpoints.list, { query: { online: false } }))).total).toBe(0);
    expect((await data(send(gatewayEndpoints.list, { query: { name: sim(0).mac.slice(-6) } }))).total).toBe(1);
    const mine = await data(send(gatewayEndpoints.lookup, { body: { mac: sim(0).mac } }));
    expect(mine).toMatchObject({ state: 'yours', online: true, gateway: { id: gw.id } });
    expect(await data(send(gatewayEndpoints.lookup, { body: { mac: sim(1).mac } }))).toMatchObject({
      state: 'pool',
      online: true,
      gateway: null,
    });
  });

  it('refuses a MAC never provisioned and another account\u2019s gateway with one and the same answer', async () => {
    const otherMap = await defaultMapId(h(), otherToken);
    const unknownMac = '00:11:22:33:44:55';
    const unknown = await send(gatewayEndpoints.bind, { body: { mac: unknownMac, mapId: otherMap } }, otherToken, 'ja');
    const taken = await send(gatewayEndpoints.bind, { body: { mac: sim(0).mac, mapId: otherMap } }, otherToken, 'ja');
    expectError(unknown, 100110, 'ja');
    expect({ status: taken.status, body: taken.body }).toEqual({ status: unknown.status, body: unknown.body });
    const lookUp = async (mac: string) => {
      const { mac: _asked, ...rest } = await data(send(gatewayEndpoints.lookup, { body: { mac } }, otherToken));
      return rest;
    };
    expect(await lookUp(sim(0).mac)).toEqual({ state: 'unavailable', online: false, superGateway: false, gateway: null });
    expect(await lookUp(unknownMac)).toEqual(await lookUp(sim(0).mac));
  });

  it('renames, moves to another map and back, sets parameters and longitude/latitude', async () => {
    expect((await data<Gateway>(send(gatewayEndpoints.rename, { body: { id: gw.id, name: '  Lobby gateway ' } }))).name).toBe(
      'Lobby gateway',
    );
    expectError(await send(gatewayEndpoints.rename, { body: { id: gw.id, name: '   ' } }), 100001);
    // Placed on its floor plan; a position off the plan changes nothing.
    const spot = await data<Gateway>(send(gatewayEndpoints.position, { body: { id: gw.id, x: 0.25, y: 0.75 } }));
    expect([spot.x, spot.y]).toEqual([0.25, 0.75]);
    expectError(await send(gatewayEndpoints.position, refusedInput({ body: { id: gw.id, x: 1.5, y: 0.5 } })), 100001);
    // Binding it again to the same map keeps its spot.
    expect(await data<Gateway>(send(gatewayEndpoints.bind, { body: { mac: gw.mac, mapId } }))).toMatchObject({ x: 0.25, y: 0.75 });
    const other = await treeFactory(h(), token()).map();
    const moved = await data<Gateway>(send(gatewayEndpoints.changePlace, { body: { id: gw.id, mapId: other.id } }));
    // Its spot on the old plan means nothing on the new one.
    expect(moved).toMatchObject({ mapId: other.id, mapName: other.name, x: null, y: null });
    // A map holding a gateway cannot be deleted (280005).
    expectError(
      await api(h().app, mapEndpoints.deleteMap, { params: { buildId: other.buildId, mapId: other.id } }, { token: token() }),
      280005,
    );
    await data(send(gatewayEndpoints.changePlace, { body: { id: gw.id, mapId } }));

    const set = await data<Gateway>(
      send(gatewayEndpoints.setParams, { body: { id: gw.id, timezone: 'Europe/Berlin', reportIntervalS: 30, largeGroupNumber: 64000 } }),
    );
    expect(set.settings).toEqual({ timezone: 'Europe/Berlin', reportIntervalS: 30, sensorMode: 'independent' });
    expect(set.largeGroupNumber).toBe(64000);
    expect(sim(0).params).toMatchObject({ timezone: 'Europe/Berlin', reportIntervalS: 30 });
    expectError(await send(gatewayEndpoints.setParams, { body: { id: gw.id, reportIntervalS: 5 } }), 100001);

    expectError(await send(gatewayEndpoints.setLonLat, { body: { id: gw.id, longitude: 13.405, latitude: 52.52 } }), 100017);
    const placed = await data<Gateway>(send(gatewayEndpoints.setLonLat, { body: { id: gw.id, longitude: 13.4, latitude: 52.52 } }));
    expect([placed.longitude, placed.latitude]).toEqual([13.4, 52.52]);
    expect(sim(0).params).toMatchObject({ longitude: 13.4, latitude: 52.52 });
  });

  it('identifies, reads and syncs the clock', async () => {
    expect((await send(gatewayEndpoints.identify, { params: { id: gw.id } })).body.code).toBe(0);
    expect(sim(0).identifyUntil).toBeGreaterThan(0);
    const read = await data(send(gatewayEndpoints.readTime, { params: { id: gw.id } }));
    expect(Date.parse(read.gatewayTime)).toBeGreaterThan(0);
    expect(typeof read.driftMs).toBe('number');
    const synced = await data(send(gatewayEndpoints.syncTime, { params: { id: gw.id } }));
    expect(Date.parse(synced.gatewayTime)).toBeGreaterThan(0);
    expect((await data(send(gatewayEndpoints.reReport, { params: { id: gw.id } }))).count).toBeGreaterThan(0);
    expect((await data<Gateway>(send(gatewayEndpoints.refreshAll, { params: { id: gw.id } }))).versions).toEqual(sim(0).versions);
  });

  it('imports the devices that joined, once, outside any map', async () => {
    const check = await data<ImportCheck>(send(gatewayEndpoints.checkImport, { params: { id: gw.id } }));
    expect(check.total).toBe(sim(0).devices.size);
    expect(check.fresh).toBe(check.total);
    const first = await data<ImportResult>(send(gatewayEndpoints.importDevices, { params: { id: gw.id } }));
    expect(first.imported).toBe(sim(0).devices.size);
    expect(first.list.every((d) => d.mapId === null && d.name.length <= 25 && d.type > 0)).toBe(true);
    const again = await data<ImportResult>(send(gatewayEndpoints.importDevices, { params: { id: gw.id } }));
    expect(again).toMatchObject({ imported: 0, total: first.imported, list: [] });
    expect((await data<ImportCheck>(send(gatewayEndpoints.checkImport, { params: { id: gw.id } }))).fresh).toBe(0);
    const outmap = await data<GatewayDevice[]>(send(gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gw.id } }));
    expect(outmap).toHaveLength(first.imported);
    expect((await detail()).deviceCount).toBe(first.imported);
  });

  it('refuses to unbind while a device is on a map (260013), then unbinds and another account binds it from the pool', async () => {
    const [device] = await data<GatewayDevice[]>(send(gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gw.id } }));
    await placeDevice(h(), device!.id, mapId);
    // The map calls now answer real rows, and the map cannot be deleted (280005).
    const onMap = await data(send(mapEndpoints.listDevices, { body: { mapId } }));
    expect(onMap.list.map((d: { id: string }) => d.id)).toEqual([device!.id]);
    expect((await data(send(mapEndpoints.devicesOf, { params: { id: mapId } }))).map((d: { id: string }) => d.id)).toEqual([device!.id]);
    expectError(await send(gatewayEndpoints.unbind, { params: { id: gw.id } }), 260013);

    await placeDevice(h(), device!.id, null);
    expect((await send(gatewayEndpoints.unbind, { params: { id: gw.id } })).body.code).toBe(0);
    expectError(await send(gatewayEndpoints.detail, { params: { id: gw.id } }), 110011);
    expect(await data(send(gatewayEndpoints.lookup, { body: { mac: sim(0).mac } }, otherToken))).toMatchObject({ state: 'pool' });

    const otherMap = await defaultMapId(h(), otherToken);
    const rebound = await bind(h(), otherToken, sim(0).mac, otherMap);
    expect(rebound).toMatchObject({
      id: gw.id,
      name: sim(0).mac,
      mapId: otherMap,
      deviceCount: 0,
      longitude: null,
      syncStatus: SYNC_STATUS.notSynced,
    });
    expect((await data(send(gatewayEndpoints.list, {}))).total).toBe(0);
    // Back to the first account for the rest of the suite.
    expect((await api(h().app, gatewayEndpoints.unbind, { params: { id: gw.id } }, { token: otherToken })).body.code).toBe(0);
    gw = await bind(h(), token(), sim(0).mac, mapId, 'Hall gateway');
  });

  it('restarts: the gateway goes offline, shows restarting, and comes back online', async () => {
    const gone = poll(async () => (await detail()).activity === 'restarting', 'restarting');
    expect((await send(gatewayEndpoints.restart, { params: { id: gw.id } })).body.code).toBe(0);
    await gone;
    await poll(async () => {
      const d = await detail();
      return d.online && d.activity === 'idle';
    }, 'back online');
    // Back running another configuration than the cloud's (none yet): it is sent it without anyone syncing.
    await poll(async () => (await detail()).syncStatus === SYNC_STATUS.synced, 'the configuration pushed after the restart', {
      timeoutMs: 30_000,
    });
    expect(sim(0).configVersion).toBe((await detail()).configVersion);
  });

  it('syncs the configuration to version N and the acknowledgement marks it synced', async () => {
    const [me] = await data(send(gatewayEndpoints.list, {})).then((p) => p.list as Gateway[]);
    const tenant = (await h().database.db.query.gateways.findFirst({ where: (g, { eq }) => eq(g.id, BigInt(me!.id)) }))!.tenantId!;
    await h().app.gatewayService.configChanged({ tenantId: tenant, gatewayIds: [BigInt(gw.id)] });
    const pending = await data<GatewaySyncItem[]>(send(gatewayEndpoints.syncStatus, {}));
    const item = pending.find((p) => p.id === gw.id)!;
    expect(item).toMatchObject({
      name: 'Hall gateway',
      projectName: 'Default project',
      buildName: 'Default building',
      mapName: 'Default map',
      status: SYNC_STATUS.notSynced,
    });
    const n = item.configVersion;
    const result = await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }));
    expect(result).toEqual({ id: gw.id, status: SYNC_STATUS.synced, version: n });
    expect(sim(0).configVersion).toBe(n);
    expect((await data<GatewaySyncItem[]>(send(gatewayEndpoints.syncStatus, {}))).map((p) => p.id)).not.toContain(gw.id);
    await h().app.gatewayFleet.settled();
    expect(await detail()).toMatchObject({ syncStatus: SYNC_STATUS.synced, configVersion: n, syncedVersion: n });

    // A change in the cloud raises the version: not synced again until the next sync.
    await h().app.gatewayService.configChanged({ tenantId: tenant, gatewayIds: [BigInt(gw.id)] });
    expect((await data<GatewaySyncItem[]>(send(gatewayEndpoints.syncStatus, {}))).find((p) => p.id === gw.id)).toMatchObject({
      status: SYNC_STATUS.notSynced,
      configVersion: n + 1,
      syncedVersion: n,
    });
    expect(await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }))).toEqual({
      id: gw.id,
      status: SYNC_STATUS.synced,
      version: n + 1,
    });
  });

  it('answers the localised timeout code when the gateway stays silent, trusts its state when a sync reply is lost, and 100101 when it is offline', async () => {
    sim(0).faults.noReply = new Set(['time.get', 'config.apply']);
    try {
      expectError(await api(h().app, gatewayEndpoints.readTime, { params: { id: gw.id } }, { token: token(), lang: 'ja' }), 100105, 'ja');
      const me = await detail();
      await h().app.gatewayService.configChanged({
        tenantId: (await h().database.db.query.gateways.findFirst({ where: (g, { eq }) => eq(g.id, BigInt(me.id)) }))!.tenantId!,
        gatewayIds: [BigInt(gw.id)],
      });
      // The reply to config.apply is lost, but the gateway's own state reports the version it now runs:
      // the sync succeeded, and it is never marked failed afterwards.
      const wanted = (await detail()).configVersion;
      expect(await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }))).toEqual({
        id: gw.id,
        status: SYNC_STATUS.synced,
        version: wanted,
      });
      expect(await detail()).toMatchObject({ syncStatus: SYNC_STATUS.synced, syncedVersion: wanted });
      // A gateway that never applies it: timeout, and the sync is marked failed.
      sim(0).faults.lost = new Set(['config.apply']);
      await h().app.gatewayService.configChanged({
        tenantId: (await h().database.db.query.gateways.findFirst({ where: (g, { eq }) => eq(g.id, BigInt(gw.id)) }))!.tenantId!,
        gatewayIds: [BigInt(gw.id)],
      });
      expectError(await send(gatewayEndpoints.sync, { params: { id: gw.id } }), 100109);
      expect((await detail()).syncStatus).toBe(SYNC_STATUS.failed);
      expect(h().app.gatewayLink!.bus.pendingCount()).toBe(0);
    } finally {
      sim(0).faults.noReply = false;
      sim(0).faults.lost = new Set();
    }
    const offline = await bind(h(), token(), sim(3).mac, mapId, 'Spare');
    await sim(3).stop();
    await poll(async () => !(await detail(offline.id)).online, 'offline');
    expectError(await send(gatewayEndpoints.identify, { params: { id: offline.id } }), 100101);
  });

  it('updates firmware: available, progress, success with the new version', async () => {
    expect(await data(send(gatewayEndpoints.checkVersion, { params: { id: gw.id, target: 'gateway' } }))).toEqual({
      target: 'gateway',
      current: '3.2.1',
      latest: '3.3.0',
      state: 'available',
    });
    // Nothing newer for a part the cloud holds no file of: its current version is the latest.
    expect(await data(send(gatewayEndpoints.checkVersion, { params: { id: gw.id, target: 'plc' } }))).toEqual({
      target: 'plc',
      current: '1.0.7',
      latest: '1.0.7',
      state: 'latest',
    });
    expectError(await send(gatewayEndpoints.startUpdate, { params: { id: gw.id, target: 'plc' } }), 260007);
    expect(await data(send(gatewayEndpoints.updateProgress, { params: { id: gw.id } }))).toMatchObject({ state: 'idle', result: null });
    const started = await data(send(gatewayEndpoints.startUpdate, { params: { id: gw.id, target: 'gateway' } }));
    expect(started).toMatchObject({ state: 'updating', target: 'gateway', version: '3.3.0', result: null });
    expect((await detail()).activity).toBe('updating');
    await poll(
      async () => (await data(send(gatewayEndpoints.updateProgress, { params: { id: gw.id } }))).state === 'success',
      'update success',
    );
    expect(await data(send(gatewayEndpoints.updateProgress, { params: { id: gw.id } }))).toMatchObject({ result: 1, progress: 100 });
    await poll(async () => (await detail()).versions.gateway === '3.3.0', 'new version reported');
    expect(await data(send(gatewayEndpoints.checkVersion, { params: { id: gw.id, target: 'gateway' } }))).toMatchObject({
      current: '3.3.0',
      state: 'latest',
    });
  });

  it('reports a failed update (2) and a silent one as timeout (3)', async () => {
    const second = await bind(h(), token(), sim(1).mac, mapId, 'Second');
    sim(1).faults.failUpdates = true;
    // Spec section 4: the gateway is restarted after any result but success. Its return is listened for from the
    // moment the command arrives: the simulated downtime is a tenth of a second, shorter than a busy machine's poll.
    const backAfterRestart = new Promise<void>((resolve) =>
      sim(1).on('command', (c: { name: string }) => {
        if (c.name === 'gateway.restart') sim(1).once('online', () => resolve());
      }),
    );
    await data(send(gatewayEndpoints.startUpdate, { params: { id: second.id, target: 'gateway' } }));
    await poll(
      async () => (await data(send(gatewayEndpoints.updateProgress, { params: { id: second.id } }))).state === 'failed',
      'update failure',
    );
    expect((await data(send(gatewayEndpoints.updateProgress, { params: { id: second.id } }))).result).toBe(2);
    sim(1).faults.failUpdates = false;
    await backAfterRestart;
    await poll(async () => (await detail(second.id)).online, 'back online in the cloud');

    sim(1).faults.hangUpdates = true;
    await poll(
      async () => (await send(gatewayEndpoints.startUpdate, { params: { id: second.id, target: 'gateway' } })).body.code === 0,
      'second update accepted',
    );
    await poll(
      async () => (await data(send(gatewayEndpoints.updateProgress, { params: { id: second.id } }))).state === 'timeout',
      'update timeout',
      {
        timeoutMs: 10_000,
      },
    );
    expect((await data(send(gatewayEndpoints.updateProgress, { params: { id: second.id } }))).result).toBe(3);
    sim(1).faults.hangUpdates = false;
  }, 90_000);
});
