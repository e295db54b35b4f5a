import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODE_LIST, typeCodeOfKind } from './device-types.ts';
import { paramRules } from './device-params.ts';
import { PARAM_FIELD_CLASS, classFields, templateParamsProblems, typesWithClass } from './virtual-devices.ts';

describe('parameter sets', () => {
  it('puts every parameter of every device type in exactly one set', () => {
    const fields = new Set(DEVICE_TYPE_CODE_LIST.flatMap((code) => Object.keys(paramRules(code) ?? {})));
    const unclassified = [...fields].filter((field) => !Object.hasOwn(PARAM_FIELD_CLASS, field));
    expect(unclassified).toEqual([]);
  });

  it('splits a dimmer and a motion sensor between the sets as docs/decisions.md says', () => {
    const dimmer = typeCodeOfKind('light-dimmer')!;
    const motion = typeCodeOfKind('sensor-motion')!;
    expect(classFields(dimmer, 'function')).toEqual(['brightness', 'minBrightness', 'fadeTime', 'minPowerLevel', 'maxPowerLevel']);
    expect(classFields(dimmer, 'interface')).toEqual(['reportInterval', 'maxPower', 'powerIncreasePeriod', 'recoveryTime']);
    expect(classFields(motion, 'interface')).toEqual(['commandInterval', 'reportInterval']);
    expect(typesWithClass('function')).toContain(motion);
    expect(typesWithClass('interface')).toContain(dimmer);
  });

  it('checks a template with the device table and keeps each parameter in its set', () => {
    const dimmer = typeCodeOfKind('light-dimmer')!;
    expect(templateParamsProblems(dimmer, 'function', { fadeTime: 40, minBrightness: 10 })).toEqual([]);
    expect(templateParamsProblems(dimmer, 'function', { fadeTime: 255 })).toEqual([{ field: 'fadeTime', code: 100233 }]);
    expect(templateParamsProblems(dimmer, 'function', { reportInterval: 60 })).toEqual([{ field: 'reportInterval', code: 100701 }]);
    expect(templateParamsProblems(dimmer, 'interface', { holdTime: 60 })).toEqual([{ field: 'holdTime', code: 100209 }]);
    expect(templateParamsProblems(dimmer, 'interface', {})).toEqual([{ field: 'params', code: 100001 }]);
  });
});
