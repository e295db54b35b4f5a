import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  DALI_LIGHT_CODE,
  DEVICE_TYPE_CODES as C,
  DEVICE_TYPE_CODE_LIST,
  DeviceParamsSchema,
  ERRORS,
  PARAM_RANGES,
  PARAM_ROWS,
  microwaveProblem,
  paramRules,
  validateParams,
  type RangeRule,
} from './index.ts';

/** Every (type, field, range) the table holds. */
const RANGE_FIELDS = DEVICE_TYPE_CODE_LIST.flatMap((type) =>
  Object.entries(paramRules(type) ?? {}).flatMap(([field, rule]) => (rule.kind === 'range' ? [{ type, field, rule }] : [])),
);

/** The spec table, row by row, with the ranges it gives (spec section 5). */
const SPEC_TABLE: Array<[string, Array<[number, number]>]> = [
  ['brightness', [[0, 100]]],
  [
    'holdTime',
    [
      [10, 2540],
      [0, 2540],
      [1, 7200],
      [1, 57600],
    ],
  ],
  ['sensingCount', [[10, 2540]]],
  [
    'lux',
    [
      [0, 60000],
      [0, 4000],
    ],
  ],
  ['commandInterval', [[10, 3600]]],
  ['maxPower', [[1, 99]]],
  ['powerIncreasePeriod', [[1, 59999]]],
  ['recoveryTime', [[0, 5000]]],
  ['minBrightness', [[0, 30]]],
  [
    'fadeTime',
    [
      [0, 254],
      [0, 65535],
    ],
  ],
  ['reportInterval', [[10, 900]]],
  ['powerLevel', [[1, 100]]],
  ['temperature', [[-20, 50]]],
  ['curtainRunTime', [[10, 254]]],
  ['lampCount', [[0, 25]]],
  ['batteryCells', [[1, 20]]],
  [
    'sequenceNumber',
    [
      [1, 7],
      [1, 8],
    ],
  ],
  ['functionTestDuration', [[15, 254]]],
  ['lifeTestDuration', [[5, 600]]],
];

