import { describe, expect, it } from 'vitest';
import { createDevice } from './devices.ts';
import { changeKind, defaultParams, readParams, writeParams } from './device-params.ts';
import { CommandError } from '@lumigrid/protocol';

const motion = () => createDevice('00124B0000000009', 'sensor-motion', 9, 0);

describe('parameters a simulated device keeps', () => {
  it('starts from the kind\u2019s defaults and keeps what is written', () => {
    const device = motion();
    expect(readParams(device)).toMatchObject({ sensorMode: 'independent', holdTime: 60, stairsMode: false });
    expect(writeParams(device, { holdTime: 120, sensorMode: 'linkage' })).toMatchObject({ holdTime: 120, sensorMode: 'linkage', lux: 300 });
    expect(readParams(device)).toMatchObject({ holdTime: 120, sensorMode: 'linkage' });
  });

  it('refuses a name the device lacks or a value of the wrong shape, and then changes nothing', () => {
    const device = motion();
    const before = readParams(device);
    expect(() => writeParams(device, { holdTime: 30, fadeTime: 5 })).toThrow(CommandError);
    expect(() => writeParams(device, { stairsMode: 1 })).toThrow(/wrong shape/);
    const sw = createDevice('00124B0000000006', 'switch-2', 6, 0);
    expect(() => writeParams(sw, { lampCounts: [1, 2, 3] })).toThrow(/wrong shape/);
    expect(writeParams(sw, { lampCounts: [3, 4] }).lampCounts).toEqual([3, 4]);
    expect(readParams(device)).toEqual(before);
  });

  it('answers copies, so a caller cannot change the device\u2019s memory', () => {
    const sw = createDevice('00124B0000000006', 'switch-2', 6, 0);
    (readParams(sw).lampCounts as number[])[0] = 99;
    expect(readParams(sw).lampCounts).toEqual([1, 1]);
  });

  it('turns a light into another kind, keeping on and level, with the new kind\u2019s parameters', () => {
    const light = createDevice('00124B0000000000', 'light-single', 0, 0);
    light.state.on = true;
    light.state.level = 254;
    changeKind(light, 'light-cct');
    expect(light.state).toMatchObject({ kind: 'light-cct', on: true, level: 254, cct: 4000 });
    expect(readParams(light)).toEqual(defaultParams('light-cct'));
    expect(defaultParams('bridge')).toEqual({});
  });
});
