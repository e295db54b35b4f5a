import {
  OPERATE_AUTH,
  type Gateway,
  type GatewayDevice,
  type GatewaySyncItem,
  type GroupCandidate,
  type GroupControlResult,
  type GroupDetail,
  type GroupView,
  deviceEndpoints,
  gatewayEndpoints,
  groupEndpoints,
} from '@lumigrid/contract';
import type { CommandMessage } from '@lumigrid/protocol';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { groups } from '../../db/schema/index.ts';
import { SERVICE_DATABASES, expectError, api } from '../../test/harness.ts';
import { bind, data, defaultMapId, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';

describe.each(SERVICE_DATABASES)('zones and groups with simulated gateways on %s', (kind) => {
  let mapId: string;
  let otherMapId: string;
  let gw: Gateway;
  let gw2: Gateway;
  let devices: GatewayDevice[];
  let devices2: GatewayDevice[];
  const commands: CommandMessage[] = [];
  const { h, sim, send, rig, token } = gatewayRigSuite(kind, { count: 2, commandTimeoutMs: 1500 }, 'zones@example.com');
  const byKind = (k: string, list = devices) => list.find((d) => d.kind === k)!;
  const ids = (...kinds: string[]) => kinds.map((k) => byKind(k).id);
  const group = (id: string) => data<GroupDetail>(send(groupEndpoints.get, { params: { id } }));
  const pending = async () => (await data<GatewaySyncItem[]>(send(gatewayEndpoints.syncStatus, {}))).map((p) => p.id);
  const sent = (name: string) => commands.filter((c) => c.name === name);

  beforeAll(async () => {
    mapId = await defaultMapId(h(), token());
    otherMapId = (await treeFactory(h(), token()).map({ name: 'Annex' })).id;
    const setUp = async (mac: string, name: string) => {
      const g = await bind(h(), token(), mac, mapId, name);
      await data(send(gatewayEndpoints.importDevices, { params: { id: g.id } }));
      const list = await data<GatewayDevice[]>(send(gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: g.id } }));
      await data(
        send(deviceEndpoints.moveIn, {
          body: { mapId, devices: list.map((d, i) => ({ id: d.id, x: (i % 10) / 10, y: Math.floor(i / 10) / 10 })) },
        }),
      );
      await data(send(gatewayEndpoints.reReport, { params: { id: g.id } }));
      return { g, list };
    };
    ({ g: gw, list: devices } = await setUp(sim().mac, 'Lobby gateway'));
    ({ g: gw2, list: devices2 } = await setUp(rig().fleet.gateways[1]!.mac, 'Annex gateway'));
    // Both gateways start synced, so every later entry in sync_status is a group change.
    await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }));
    await data(send(gatewayEndpoints.sync, { params: { id: gw2.id } }));
    sim().on('command', (c: CommandMessage) => commands.push(c));
  }, 90_000);

  it('creates a group with the lowest free number of its gateway and raises the gateway configuration version', async () => {
    expect(await pending()).not.toContain(gw.id);
    const created = await data<GroupView>(
      send(groupEndpoints.add, {
        body: { mapId, gatewayId: gw.id, name: '  Lobby  ', deviceIds: ids('light-cct', 'light-dimmer', 'light-single') },
      }),
    );
    expect(created).toMatchObject({
      name: 'Lobby',
      number: 1,
      gatewayId: gw.id,
      mapId,
      type: 0,
      onGateway: false,
      offlineCount: 0,
      gatewayName: 'Lobby gateway',
    });
    expect(created.deviceIds.sort()).toEqual(ids('light-cct', 'light-dimmer', 'light-single').sort());
    expect(await pending()).toContain(gw.id);
    const single = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Singles', deviceIds: ids('light-single') } }),
    );
    expect(single).toMatchObject({ number: 2, type: 1 });
    // Numbers are per gateway: the other gateway starts at 1 again.
    const annex = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw2.id, name: 'Annex', deviceIds: [byKind('light-cct', devices2).id] } }),
    );
    expect(annex.number).toBe(1);
    // A freed number is handed out again.
    await data(send(groupEndpoints.remove, { params: { id: single.id } }));
    expect(
      (await data<GroupView>(send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Again', deviceIds: ids('light-rgb') } })))
        .number,
    ).toBe(2);
    const list = await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }));
    expect(list.map((g) => g.name)).toEqual(['Again', 'Annex', 'Lobby']);
    expect((await data<GroupView[]>(send(groupEndpoints.forGateway, { params: { id: gw.id } }))).map((g) => [g.number, g.name])).toEqual([
      [1, 'Lobby'],
      [2, 'Again'],
    ]);
    expect(await data(send(groupEndpoints.list, { params: { id: otherMapId } }))).toEqual([]);
  });

  it('refuses members by each rule of the spec, localised, and changes nothing', async () => {
    const add = (deviceIds: string[], name = 'Refused', lang: 'en' | 'ja' = 'en') =>
      api(h().app, groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name, deviceIds } }, { token: token(), lang });
    expectError(await add(ids('bridge', 'light-cct')), 100202);
    expectError(await add(ids('switch-4', 'light-cct'), 'Refused', 'ja'), 100202, 'ja');
    expectError(await add(ids('emergency', 'light-cct')), 100203);
    expectError(await add(ids('sensor-motion', 'curtain')), 100204);
    expectError(await add([byKind('light-cct').id, byKind('light-cct', devices2).id]), 100211);
    expectError(await add(['9876543210']), 110011);
    expectError(await add([]), 100001);
    // Names: 1-21 characters, unique on the map.
    expectError(await add(ids('light-cct'), 'x'.repeat(22)), 100001);
    expectError(await add(ids('light-cct'), '   '), 100001);
    expectError(await add(ids('light-cct'), 'Lobby'), 110007);
    // Devices of their own kind group together.
    const emergency = await data<GroupView>(add(ids('emergency', 'emergency-dimmable'), 'Exits'));
    const bridges = await data<GroupView>(add(ids('bridge', 'bridge-wisun'), 'Bridges'));
    // A device off the map cannot join a group of the map.
    await data(send(deviceEndpoints.moveOut, { body: { ids: ids('light-rgb') } }));
    try {
      expectError(await add(ids('light-rgb'), 'Off map'), 270010);
    } finally {
      await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: byKind('light-rgb').id, x: 0.5, y: 0.9 }] } }));
    }
    const names = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).map((g) => g.name);
    expect(names).toEqual(['Again', 'Annex', 'Bridges', 'Exits', 'Lobby']);
    await data(send(groupEndpoints.remove, { params: { id: emergency.id } }));
    await data(send(groupEndpoints.remove, { params: { id: bridges.id } }));
  });

  it('renames (1-21) and changes members under the same rules, raising the version each time', async () => {
    const lobby = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).find((g) => g.name === 'Lobby')!;
    await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }));
    expect(await pending()).not.toContain(gw.id);
    expect((await data<GroupView>(send(groupEndpoints.update, { body: { id: lobby.id, name: 'Lobby east' } }))).name).toBe('Lobby east');
    expect(await pending()).toContain(gw.id);
    expectError(await send(groupEndpoints.update, { body: { id: lobby.id, name: 'x'.repeat(22) } }), 100001);
    expectError(await send(groupEndpoints.update, { body: { id: lobby.id, name: 'Again' } }), 110007);
    expectError(await send(groupEndpoints.update, { body: { id: lobby.id, deviceIds: ids('light-cct', 'emergency') } }), 100203);
    const added = await data<GroupView>(
      send(groupEndpoints.changeMembers, { body: { id: lobby.id, add: ids('sensor-motion', 'light-rgb'), remove: ids('light-single') } }),
    );
    expect(added.deviceIds.sort()).toEqual(ids('light-cct', 'light-dimmer', 'sensor-motion', 'light-rgb').sort());
    expectError(await send(groupEndpoints.changeMembers, { body: { id: lobby.id, add: ids('bridge') } }), 100202);
    expectError(
      await send(groupEndpoints.changeMembers, { body: { id: lobby.id, remove: ids('light-cct', 'light-dimmer', 'light-rgb') } }),
      100204,
    );
    expectError(await send(groupEndpoints.changeMembers, { body: { id: lobby.id, remove: added.deviceIds } }), 110009);
    const back = await data<GroupView>(
      send(groupEndpoints.update, { body: { id: lobby.id, name: 'Lobby', deviceIds: ids('light-cct', 'light-dimmer', 'light-single') } }),
    );
    expect(back.deviceIds.sort()).toEqual(ids('light-cct', 'light-dimmer', 'light-single').sort());
    // The picker marks the members and says which devices cannot join.
    const picker = await data<GroupCandidate[]>(
      send(groupEndpoints.candidates, { params: { mapId, gatewayId: gw.id, groupId: lobby.id, type: 0 } }),
    );
    expect(
      picker
        .filter((c) => c.member)
        .map((c) => c.id)
        .sort(),
    ).toEqual(back.deviceIds.sort());
    expect(picker.find((c) => c.id === byKind('light-cct').id)).toMatchObject({ member: true, problem: null });
    const lights = await data<GroupCandidate[]>(
      send(groupEndpoints.candidates, { params: { mapId, gatewayId: gw.id, groupId: '0', type: byKind('light-cct').type } }),
    );
    expect(lights.map((c) => c.id)).toEqual([byKind('light-cct').id]);
    expectError(
      await send(groupEndpoints.candidates, { params: { mapId: otherMapId, gatewayId: gw.id, groupId: lobby.id, type: 0 } }),
      270010,
    );
  });

  it('controls a group member by member until the gateway runs it, then with one group frame', async () => {
    const lobby = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).find((g) => g.name === 'Lobby')!;
    expect(lobby.onGateway).toBe(false);
    commands.length = 0;
    const before = await data<GroupControlResult>(
      send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'onOff' as const, on: true } } }),
    );
    expect(before).toEqual({ mode: 'unicast', frames: 3, targets: 3 });
    expect(sent('devices.control')).toHaveLength(1);
    expect(sent('group.control')).toHaveLength(0);
    await poll(async () => (await group(lobby.id)).members.every((m) => m.display === 'onFull'), 'every member on');

    // The sync carries the group table to the gateway, which acknowledges the version.
    await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }));
    expect(await pending()).not.toContain(gw.id);
    expect(
      sim()
        .config.groups.find((g) => g.id === lobby.number)
        ?.devices.sort(),
    ).toEqual(
      ids('light-cct', 'light-dimmer', 'light-single')
        .map((id) => devices.find((d) => d.id === id)!.addr.toUpperCase())
        .sort(),
    );
    expect((await group(lobby.id)).onGateway).toBe(true);

    commands.length = 0;
    const off = await data<GroupControlResult>(
      send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'onOff', on: false } } }),
    );
    expect(off).toEqual({ mode: 'group', frames: 1, targets: 3 });
    expect(sent('group.control').map((c) => c.params)).toEqual([{ group: lobby.number, action: { on: false } }]);
    expect(commands.filter((c) => c.name.startsWith('device'))).toEqual([]);
    await poll(async () => {
      const g = await group(lobby.id);
      return g.display === 'off' && g.members.every((m) => m.display === 'off');
    }, 'the group off');

    await data(send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'brightness', percent: 50 } } }));
    await data(send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'cct', kelvin: 3000 } } }));
    await poll(async () => (await group(lobby.id)).display === 'onPartial', 'dimmed');
    expect(sent('group.control').map((c) => (c.params as { action: unknown }).action)).toEqual([
      { on: false },
      { level: 127 },
      { cct: 3000 },
    ]);
    // What no member can do is refused; fields that do not fit their op too.
    const singles = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Plain', deviceIds: ids('light-single') } }),
    );
    expectError(await send(groupEndpoints.control, { body: { id: singles.id, action: { op: 'cct', kelvin: 3000 } } }), 100209);
    expectError(await send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'brightness', kelvin: 3000 } } }), 100001);
    await data(send(groupEndpoints.remove, { params: { id: singles.id } }));
  });

  it('says so when members are offline, and when the gateway is', async () => {
    const lobby = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).find((g) => g.name === 'Lobby')!;
    await data(send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'brightness', percent: 100 } } }));
    await poll(async () => (await group(lobby.id)).display === 'onFull', 'all on at full load');
    const addr = devices.find((d) => d.id === byKind('light-dimmer').id)!.addr.toUpperCase();
    sim().raiseFault(addr, 2);
    try {
      await poll(async () => (await group(lobby.id)).offlineCount === 1, 'one member offline');
      expect(await group(lobby.id)).toMatchObject({ display: 'onPartial', offlineCount: 1 });
    } finally {
      sim().clearFault(addr);
    }
    await poll(async () => (await group(lobby.id)).offlineCount === 0, 'back online');
    await rig().fleet.gateways[1]!.goOffline();
    try {
      const annex = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).find((g) => g.name === 'Annex')!;
      await poll(async () => (await group(annex.id)).display === 'offline', 'the annex gateway offline');
      expect(await group(annex.id)).toMatchObject({ gatewayOnline: false, offlineCount: 1 });
      expectError(await send(groupEndpoints.control, { body: { id: annex.id, action: { op: 'onOff' as const, on: true } } }), 100101);
    } finally {
      await rig().fleet.gateways[1]!.goOnline();
    }
  });

  it('dims the members that dim; a single-colour light goes on at full, and its state says so', async () => {
    const lobby = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).find((g) => g.name === 'Lobby')!;
    expect(lobby.deviceIds).toContain(byKind('light-single').id);
    await data(send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'onOff', on: false } } }));
    await poll(async () => (await group(lobby.id)).members.every((m) => m.display === 'off'), 'the group off');
    await data(send(groupEndpoints.control, { body: { id: lobby.id, action: { op: 'brightness', percent: 40 } } }));
    const member = async (kind: string) => (await group(lobby.id)).members.find((m) => m.id === byKind(kind).id)!;
    await poll(async () => (await member('light-dimmer')).display === 'onPartial', 'the dimmer at 40 %');
    await poll(async () => (await member('light-single')).display !== 'off', 'the single-colour light on');
    // Status and display agree: on at full load, level 254, not a level it cannot show.
    expect(await member('light-single')).toMatchObject({ display: 'onFull', status: '0:1:254:0' });
    // The light itself takes no brightness.
    expectError(
      await send(deviceEndpoints.control, { body: { id: byKind('light-single').id, action: { op: 'brightness', percent: 50 } } }),
      100209,
    );
  });

  it('drops a member that left the map when the members change next', async () => {
    const movers = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Movers', deviceIds: ids('light-rgb', 'light-cct') } }),
    );
    await data(send(deviceEndpoints.moveOut, { body: { ids: ids('light-rgb') } }));
    try {
      // Still in the gateway's table until the members change: the group says what the gateway runs.
      expect((await group(movers.id)).deviceIds.sort()).toEqual(ids('light-rgb', 'light-cct').sort());
      const changed = await data<GroupView>(send(groupEndpoints.changeMembers, { body: { id: movers.id, add: ids('light-dimmer') } }));
      expect(changed.deviceIds.sort()).toEqual(ids('light-cct', 'light-dimmer').sort());
    } finally {
      await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: byKind('light-rgb').id, x: 0.5, y: 0.9 }] } }));
    }
    await data(send(groupEndpoints.remove, { params: { id: movers.id } }));
  });

  it('deletes a group, and deletes and syncs at once', async () => {
    const temp = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Temporary', deviceIds: ids('light-rgb') } }),
    );
    await data(send(gatewayEndpoints.sync, { params: { id: gw.id } }));
    expect(sim().config.groups.map((g) => g.id)).toContain(temp.number);
    const synced = await data<{ id: string; status: number; version: number }>(
      send(groupEndpoints.removeAndSync, { params: { id: temp.id } }),
    );
    expect(synced).toMatchObject({ id: gw.id, status: 3 });
    expect(sim().config.groups.map((g) => g.id)).not.toContain(temp.number);
    expect(await pending()).not.toContain(gw.id);
    expectError(await send(groupEndpoints.get, { params: { id: temp.id } }), 110011);
    // With the gateway unreachable the deletion stands and the banner keeps offering the gateway.
    const other = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Unreachable', deviceIds: ids('light-rgb') } }),
    );
    sim().faults.lost = new Set(['config.apply']);
    try {
      const res = await send(groupEndpoints.removeAndSync, { params: { id: other.id } });
      expect([100107, 100109]).toContain(res.body.code);
    } finally {
      sim().faults.lost = new Set();
    }
    expectError(await send(groupEndpoints.get, { params: { id: other.id } }), 110011);
    expect(await pending()).toContain(gw.id);
  });

  it('lets controllable users control, only editable users and owners change groups, view-only users read', async () => {
    const lobby = (await data<GroupView[]>(send(groupEndpoints.list, { params: { id: mapId } }))).find((g) => g.name === 'Lobby')!;
    const editable = await subAccount(h(), 'zones@example.com', OPERATE_AUTH.editable);
    const controllable = await subAccount(h(), 'zones@example.com', OPERATE_AUTH.controllable);
    const viewOnly = await subAccount(h(), 'zones@example.com', OPERATE_AUTH.viewOnly);
    const control = { id: lobby.id, action: { op: 'onOff' as const, on: true } };
    expect((await send(groupEndpoints.control, { body: control }, controllable)).body.code).toBe(0);
    expectError(await send(groupEndpoints.control, { body: control }, viewOnly), 110003);
    for (const t of [controllable, viewOnly]) {
      expectError(
        await send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Nope', deviceIds: ids('light-cct') } }, t),
        110003,
      );
      expectError(await send(groupEndpoints.update, { body: { id: lobby.id, name: 'Nope' } }, t), 110003);
      expectError(await send(groupEndpoints.changeMembers, { body: { id: lobby.id, remove: ids('light-single') } }, t), 110003);
      expectError(await send(groupEndpoints.remove, { params: { id: lobby.id } }, t), 110003);
      expectError(await send(groupEndpoints.removeAndSync, { params: { id: lobby.id } }, t), 110003);
      expect((await send(groupEndpoints.list, { params: { id: mapId } }, t)).body.code).toBe(0);
      expect((await send(groupEndpoints.get, { params: { id: lobby.id } }, t)).body.code).toBe(0);
    }
    expect((await data<GroupView>(send(groupEndpoints.update, { body: { id: lobby.id, name: 'Lobby' } }, editable))).name).toBe('Lobby');
  });

  it('forgets the groups of a gateway when it is unbound', async () => {
    const light = devices2.find((d) => d.kind === 'light-cct')!;
    const annex = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw2.id, name: 'Annex lights', deviceIds: [light.id] } }),
    );
    // Every device leaves the map first: a gateway with placed devices is not unbound (260013).
    await data(send(deviceEndpoints.moveOut, { body: { ids: devices2.map((d) => d.id) } }));
    await data(send(gatewayEndpoints.unbind, { params: { id: gw2.id } }));
    const left = await h()
      .database.db.select()
      .from(groups)
      .where(eq(groups.gatewayId, BigInt(gw2.id)));
    expect(left).toEqual([]);
    expectError(await send(groupEndpoints.get, { params: { id: annex.id } }), 110011);
  });
});
