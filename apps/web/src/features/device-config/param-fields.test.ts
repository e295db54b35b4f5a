import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES as C, DEVICE_TYPE_CODE_LIST, ERRORS } from '@lumigrid/contract/browser';
import en from '../../i18n/en.json';
import { fieldProblem, filledParams, formProblems, paramFields, typeNameKey } from './param-fields.ts';

describe('device parameter editor fields', () => {
  it('gives a motion sensor its sensing fields with the spec ranges and a switch one count per channel', () => {
    const motion = paramFields(C['sensor-motion']);
    expect(motion.map((f) => f.name)).toEqual(
      expect.arrayContaining(['sensorMode', 'holdTime', 'sensingCount', 'lux', 'stairsMode', 'stairsHoldTime']),
    );
    expect(motion.find((f) => f.name === 'holdTime')?.input).toMatchObject({ kind: 'number', rule: { min: 10, max: 2540, step: 10 } });
    expect(motion.find((f) => f.name === 'stairsMode')?.input.kind).toBe('flag');
    expect(motion.find((f) => f.name === 'sensorMode')?.input).toEqual({ kind: 'mode', choices: ['independent', 'linkage'] });
    expect(paramFields(C['switch-3']).find((f) => f.name === 'lampCounts')?.input).toMatchObject({
      kind: 'perChannel',
      channels: 3,
      rule: { max: 25 },
    });
    expect(paramFields(C.bridge)).toEqual([]);
  });

  it('shows the server\u2019s own message for a value out of range, in the user\u2019s language', () => {
    expect(fieldProblem(C['sensor-motion'], 'holdTime', 15, 'en')).toBe(ERRORS[100221].en);
    expect(fieldProblem(C['sensor-motion'], 'lux', 4001, 'ja')).toBe(ERRORS[100227].ja);
    expect(fieldProblem(C['sensor-motion'], 'lux', 4000, 'en')).toBeUndefined();
    expect(fieldProblem(C['sensor-motion'], 'lux', null, 'en')).toBeUndefined();
    expect(formProblems(C['light-cct'], { minPowerLevel: 50, maxPowerLevel: 40 }, 'cn')).toEqual([
      { name: ['minPowerLevel'], message: ERRORS[100210].cn },
    ]);
    expect(formProblems(C['switch-2'], { lampCounts: [1, 30] }, 'en')).toEqual([{ name: ['lampCounts', 1], message: ERRORS[100239].en }]);
  });

  it('sends only filled fields', () => {
    expect(filledParams({ holdTime: 30, lux: null, sensorMode: 'linkage', stairsMode: false, lampCounts: [1, undefined] })).toEqual({
      holdTime: 30,
      sensorMode: 'linkage',
      stairsMode: false,
    });
  });

  it('has a name in the catalogue for every type and every parameter', () => {
    const catalogue = en as unknown as { deviceConfig: { types: Record<string, string>; param: Record<string, string> } };
    for (const code of DEVICE_TYPE_CODE_LIST) {
      const key = typeNameKey(code).split('.').pop()!;
      expect(catalogue.deviceConfig.types[key], `type ${code}`).toBeTruthy();
      for (const field of paramFields(code)) expect(catalogue.deviceConfig.param[field.name], field.name).toBeTruthy();
    }
  });
});
