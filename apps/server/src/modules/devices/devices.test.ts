import {
  OPERATE_AUTH,
  mapDestination,
  parseStatus,
  type Device,
  type DeviceMarker,
  type Gateway,
  type GatewayDevice,
  deviceEndpoints,
  gatewayEndpoints,
  type ControlAction,
} from '@lumigrid/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { devices as devicesTable } from '../../db/schema/index.ts';
import { SERVICE_DATABASES, expectError, signUpByMail, api } from '../../test/harness.ts';
import { listenForRealtime, stompClient } from '../../test/realtime.fixtures.ts';
import { buildGatewayWithDevices, data, defaultMapId, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';

describe.each(SERVICE_DATABASES)('device reads, naming, placement and control with a simulated gateway on %s', (kind) => {
  let mapId: string;
  let otherMapId: string;
  let gw: Gateway;
  let imported: GatewayDevice[];
  let url: string;
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1, commandTimeoutMs: 800 }, 'floor@example.com');
  const detail = (id: string) => data<Device>(send(deviceEndpoints.detail, { params: { mapId, id } }));
  const byKind = (k: string) => imported.find((d) => d.kind === k)!;

  beforeAll(async () => {
    mapId = await defaultMapId(h(), token());
    const tree = treeFactory(h(), token());
    otherMapId = (await tree.map()).id;
    ({ gateway: gw, devices: imported } = await buildGatewayWithDevices(h(), token(), { mac: sim().mac, mapId, name: 'Floor gateway' }));
    // Every device reports its state once, so the detail has something to show.
    await data(send(gatewayEndpoints.reReport, { params: { id: gw.id } }));
  }, 60_000);

  it('moves outmap devices onto a map at a position, between maps, and out again', async () => {
    const [a, b] = [byKind('light-cct'), byKind('light-dimmer')];
    const placed = await data<DeviceMarker[]>(
      send(deviceEndpoints.moveIn, {
        body: {
          mapId: otherMapId,
          devices: [
            { id: a.id, x: 0.25, y: 0.5 },
            { id: b.id, x: 0.75, y: 0.1 },
          ],
        },
      }),
    );
    expect(placed.map((m) => [m.id, m.x, m.y])).toEqual(
      [
        [a.id, 0.25, 0.5],
        [b.id, 0.75, 0.1],
      ].sort(),
    );
    // Between maps: move_in again names the new map.
    await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: a.id, x: 0.3, y: 0.3 }] } }));
    expect((await data<DeviceMarker[]>(send(deviceEndpoints.markers, { query: { mapId: otherMapId } }))).map((m) => m.id)).toEqual([b.id]);
    const markers = await data<DeviceMarker[]>(
      api(h().app, deviceEndpoints.positions, { body: { mapId, devices: [{ id: a.id, x: 0.9, y: 0.8 }] } }, { token: token() }),
    );
    expect(markers.find((m) => m.id === a.id)).toMatchObject({ x: 0.9, y: 0.8 });
    // A device of another map cannot be dragged on this one.
    expectError(
      await api(h().app, deviceEndpoints.positions, { body: { mapId, devices: [{ id: b.id, x: 0.1, y: 0.1 }] } }, { token: token() }),
      270010,
    );
    expectError(await send(deviceEndpoints.detail, { params: { mapId, id: b.id } }), 270010);
    await data(send(deviceEndpoints.moveOut, { body: { ids: [b.id] } }));
    expect(await data(send(deviceEndpoints.markers, { query: { mapId: otherMapId } }))).toEqual([]);
    const out = await data<GatewayDevice[]>(send(gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gw.id } }));
    expect(out.map((d) => d.id)).toContain(b.id);
  });

  it('renames a device (1-25 characters) and a switch channel by channel', async () => {
    const light = byKind('light-cct');
    expect((await data<Device>(send(deviceEndpoints.rename, { body: { id: light.id, name: '  Desk lamp ' } }))).name).toBe('Desk lamp');
    expectError(await send(deviceEndpoints.rename, { body: { id: light.id, name: 'x'.repeat(26) } }), 100011);
    expectError(await send(deviceEndpoints.rename, { body: { id: light.id, name: '   ' } }), 100001);
    const sw = byKind('switch-2');
    await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: sw.id, x: 0.5, y: 0.5 }] } }));
    expect((await data<Device>(send(deviceEndpoints.rename, { body: { id: sw.id, name: 'Left|Right' } }))).name).toBe('Left|Right');
    expectError(await send(deviceEndpoints.rename, { body: { id: sw.id, name: 'Only one' } }), 100001);
  });

  it('controls each lighting family; the state changes when the gateway reports it, and goes to the map topic', async () => {
    const families = ['light-single', 'light-dimmer', 'light-cct', 'light-rgb', 'curtain', 'switch-1', 'switch-2'].map(byKind);
    await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: families.map((d, i) => ({ id: d.id, x: i / 10, y: 0.2 })) } }));
    url = await listenForRealtime(h().app);
    const watcher = await stompClient(url, { token: token() });
    const seen: DeviceMarker[] = [];
    await watcher.subscribe(mapDestination(mapId), (m) => seen.push(JSON.parse(m.body) as DeviceMarker));
    try {
      const steps: Array<[GatewayDevice, ControlAction, (d: Device) => boolean]> = [
        [byKind('light-single'), { op: 'onOff', on: true }, (d) => d.display === 'onFull'],
        [byKind('light-dimmer'), { op: 'brightness', percent: 50 }, (d) => d.display === 'onPartial' && level(d) === 127],
        [byKind('light-cct'), { op: 'cct', kelvin: 2700 }, (d) => cct(d) === 2700],
        [byKind('curtain'), { op: 'position', percent: 40 }, (d) => position(d) === 40],
        [byKind('curtain'), { op: 'curtain', command: 'open' }, (d) => position(d) === 100],
        [byKind('light-rgb'), { op: 'rgb', color: '#FF8000' }, (d) => rgb(d) === '255,128,0'],
        [byKind('switch-1'), { op: 'channel', channel: 1, on: true }, (d) => d.display === 'onFull'],
        [byKind('switch-2'), { op: 'channel', channel: 2, on: true }, (d) => d.display === 'onPartial' && channels(d) === 'false,true'],
      ];
      for (const [device, action, reached] of steps) {
        expect(await data(send(deviceEndpoints.control, { body: { id: device.id, action } }))).toBeNull();
        await poll(async () => reached(await detail(device.id)), `${device.kind} ${JSON.stringify(action)}`);
      }
      await poll(() => seen.some((m) => m.id === byKind('light-cct').id && m.status !== ''), 'a marker on the map topic');
      expect(Object.keys(seen[0]!).sort()).toEqual(['display', 'id', 'manual', 'name', 'status', 'type', 'x', 'y']);
      // The command alone writes nothing: the stored row keeps what the import wrote.
      const rows = await h().database.db.select({ status: devicesTable.status }).from(devicesTable);
      expect(rows.every((r) => r.status === '')).toBe(true);
      // A curtain that already stands still takes stop and stays; what the type cannot do, and fields that do not fit.
      expect(
        await data(send(deviceEndpoints.control, { body: { id: byKind('curtain').id, action: { op: 'curtain', command: 'stop' } } })),
      ).toBeNull();
      expect(position(await detail(byKind('curtain').id))).toBe(100);
      expectError(
        await send(deviceEndpoints.control, { body: { id: byKind('light-single').id, action: { op: 'cct', kelvin: 3000 } } }),
        100209,
      );
      expectError(
        await send(deviceEndpoints.control, { body: { id: byKind('switch-1').id, action: { op: 'channel', channel: 2, on: true } } }),
        100209,
      );
      expectError(
        await send(deviceEndpoints.control, { body: { id: byKind('light-cct').id, action: { op: 'brightness', kelvin: 3000 } } }),
        100001,
      );
    } finally {
      await watcher.stop();
    }
  });

  it('answers the localised timeout code when the gateway does not reply', async () => {
    const light = byKind('light-dimmer');
    sim().faults.noReply = new Set(['device.control', 'device.identify']);
    try {
      expectError(await send(deviceEndpoints.identify, { body: { id: light.id } }), 100101);
      expectError(
        await api(
          h().app,
          deviceEndpoints.control,
          { body: { id: light.id, action: { op: 'brightness', percent: 100 } } },
          { token: token(), lang: 'ja' },
        ),
        100101,
        'ja',
      );
    } finally {
      sim().faults.noReply = false;
    }
    // The gateway did act; the state follows its report, not the answer the cloud gave.
    await poll(async () => (await detail(light.id)).display === 'onFull', 'the report after a lost reply');
  });

  it('lets controllable users control, only editable users and owners rename or move, view-only users read', async () => {
    const light = byKind('light-cct');
    const control = { id: light.id, action: { op: 'onOff' as const, on: false } };
    const editable = await subAccount(h(), 'floor@example.com', OPERATE_AUTH.editable);
    const controllable = await subAccount(h(), 'floor@example.com', OPERATE_AUTH.controllable);
    const viewOnly = await subAccount(h(), 'floor@example.com', OPERATE_AUTH.viewOnly);
    expect((await send(deviceEndpoints.control, { body: control }, controllable)).body.code).toBe(0);
    expect((await send(deviceEndpoints.control, { body: control }, editable)).body.code).toBe(0);
    expectError(await send(deviceEndpoints.control, { body: control }, viewOnly), 110003);
    expect((await send(deviceEndpoints.identify, { body: { id: light.id } }, controllable)).body.code).toBe(0);
    expectError(await send(deviceEndpoints.identify, { body: { id: light.id } }, viewOnly), 110003);
    for (const t of [controllable, viewOnly]) {
      expectError(await send(deviceEndpoints.rename, { body: { id: light.id, name: 'Nope' } }, t), 110003);
      expectError(await send(deviceEndpoints.moveOut, { body: { ids: [light.id] } }, t), 110003);
      expectError(await send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: light.id, x: 0, y: 0 }] } }, t), 110003);
      expect((await send(deviceEndpoints.detail, { params: { mapId, id: light.id } }, t)).body.code).toBe(0);
      expect((await send(deviceEndpoints.markers, { query: { mapId } }, t)).body.code).toBe(0);
    }
    expect((await send(deviceEndpoints.rename, { body: { id: light.id, name: 'Editor lamp' } }, editable)).body.code).toBe(0);
  });

  it('lets only users of the account watch a map', async () => {
    const other = await signUpByMail(h(), 'watcher@example.com');
    const stranger = await stompClient(url, { token: other });
    try {
      await stranger.subscribe(mapDestination(mapId), () => undefined);
      expect(stranger.errors.length).toBeGreaterThan(0);
    } finally {
      await stranger.stop();
    }
  });
});

function parsed(d: Device) {
  const s = parseStatus(d.type, d.status);
  if (!s.ok) throw new Error(`unreadable status ${d.status}`);
  return s.value;
}
const level = (d: Device) => {
  const s = parsed(d);
  return s.family === 'light' ? s.level : undefined;
};
const cct = (d: Device) => {
  const s = parsed(d);
  return s.family === 'light' ? s.cct : undefined;
};
const position = (d: Device) => {
  const s = parsed(d);
  return s.family === 'curtain' ? s.position : undefined;
};
const rgb = (d: Device) => {
  const s = parsed(d);
  return s.family === 'light' && s.rgb ? [s.rgb.r, s.rgb.g, s.rgb.b].join(',') : undefined;
};
const channels = (d: Device) => {
  const s = parsed(d);
  return s.family === 'switch' ? s.channels.join(',') : undefined;
};
