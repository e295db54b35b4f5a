import {
  DEVICE_FAMILIES,
  DEVICE_TYPE_CODES as C,
  OPERATE_AUTH,
  type Device,
  type DevicePage,
  type DeviceParamsRead,
  type DeviceTypeRow,
  type Gateway,
  type GatewayDevice,
  deviceEndpoints,
  libraryEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  type EndpointInput,
} from '@lumigrid/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_DATABASES, expectError, refusedInput } from '../../test/harness.ts';
import { bind, data, defaultMapId, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { subAccount } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';

describe.each(SERVICE_DATABASES)('device configuration, deletion and the device list with a simulated gateway on %s', (kind) => {
  let mapId: string;
  let gw: Gateway;
  let imported: GatewayDevice[];
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1, commandTimeoutMs: 800 }, 'config@example.com');
  const simDevice = (d: GatewayDevice) => sim().devices.get(d.addr.toUpperCase());
  const byKind = (k: string) => imported.find((d) => d.kind === k)!;
  const list = (body: EndpointInput<typeof deviceEndpoints.list>['body'], t = token()) =>
    data<DevicePage>(send(deviceEndpoints.list, { body }, t));

  beforeAll(async () => {
    mapId = await defaultMapId(h(), token());
    gw = await bind(h(), token(), sim().mac, mapId, 'Config gateway');
    await data(send(gatewayEndpoints.importDevices, { params: { id: gw.id } }));
    imported = await data<GatewayDevice[]>(send(gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gw.id } }));
    await data(send(gatewayEndpoints.reReport, { params: { id: gw.id } }));
  }, 60_000);

  it('writes a motion sensor\u2019s parameters to the device and reads them back from it', async () => {
    const sensor = byKind('sensor-motion');
    const written = await data<DeviceParamsRead>(
      send(deviceEndpoints.setParams, {
        body: { id: sensor.id, params: { holdTime: 120, sensingCount: 20, lux: 4000, sensorMode: 'linkage' } },
      }),
    );
    expect(written).toMatchObject({
      id: sensor.id,
      type: C['sensor-motion'],
      params: { holdTime: 120, sensingCount: 20, lux: 4000, sensorMode: 'linkage' },
    });
    // The device keeps them: the simulator's memory holds them, and a read asks the device again.
    expect(simDevice(sensor)?.params).toMatchObject({ holdTime: 120, sensorMode: 'linkage' });
    const read = await data<DeviceParamsRead>(send(deviceEndpoints.readParams, { body: { id: sensor.id } }));
    expect(read.params).toMatchObject({ holdTime: 120, sensingCount: 20, lux: 4000, sensorMode: 'linkage', stairsMode: false });
    // The narrow calls write only their kind's fields.
    await data(send(deviceEndpoints.setMotionParams, { body: { id: sensor.id, params: { holdTime: 2540 } } }));
    await data(send(deviceEndpoints.setStairsMode, { body: { id: sensor.id, params: { stairsMode: true, stairsHoldTime: 57600 } } }));
    expect((await data<DeviceParamsRead>(send(deviceEndpoints.readParams, { body: { id: sensor.id } }))).params).toMatchObject({
      holdTime: 2540,
      stairsMode: true,
      stairsHoldTime: 57600,
    });
    expectError(await send(deviceEndpoints.setStairsMode, { body: { id: sensor.id, params: { holdTime: 60 } } }), 100209);
    expectError(await send(deviceEndpoints.setDaylightParams, { body: { id: sensor.id, params: { lux: 100 } } }), 100209);
    expectError(await send(deviceEndpoints.readDaylightParams, { body: { id: sensor.id } }), 100209);
  });

  it('refuses every out-of-range value with its localised message, and the device keeps what it had', async () => {
    const sensor = byKind('sensor-motion');
    const before = structuredClone(simDevice(sensor)?.params);
    const refused: Array<[unknown, number]> = [
      [{ holdTime: 15 }, 100221],
      [{ holdTime: 2550 }, 100221],
      [{ lux: 4001 }, 100227],
      [{ sensingCount: 9 }, 100225],
      [{ commandInterval: 3601 }, 100228],
      [{ stairsHoldTime: 0 }, 100224],
      [{ sensorMode: 'sometimes' }, 100245],
      [{ holdTime: 60, fadeTime: 3 }, 100209],
      [{ holdTime: 60.5 }, 100246],
      // No coercion: a text or a flag where a number belongs gets the field's own message.
      [{ holdTime: '60' }, 100221],
      [{ stairsMode: 1 }, 100001],
      [{ holdTime: { value: 60 } }, 100221],
    ];
    for (const [params, code] of refused)
      expectError(await send(deviceEndpoints.setParams, refusedInput({ body: { id: sensor.id, params } })), code as never);
    expectError(await send(deviceEndpoints.setParams, { body: { id: sensor.id, params: { lux: -1 } } }, token(), 'ja'), 100227, 'ja');
    expectError(await send(deviceEndpoints.setParams, { body: { id: sensor.id, params: {} } }), 100001);
    expect(simDevice(sensor)?.params).toEqual(before);

    const light = byKind('light-cct');
    await data(
      send(deviceEndpoints.setParams, {
        body: { id: light.id, params: { fadeTime: 254, minBrightness: 30, minPowerLevel: 10, maxPowerLevel: 90 } },
      }),
    );
    expectError(await send(deviceEndpoints.setParams, { body: { id: light.id, params: { fadeTime: 255 } } }), 100233);
    expectError(
      await send(deviceEndpoints.setParams, { body: { id: light.id, params: { minPowerLevel: 90, maxPowerLevel: 90 } } }),
      100210,
    );
    expectError(await send(deviceEndpoints.setParams, { body: { id: byKind('switch-2').id, params: { lampCounts: [26, 1] } } }), 100239);
    await data(send(deviceEndpoints.setParams, { body: { id: byKind('switch-2').id, params: { lampCounts: [25, 0] } } }));
    await data(
      send(deviceEndpoints.setDaylightParams, { body: { id: byKind('sensor-daylight').id, params: { lux: 60000, holdTime: 7200 } } }),
    );
    expect(
      (await data<DeviceParamsRead>(send(deviceEndpoints.readDaylightParams, { body: { id: byKind('sensor-daylight').id } }))).params,
    ).toMatchObject({
      lux: 60000,
      holdTime: 7200,
    });
    expectError(await send(deviceEndpoints.readParams, { body: { id: byKind('bridge').id } }), 100209);
  });

  it('answers the parameter timeout texts when the gateway stays silent', async () => {
    const sensor = byKind('sensor-motion');
    sim().faults.noReply = new Set(['device.params.set', 'device.params.get']);
    try {
      expectError(await send(deviceEndpoints.setParams, { body: { id: sensor.id, params: { holdTime: 30 } } }), 100104);
      expectError(await send(deviceEndpoints.readParams, { body: { id: sensor.id } }), 100105);
    } finally {
      sim().faults.noReply = false;
    }
  });

  it('switches a sensor\u2019s sensing off and broadcasts to every light of a gateway', async () => {
    const sensor = byKind('sensor-motion');
    expect(await data(send(deviceEndpoints.sensorOnOff, { body: { id: sensor.id, on: false } }))).toBeNull();
    expect(simDevice(sensor)?.sensing).toBe(false);
    await data(send(deviceEndpoints.sensorOnOff, { body: { id: sensor.id, on: true } }));
    expect(simDevice(sensor)?.sensing).toBe(true);
    expectError(await send(deviceEndpoints.sensorOnOff, { body: { id: byKind('light-cct').id, on: true } }), 100209);

    const result = await data<{ count: number }>(
      send(deviceEndpoints.broadControl, { body: { gatewayId: gw.id, action: { op: 'onOff', on: true } } }),
    );
    expect(result.count).toBeGreaterThan(0);
    expect(simDevice(byKind('light-dimmer'))?.state.on).toBe(true);
    expectError(
      await send(deviceEndpoints.broadControl, { body: { gatewayId: gw.id, action: { op: 'curtain', command: 'open' } } }),
      100209,
    );
  });

  it('lists devices with filters and pages, with gateway, map, firmware and the reported state', async () => {
    const all = await list({ pageSize: 200 });
    expect(all.total).toBe(imported.length);
    const row = all.list.find((d) => d.id === byKind('light-cct').id)!;
    expect(row).toMatchObject({ gatewayId: gw.id, gatewayName: 'Config gateway', firmware: '1.0.0', addr: byKind('light-cct').addr });
    expect(row.lastUpdate).not.toBeNull();
    const page2 = await list({ page: 2, pageSize: 5 });
    expect(page2.list.map((d) => d.id)).toEqual(all.list.slice(5, 10).map((d) => d.id));
    expect((await list({ type: C['sensor-motion'] })).list.map((d) => d.id)).toEqual([byKind('sensor-motion').id]);
    expect((await list({ name: byKind('curtain').addr.slice(-6) })).list.map((d) => d.id)).toEqual([byKind('curtain').id]);
    const placed = byKind('light-rgb');
    await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: placed.id, x: 0.5, y: 0.5 }] } }));
    const onMap = await list({ mapId });
    expect(onMap.list.map((d) => d.id)).toEqual([placed.id]);
    expect(onMap.list[0]!.mapName).not.toBeNull();
    const on = await list({ display: 'onFull', pageSize: 200 });
    expect(on.list.length).toBeGreaterThan(0);
    expect(on.list.every((d) => d.display === 'onFull')).toBe(true);
    // Sensors, panels and bridges switch no load: they work, they are never "on at full load".
    const working = await list({ display: 'working', pageSize: 200 });
    const noLoad = ['sensor-daylight', 'sensor-temperature', 'sensor-cct', 'panel-scene6', 'panel-smart', 'bridge'].map(
      (k) => byKind(k).id,
    );
    expect(working.list.map((d) => d.id)).toEqual(expect.arrayContaining(noLoad));
    expect(on.list.map((d) => d.id)).not.toEqual(expect.arrayContaining([noLoad[0]]));
    expect((await list({ gatewayId: gw.id })).total).toBe(imported.length);
    expectError(await send(deviceEndpoints.list, { body: { pageSize: 201 } }), 100001);
  });

  it('lists a group’s members and names each device’s groups', async () => {
    const [a, b] = [byKind('light-cct'), byKind('switch-3')];
    await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [a, b].map((d, i) => ({ id: d.id, x: 0.3 + i / 10, y: 0.3 })) } }));
    const group = await data<{ id: string }>(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gw.id, name: 'Desk row', deviceIds: [a.id, b.id] } }),
    );
    const members = await list({ groupId: group.id });
    expect(members.list.map((d) => d.id).sort()).toEqual([a.id, b.id].sort());
    expect(members.list[0]).toMatchObject({ groupIds: [group.id], groupNames: ['Desk row'] });
    // The device's own page says the same.
    expect(await data(send(deviceEndpoints.detail, { params: { mapId, id: a.id } }))).toMatchObject({
      groupIds: [group.id],
      groupNames: ['Desk row'],
    });
    expect((await list({ groupId: group.id, type: C['light-cct'] })).list.map((d) => d.id)).toEqual([a.id]);
    expectError(await send(deviceEndpoints.list, { body: { groupId: '987654321' } }), 110011);
    // A member deleted: the gateway's groups changed, so its configuration version rises (sync banner).
    const before = (await data<Gateway>(send(gatewayEndpoints.detail, { params: { id: gw.id } }))).configVersion;
    await data(send(deviceEndpoints.remove, { body: { ids: [b.id], fromGateway: false } }));
    expect((await data<Gateway>(send(gatewayEndpoints.detail, { params: { id: gw.id } }))).configVersion).toBeGreaterThan(before);
    expect((await list({ groupId: group.id })).list.map((d) => d.id)).toEqual([a.id]);
    imported = imported.filter((d) => d.id !== b.id);
  });

  it('serves the type table and changes lights of batch-changeable types in one go, telling the gateway', async () => {
    const table = await data<DeviceTypeRow[]>(send(libraryEndpoints.typeTable, {}));
    expect(table.find((t) => t.code === C['light-cct'])).toMatchObject({
      cct: true,
      dimmable: true,
      families: expect.arrayContaining(['colourTemperature', 'batchChangeable']),
    });
    expect(table.filter((t) => t.families.includes('batchChangeable')).map((t) => t.code)).toEqual([...DEVICE_FAMILIES.batchChangeable]);

    const [single, dimmer] = [byKind('light-single'), byKind('light-dimmer')];
    expect(await data(send(deviceEndpoints.batchType, { body: { ids: [single.id, dimmer.id], type: C['light-cct'] } }))).toEqual({
      count: 2,
    });
    expect(simDevice(single)?.state.kind).toBe('light-cct');
    await poll(
      async () => (await data<Device>(send(deviceEndpoints.inputStatus, { params: { id: single.id } }))).type === C['light-cct'],
      'the new type',
    );
    expectError(await send(deviceEndpoints.batchType, { body: { ids: [byKind('sensor-motion').id], type: C['light-cct'] } }), 100207);
    expectError(await send(deviceEndpoints.batchType, { body: { ids: [single.id], type: C['sensor-motion'] } }), 100207);
    expectError(await send(deviceEndpoints.batchType, { body: { ids: [single.id], type: 999 } }), 100208);
  });

  it('refreshes a device\u2019s network address from its gateway and reads temperatures', async () => {
    const light = byKind('light-cct');
    simDevice(light)!.networkAddress = 'BEEF';
    expect((await data<Device>(send(deviceEndpoints.refreshNetwork, { body: { id: light.id } }))).networkAddress).toBe('BEEF');
    const sensor = byKind('sensor-temperature');
    await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: sensor.id, x: 0.2, y: 0.2 }] } }));
    const readings = await data<Array<{ id: string; temperature: number | null }>>(
      send(deviceEndpoints.temperatures, { params: { mapId, gatewayId: '0' } }),
    );
    expect(readings).toEqual([expect.objectContaining({ id: sensor.id, temperature: 22.5, online: true })]);
    expect(await data(send(deviceEndpoints.temperatures, { params: { mapId, gatewayId: gw.id } }))).toHaveLength(1);
  });

  it('lets controllable users control, only editable users configure or delete, view-only users read', async () => {
    const sensor = byKind('sensor-motion');
    const editable = await subAccount(h(), 'config@example.com', OPERATE_AUTH.editable);
    const controllable = await subAccount(h(), 'config@example.com', OPERATE_AUTH.controllable);
    const viewOnly = await subAccount(h(), 'config@example.com', OPERATE_AUTH.viewOnly);
    expect((await send(deviceEndpoints.setParams, { body: { id: sensor.id, params: { holdTime: 40 } } }, editable)).body.code).toBe(0);
    for (const t of [controllable, viewOnly]) {
      expectError(await send(deviceEndpoints.setParams, { body: { id: sensor.id, params: { holdTime: 50 } } }, t), 110003);
      expectError(await send(deviceEndpoints.setMotionParams, { body: { id: sensor.id, params: { holdTime: 50 } } }, t), 110003);
      expectError(await send(deviceEndpoints.remove, { body: { ids: [sensor.id], fromGateway: false } }, t), 110003);
      expectError(await send(deviceEndpoints.removeConfirmed, { params: { gatewayId: gw.id, id: sensor.id }, body: {} }, t), 110003);
      expectError(await send(deviceEndpoints.batchType, { body: { ids: [byKind('light-rgb').id], type: C['light-cct'] } }, t), 110003);
      expectError(await send(deviceEndpoints.refreshNetwork, { body: { id: sensor.id } }, t), 110003);
      expect((await send(deviceEndpoints.readParams, { body: { id: sensor.id } }, t)).body.code).toBe(0);
      expect((await send(deviceEndpoints.list, { body: {} }, t)).body.code).toBe(0);
    }
    expect((await send(deviceEndpoints.sensorOnOff, { body: { id: sensor.id, on: true } }, controllable)).body.code).toBe(0);
    expect(
      (await send(deviceEndpoints.broadControl, { body: { gatewayId: gw.id, action: { op: 'onOff', on: false } } }, controllable)).body
        .code,
    ).toBe(0);
    expectError(await send(deviceEndpoints.sensorOnOff, { body: { id: sensor.id, on: true } }, viewOnly), 110003);
    expectError(
      await send(deviceEndpoints.broadControl, { body: { gatewayId: gw.id, action: { op: 'onOff', on: false } } }, viewOnly),
      110003,
    );
    expect((await data<DeviceParamsRead>(send(deviceEndpoints.readParams, { body: { id: sensor.id } }))).params.holdTime).toBe(40);
  });

  it('deletes from the map only: the cloud forgets the device, the gateway keeps it', async () => {
    const device = byKind('panel-smart');
    expect(await data(send(deviceEndpoints.remove, { body: { ids: [device.id], fromGateway: false } }))).toEqual({ deleted: [device.id] });
    expectError(await send(deviceEndpoints.inputStatus, { params: { id: device.id } }), 110011);
    expect(simDevice(device)).toBeDefined();
  });

  it('deletes from the gateway as well: the device leaves the network', async () => {
    const device = byKind('panel-scene6');
    expect(await data(send(deviceEndpoints.remove, { body: { ids: [device.id], fromGateway: true } }))).toEqual({ deleted: [device.id] });
    expect(simDevice(device)).toBeUndefined();
    expect((await list({ pageSize: 200 })).list.map((d) => d.id)).not.toContain(device.id);
  });

  it('keeps a device whose gateway never answers, says deletion failed, and removes it when the user confirms', async () => {
    const [first, second] = [byKind('sensor-cct'), byKind('curtain')];
    sim().faults.noReply = new Set(['device.remove']);
    try {
      expectError(await send(deviceEndpoints.remove, { body: { ids: [first.id], fromGateway: true } }), 100205);
      expectError(await send(deviceEndpoints.remove, { body: { ids: [second.id], fromGateway: true } }, token(), 'ja'), 100205, 'ja');
    } finally {
      sim().faults.noReply = false;
    }
    // Still in the cloud after the failure.
    expect((await data<Device>(send(deviceEndpoints.inputStatus, { params: { id: first.id } }))).id).toBe(first.id);
    // Confirmed through del_device_succeed, or by sending again with force.
    expect(await data(send(deviceEndpoints.removeConfirmed, { params: { gatewayId: gw.id, id: first.id }, body: {} }))).toEqual({
      deleted: [first.id],
    });
    expectError(await send(deviceEndpoints.inputStatus, { params: { id: first.id } }), 110011);
    expect(await data(send(deviceEndpoints.remove, { body: { ids: [second.id], fromGateway: true, force: true } }))).toEqual({
      deleted: [second.id],
    });
    expectError(await send(deviceEndpoints.inputStatus, { params: { id: second.id } }), 110011);
  });
});

