import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  BroadControlRequestSchema,
  ControlActionSchema,
  DeviceBatchTypeBodySchema,
  DEVICE_TYPE_CODES as C,
  DeviceControlBodySchema,
  DeviceDeleteBodySchema,
  DeviceMoveInBodySchema,
  DeviceParamsBodySchema,
  GroupAddBodySchema,
  GroupUpdateBodySchema,
  LibraryTypeAddBodySchema,
  TemperatureParamsSchema,
  controlProblem,
  deviceNameProblem,
  groupDisplay,
  joinChannelNames,
  splitChannelNames,
  type ControlAction,
} from './index.ts';

describe('device names', () => {
  it('allows 1-25 characters', () => {
    expect(deviceNameProblem(C['light-cct'], 'x')).toBeUndefined();
    expect(deviceNameProblem(C['light-cct'], 'x'.repeat(25))).toBeUndefined();
    expect(deviceNameProblem(C['light-cct'], '灯'.repeat(25))).toBeUndefined();
    expect(deviceNameProblem(C['light-cct'], 'x'.repeat(26))).toBe(100011);
    expect(deviceNameProblem(C['light-cct'], '  ')).toBe(100001);
  });

  it('names every channel of a switch, joined by the delimiter', () => {
    const name = joinChannelNames(['Hall', 'Stairs', 'Door']);
    expect(name).toBe('Hall|Stairs|Door');
    expect(splitChannelNames(name)).toEqual(['Hall', 'Stairs', 'Door']);
    expect(deviceNameProblem(C['switch-3'], name)).toBeUndefined();
    expect(deviceNameProblem(C['switch-3'], 'Hall|Stairs')).toBe(100001);
    expect(deviceNameProblem(C['switch-2'], `Hall|${'x'.repeat(26)}`)).toBe(100011);
    expect(deviceNameProblem(C['light-cct'], 'a|b')).toBe(100001);
  });
});

describe('control', () => {
  const act = (a: ControlAction) => a;
  it('accepts each action within its range', () => {
    for (const a of [
      act({ op: 'onOff', on: true }),
      act({ op: 'brightness', percent: 0 }),
      act({ op: 'brightness', percent: 100 }),
      act({ op: 'cct', kelvin: 2700 }),
      act({ op: 'cct', kelvin: 6500 }),
      act({ op: 'rgb', color: '#00FF7f' }),
      act({ op: 'curtain', command: 'stop' }),
      act({ op: 'position', percent: 50 }),
      act({ op: 'channel', channel: 4, on: false }),
    ]) {
      expect(Value.Check(ControlActionSchema, a), JSON.stringify(a)).toBe(true);
    }
    for (const bad of [
      { op: 'brightness', percent: 101 },
      { op: 'brightness', percent: -1 },
      { op: 'cct', kelvin: 2699 },
      { op: 'cct', kelvin: 6501 },
      { op: 'rgb', color: 'red' },
      { op: 'curtain', command: 'up' },
      { op: 'channel', channel: 5, on: true },
      { op: 'onOff', on: true, extra: 1 },
    ]) {
      expect(Value.Check(ControlActionSchema, bad), JSON.stringify(bad)).toBe(false);
    }
    expect(Value.Check(DeviceControlBodySchema, { id: '12', action: { op: 'onOff', on: false } })).toBe(true);
  });

  it('refuses actions the type cannot do', () => {
    expect(controlProblem(C['light-cct'], { op: 'cct', kelvin: 3000 })).toBeUndefined();
    expect(controlProblem(C['light-rgb'], { op: 'cct', kelvin: 3000 })).toBe(100209);
    expect(controlProblem(C['light-rgb'], { op: 'rgb', color: '#ffffff' })).toBeUndefined();
    expect(controlProblem(C['light-single'], { op: 'brightness', percent: 50 })).toBe(100209);
    expect(controlProblem(C.curtain, { op: 'position', percent: 50 })).toBeUndefined();
    expect(controlProblem(C['light-cct'], { op: 'curtain', command: 'open' })).toBe(100209);
    expect(controlProblem(C['switch-2'], { op: 'channel', channel: 2, on: true })).toBeUndefined();
    expect(controlProblem(C['switch-2'], { op: 'channel', channel: 3, on: true })).toBe(100209);
    expect(controlProblem(C.bridge, { op: 'onOff', on: true })).toBe(100209);
    expect(controlProblem(999, { op: 'onOff', on: true })).toBe(100208);
  });
});

