import { describe, expect, it } from 'vitest';
import {
  DALI_LIGHT_CODE,
  DEVICE_FAMILIES,
  DEVICE_TYPES,
  DEVICE_TYPE_CODES,
  DEVICE_TYPE_CODE_LIST,
  canBatchChange,
  deviceType,
  groupingProblem,
  typeCodeOfKind,
} from './index.ts';

const C = DEVICE_TYPE_CODES;

describe('device type table', () => {
  it('has every code the gateway import gives, under the same kind', () => {
    for (const [kind, code] of Object.entries(C)) {
      expect(deviceType(code)?.kind, kind).toBe(kind);
      expect(typeCodeOfKind(kind)).toBe(code);
    }
    expect(deviceType(DALI_LIGHT_CODE)?.dali).toBe(true);
    expect(DEVICE_TYPE_CODE_LIST).toHaveLength(Object.keys(C).length);
    expect(deviceType(999)).toBeUndefined();
  });

  it('gives each code its capabilities', () => {
    expect(DEVICE_TYPES[C['light-cct']]).toMatchObject({ dimmable: true, cct: true, rgb: false, lighting: true });
    expect(DEVICE_TYPES[C['light-rgb']]).toMatchObject({ dimmable: true, rgb: true });
    expect(DEVICE_TYPES[C['light-single']]).toMatchObject({ dimmable: false, onOff: true });
    expect([C['switch-1'], C['switch-2'], C['switch-3'], C['switch-4']].map((c) => deviceType(c)?.channels)).toEqual([1, 2, 3, 4]);
    expect(DEVICE_TYPES[C['sensor-daylight']]?.sensor).toBe('daylight');
    expect(DEVICE_TYPES[C['bridge-wisun']]).toMatchObject({ bridge: true, wisun: true });
    expect(DEVICE_TYPES[C['emergency-dimmable']]).toMatchObject({ emergency: true, dimmable: true, lighting: true });
    expect(DEVICE_TYPES[C['super-gateway']]?.superGateway).toBe(true);
  });

  it('lists the families of spec section 3', () => {
    expect(DEVICE_FAMILIES.switches).toEqual([20, 21, 22, 23]);
    expect(DEVICE_FAMILIES.fourWaySwitch).toEqual([C['switch-4']]);
    expect(DEVICE_FAMILIES.sensor).toEqual([30, 31, 32, 33]);
    expect(DEVICE_FAMILIES.bridge).toEqual([C.bridge, C['bridge-wisun'], C['bridge-dali']]);
    expect(DEVICE_FAMILIES.dali).toEqual([DALI_LIGHT_CODE]);
    expect(DEVICE_FAMILIES.wisun).toEqual([C['bridge-wisun']]);
    expect(DEVICE_FAMILIES.scenePanel).toEqual([C['panel-scene6']]);
    expect(DEVICE_FAMILIES.dimming).toEqual(
      [C['light-cct'], C['light-rgb'], C['light-dimmer'], DALI_LIGHT_CODE, C['emergency-dimmable']].sort((a, b) => a - b),
    );
    for (const [name, codes] of Object.entries(DEVICE_FAMILIES)) expect(codes.length, name).toBeGreaterThan(0);
  });

  it('changes in batch only between ordinary lights', () => {
    expect(DEVICE_FAMILIES.batchChangeable).toEqual([1, 2, 3, 4]);
    expect(canBatchChange(C['light-single'], C['light-cct'])).toBe(true);
    expect(canBatchChange(C['light-single'], C.emergency)).toBe(false);
    expect(canBatchChange(C['sensor-motion'], C['light-cct'])).toBe(false);
  });
});

describe('grouping rules (spec section 5)', () => {
  it('allows lights with sensors, switches, curtains and panels', () => {
    expect(groupingProblem([C['light-cct'], C['sensor-motion'], C['switch-2'], C.curtain, C['panel-smart']])).toBeUndefined();
    expect(groupingProblem([C['light-single']])).toBeUndefined();
  });

  it('keeps bridges and four-way switches apart from other devices', () => {
    expect(groupingProblem([C.bridge, C['light-cct']])).toBe(100202);
    expect(groupingProblem([C['switch-4'], C['light-cct']])).toBe(100202);
    expect(groupingProblem([C['switch-4'], C.bridge])).toBe(100202);
    expect(groupingProblem([C.bridge, C['bridge-wisun']])).toBeUndefined();
    expect(groupingProblem([C['switch-4'], C['switch-4']])).toBeUndefined();
  });

  it('keeps emergency devices apart from others', () => {
    expect(groupingProblem([C.emergency, C['light-cct']])).toBe(100203);
    expect(groupingProblem([C.emergency, C['emergency-dimmable']])).toBeUndefined();
  });

  it('needs at least one lighting device', () => {
    expect(groupingProblem([C['sensor-motion'], C['switch-1']])).toBe(100204);
    expect(groupingProblem([C.curtain])).toBe(100204);
  });

  it('refuses an empty group, unknown types and super gateways', () => {
    expect(groupingProblem([])).toBe(110009);
    expect(groupingProblem([C['light-cct'], 999])).toBe(100201);
    expect(groupingProblem([C['super-gateway'], C['light-cct']])).toBe(100201);
  });
});