describe.each(SERVICE_DATABASES)('deleting bridges of a super gateway on %s', (kind) => {
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1, superGateways: 1, commandTimeoutMs: 800 }, 'bridges@example.com');

  beforeAll(async () => {
    const mapId = await defaultMapId(h(), token());
    const gw = await bind(h(), token(), sim().mac, mapId, 'Super gateway');
    await data(send(gatewayEndpoints.importDevices, { params: { id: gw.id } }));
  }, 60_000);

  it('refuses a bridge whose devices stay (260021) and removes a bridge with its devices from the gateway', async () => {
    const all = await data<DevicePage>(send(deviceEndpoints.list, { body: { pageSize: 200 } }));
    const bridge = all.list.find((d) => d.type === C.bridge && all.list.some((x) => x.bridgeId === d.id))!;
    const behind = all.list.filter((d) => d.bridgeId === bridge.id);
    expect(behind.length).toBeGreaterThan(0);
    expectError(await send(deviceEndpoints.remove, { body: { ids: [bridge.id], fromGateway: false } }), 260021);
    expectError(await send(deviceEndpoints.removeConfirmed, { params: { gatewayId: bridge.gatewayId, id: bridge.id }, body: {} }), 260021);
    const ids = [bridge.id, ...behind.map((d) => d.id)];
    expect((await data<{ deleted: string[] }>(send(deviceEndpoints.remove, { body: { ids, fromGateway: true } }))).deleted.sort()).toEqual(
      ids.sort(),
    );
    expect(sim().devices.has(bridge.addr.toUpperCase())).toBe(false);
    for (const d of behind) expect(sim().devices.has(d.addr.toUpperCase())).toBe(false);
  });
});