describe('device parameter table (spec section 5)', () => {
  it('holds exactly the rows and ranges of the spec', () => {
    expect(SPEC_TABLE.map(([row]) => row)).toEqual([...PARAM_ROWS]);
    for (const [row, ranges] of SPEC_TABLE) {
      const ours = Object.values(PARAM_RANGES as Record<string, RangeRule>)
        .filter((r) => r.row === row)
        .map((r) => [r.min, r.max]);
      expect(ours, row).toEqual(ranges);
    }
  });

  it('uses every range on some device kind, except none', () => {
    const used = new Set<RangeRule>(RANGE_FIELDS.map((f) => f.rule));
    for (const t of DEVICE_TYPE_CODE_LIST) {
      for (const rule of Object.values(paramRules(t) ?? {})) if (rule.kind === 'perChannel') used.add(rule.rule);
    }
    for (const [name, rule] of Object.entries(PARAM_RANGES)) expect(used.has(rule), name).toBe(true);
  });

  it('has a message in every language for every range, naming the range', () => {
    for (const rule of Object.values(PARAM_RANGES as Record<string, RangeRule>)) {
      const msg = ERRORS[rule.code];
      for (const lang of ['en', 'cn', 'tc', 'ja'] as const) expect(msg[lang], `${rule.code} ${lang}`).not.toBe('');
      expect(msg.en).toContain(String(rule.max));
    }
    expect(ERRORS[100221].en).toMatch(/multiple of 10/);
    expect(ERRORS[100243].en).toMatch(/^Invalid Input/);
    expect(ERRORS[100244].en).toMatch(/^Invalid Input/);
  });

  it.each(RANGE_FIELDS.map((f) => [f.type, f.field, f.rule] as const))(
    'type %i %s: accepts the edges, refuses one past them',
    (type, field, rule) => {
      expect(validateParams(type, { [field]: rule.min })).toEqual([]);
      expect(validateParams(type, { [field]: rule.max })).toEqual([]);
      const step = rule.step ?? 1;
      expect(validateParams(type, { [field]: rule.min - step })).toEqual([{ field, code: rule.code }]);
      expect(validateParams(type, { [field]: rule.max + step })).toEqual([{ field, code: rule.code }]);
      expect(validateParams(type, { [field]: String(rule.min) })).toEqual([{ field, code: rule.code }]);
      expect(validateParams(type, { [field]: rule.min + 0.5 })).toEqual([{ field, code: 100246 }]);
    },
  );

  it('wants hold times in steps of 10 where the device keeps tens of seconds', () => {
    expect(validateParams(C['sensor-motion'], { holdTime: 15 })).toEqual([{ field: 'holdTime', code: 100221 }]);
    expect(validateParams(C['sensor-motion'], { holdTime: 9 })).toEqual([{ field: 'holdTime', code: 100221 }]);
    expect(validateParams(C['sensor-motion'], { linkageHoldTime: 0 })).toEqual([]);
    expect(validateParams(C['sensor-motion'], { linkageHoldTime: 5 })).toEqual([{ field: 'linkageHoldTime', code: 100222 }]);
    expect(validateParams(C['sensor-daylight'], { holdTime: 7 })).toEqual([]);
  });

  it('gives each kind its own ranges', () => {
    expect(validateParams(C['sensor-motion'], { lux: 4001 })).toEqual([{ field: 'lux', code: 100227 }]);
    expect(validateParams(C['sensor-daylight'], { lux: 4001 })).toEqual([]);
    expect(validateParams(C['light-cct'], { fadeTime: 255 })).toEqual([{ field: 'fadeTime', code: 100233 }]);
    expect(validateParams(DALI_LIGHT_CODE, { fadeTime: 65535 })).toEqual([]);
    expect(validateParams(C['panel-scene6'], { sequenceNumber: 8 })).toEqual([{ field: 'sequenceNumber', code: 100241 }]);
    expect(validateParams(C['panel-smart'], { sequenceNumber: 8 })).toEqual([]);
  });

  it('checks the sensor mode and stairs mode', () => {
    expect(validateParams(C['sensor-motion'], { sensorMode: 'independent', stairsMode: true })).toEqual([]);
    expect(validateParams(C['sensor-daylight'], { sensorMode: 'linkage' })).toEqual([]);
    expect(validateParams(C['sensor-motion'], { sensorMode: 'other' })).toEqual([{ field: 'sensorMode', code: 100245 }]);
    expect(validateParams(C['sensor-motion'], { stairsMode: 1 })).toEqual([{ field: 'stairsMode', code: 100001 }]);
  });

  it('checks lamp counts channel by channel', () => {
    expect(validateParams(C['switch-4'], { lampCounts: [0, 25, 3, 4] })).toEqual([]);
    expect(validateParams(C['switch-2'], { lampCounts: [26, -1] })).toEqual([
      { field: 'lampCounts[0]', code: 100239 },
      { field: 'lampCounts[1]', code: 100239 },
    ]);
    expect(validateParams(C['switch-2'], { lampCounts: [1, 2, 3] })).toEqual([{ field: 'lampCounts', code: 100239 }]);
    expect(validateParams(C['switch-1'], { lampCounts: 3 })).toEqual([{ field: 'lampCounts', code: 100239 }]);
  });

  it('wants the minimum power level below the maximum', () => {
    expect(validateParams(C['light-cct'], { minPowerLevel: 10, maxPowerLevel: 90 })).toEqual([]);
    expect(validateParams(C['light-cct'], { minPowerLevel: 90, maxPowerLevel: 90 })).toEqual([{ field: 'minPowerLevel', code: 100210 }]);
    expect(validateParams(C['light-cct'], { minPowerLevel: 0, maxPowerLevel: 90 })).toEqual([{ field: 'minPowerLevel', code: 100236 }]);
  });

  it('refuses fields the kind does not have and unknown types', () => {
    expect(validateParams(C['light-single'], { brightness: 50 })).toEqual([{ field: 'brightness', code: 100209 }]);
    expect(validateParams(C.curtain, { holdTime: 10, curtainRunTime: 10 })).toEqual([{ field: 'holdTime', code: 100209 }]);
    expect(validateParams(C.bridge, { reportInterval: 10 })).toEqual([{ field: 'reportInterval', code: 100209 }]);
    expect(validateParams(C.curtain, { toString: 1 })).toEqual([{ field: 'toString', code: 100209 }]);
    expect(validateParams(999, { brightness: 1 })).toEqual([{ field: 'type', code: 100208 }]);
  });

  it('reports every bad field at once and skips undefined ones', () => {
    expect(
      validateParams(C.emergency, { batteryCells: 0, functionTestDuration: 14, lifeTestDuration: 601, reportInterval: undefined }),
    ).toEqual([
      { field: 'batteryCells', code: 100240 },
      { field: 'functionTestDuration', code: 100243 },
      { field: 'lifeTestDuration', code: 100244 },
    ]);
  });

  it('lets the body schema carry every kind of value', () => {
    expect(Value.Check(DeviceParamsSchema, { holdTime: 30, sensorMode: 'linkage', stairsMode: false, lampCounts: [1, 2] })).toBe(true);
    expect(Value.Check(DeviceParamsSchema, { holdTime: { nested: 1 } })).toBe(false);
  });
});

describe('microwave sensor parameters (set_mawa_params)', () => {
  it('checks each field against its row of spec section 5', () => {
    expect(microwaveProblem('holdTime', 120)).toBeUndefined();
    expect(microwaveProblem('holdTime', 125)).toBe(100221);
    expect(microwaveProblem('holdTime', 0)).toBe(100221);
    expect(microwaveProblem('lux', 4000)).toBeUndefined();
    expect(microwaveProblem('lux', 4001)).toBe(100227);
    expect(microwaveProblem('brightness', 101)).toBe(100220);
    expect(microwaveProblem('standbyBrightness', 31)).toBe(100232);
    expect(microwaveProblem('brightness', 2.5)).toBe(100246);
    expect(microwaveProblem('lux', null)).toBeUndefined();
  });
});