describe('device and group bodies', () => {
  it('checks placements, deletion and parameters', () => {
    expect(Value.Check(DeviceMoveInBodySchema, { mapId: '1', devices: [{ id: '2', x: 0, y: 1 }] })).toBe(true);
    expect(Value.Check(DeviceMoveInBodySchema, { mapId: '1', devices: [{ id: '2', x: 1.2, y: 0 }] })).toBe(false);
    expect(Value.Check(DeviceMoveInBodySchema, { mapId: '1', devices: [] })).toBe(false);
    expect(Value.Check(DeviceDeleteBodySchema, { ids: ['1'], fromGateway: true, force: true })).toBe(true);
    expect(Value.Check(DeviceDeleteBodySchema, { ids: ['1'] })).toBe(false);
    expect(Value.Check(DeviceParamsBodySchema, { id: '1', params: { holdTime: 30 } })).toBe(true);
  });

  it('allows group names of 1-21 characters', () => {
    expect(Value.Check(GroupAddBodySchema, { mapId: '1', gatewayId: '2', name: 'x'.repeat(21), deviceIds: ['3'] })).toBe(true);
    expect(Value.Check(GroupAddBodySchema, { mapId: '1', gatewayId: '2', name: 'x'.repeat(22), deviceIds: ['3'] })).toBe(false);
    expect(Value.Check(GroupAddBodySchema, { mapId: '1', gatewayId: '2', name: '', deviceIds: ['3'] })).toBe(false);
    expect(Value.Check(GroupUpdateBodySchema, { id: '1', name: 'Lobby' })).toBe(true);
  });

  it('checks the library limits', () => {
    const base = { name: 'Panel 60', type: C['light-cct'], partNumber: 'P-60' };
    expect(Value.Check(LibraryTypeAddBodySchema, { ...base, initialPower: 0, lifespan: 10000 })).toBe(true);
    expect(Value.Check(LibraryTypeAddBodySchema, { ...base, initialPower: 10000, lifespan: 100000 })).toBe(true);
    expect(Value.Check(LibraryTypeAddBodySchema, { ...base, initialPower: 10001, lifespan: 10000 })).toBe(false);
    expect(Value.Check(LibraryTypeAddBodySchema, { ...base, initialPower: 1, lifespan: 9999 })).toBe(false);
  });
});

describe('group display state', () => {
  it('says so when members are offline', () => {
    expect(groupDisplay([])).toEqual({ display: 'off', offline: 0, failure: 0 });
    expect(groupDisplay(['onFull', 'onFull'])).toEqual({ display: 'onFull', offline: 0, failure: 0 });
    expect(groupDisplay(['onFull', 'offline'])).toEqual({ display: 'onPartial', offline: 1, failure: 0 });
    expect(groupDisplay(['off', 'offline'])).toEqual({ display: 'off', offline: 1, failure: 0 });
    expect(groupDisplay(['offline', 'offline'])).toEqual({ display: 'offline', offline: 2, failure: 0 });
    expect(groupDisplay(['failure', 'offline'])).toEqual({ display: 'failure', offline: 1, failure: 1 });
    expect(groupDisplay(['onFull', 'off'])).toEqual({ display: 'onPartial', offline: 0, failure: 0 });
    expect(groupDisplay(['onPartial', 'onPartial'])).toEqual({ display: 'onPartial', offline: 0, failure: 0 });
  });
});

describe('device configuration bodies', () => {
  it('takes parameter values of any shape, so validateParams gives each field its own message', () => {
    expect(Value.Check(DeviceParamsBodySchema, { id: '1', params: { holdTime: '60', stairsMode: 1, lampCounts: [1, 2] } })).toBe(true);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`p${i}`, 1]));
    expect(Value.Check(DeviceParamsBodySchema, { id: '1', params: many })).toBe(false);
    expect(Value.Check(DeviceParamsBodySchema, { id: '1' })).toBe(false);
  });

  it('names a gateway or every gateway (0) for the temperatures of a map', () => {
    expect(Value.Check(TemperatureParamsSchema, { mapId: '3', gatewayId: '0' })).toBe(true);
    expect(Value.Check(TemperatureParamsSchema, { mapId: '3', gatewayId: '12' })).toBe(true);
    expect(Value.Check(TemperatureParamsSchema, { mapId: '3', gatewayId: '012' })).toBe(false);
    expect(Value.Check(TemperatureParamsSchema, { mapId: '3', gatewayId: '-1' })).toBe(false);
  });

  it('checks a broadcast action as the flat control action', () => {
    expect(Value.Check(BroadControlRequestSchema, { gatewayId: '2', action: { op: 'onOff', on: true } })).toBe(true);
    expect(Value.Check(BroadControlRequestSchema, { gatewayId: '2', action: { op: 'dance' } })).toBe(false);
    expect(Value.Check(DeviceBatchTypeBodySchema, { ids: [], type: C['light-cct'] })).toBe(false);
    expect(Value.Check(DeviceDeleteBodySchema, { ids: ['1'], fromGateway: true, force: true })).toBe(true);
  });
});
