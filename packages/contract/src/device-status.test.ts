import { describe, expect, it } from 'vitest';
import {
  DALI_LIGHT_CODE,
  DEVICE_TYPE_CODES as C,
  DEVICE_TYPE_CODE_LIST,
  displayState,
  formatStatus,
  parseStatus,
  statusFamily,
  type DeviceStatus,
} from './index.ts';

/** One representative state per type code, covering every family. */
const SAMPLES: Record<number, { state: DeviceStatus; text: string }> = {
  [C['light-single']]: { state: { family: 'light', mode: 0, on: true, level: 254 }, text: '0:1:254:0' },
  [C['light-cct']]: { state: { family: 'light', mode: 1, on: true, level: 128, cct: 4600 }, text: '1:1:128:127' },
  [C['light-rgb']]: { state: { family: 'light', mode: 0, on: true, level: 200, rgb: { r: 255, g: 16, b: 0 } }, text: '0:1:200:0:255:16:0' },
  [C['light-dimmer']]: { state: { family: 'light', mode: 0, on: false, level: 0 }, text: '0:0:0:0' },
  [DALI_LIGHT_CODE]: { state: { family: 'light', mode: 0, on: true, level: 1 }, text: '0:1:1:0' },
  [C.curtain]: { state: { family: 'curtain', mode: 0, position: 40, motion: 'closing' }, text: '0:1:0:0:40:2' },
  [C['switch-1']]: { state: { family: 'switch', mode: 0, channels: [false] }, text: '0:0:0:0:0' },
  [C['switch-2']]: { state: { family: 'switch', mode: 0, channels: [true, false] }, text: '0:1:0:0:1:0' },
  [C['switch-3']]: { state: { family: 'switch', mode: 0, channels: [false, true, true] }, text: '0:1:0:0:0:1:1' },
  [C['switch-4']]: { state: { family: 'switch', mode: 0, channels: [true, true, true, true] }, text: '0:1:0:0:1:1:1:1' },
  [C['sensor-motion']]: { state: { family: 'motion', mode: 1, enabled: true, occupied: true, lux: 320 }, text: '1:1:0:0:1:320' },
  [C['sensor-daylight']]: { state: { family: 'daylight', mode: 0, enabled: false, lux: 60000 }, text: '0:0:0:0:60000' },
  [C['sensor-temperature']]: { state: { family: 'temperature', mode: 0, temperature: -12.5 }, text: '0:0:0:0:-125' },
  [C['sensor-cct']]: { state: { family: 'cctSensor', mode: 0, kelvin: 5000, lux: 800 }, text: '0:0:0:0:5000:800' },
  [C['panel-scene6']]: { state: { family: 'panel', mode: 0, key: 6, locked: false }, text: '0:0:0:0:6:0' },
  [C['panel-smart']]: { state: { family: 'panel', mode: 0, key: 0, locked: true }, text: '0:0:0:0:0:1' },
  [C.bridge]: { state: { family: 'bridge', mode: 0, devices: 42 }, text: '0:0:0:0:42' },
  [C['bridge-wisun']]: { state: { family: 'bridge', mode: 0, devices: 0 }, text: '0:0:0:0:0' },
  [C['bridge-dali']]: { state: { family: 'bridge', mode: 0, devices: 12 }, text: '0:0:0:0:12' },
  [C.emergency]: {
    state: { family: 'emergency', mode: 0, on: true, level: 254, emergencyState: 23, battery: 100 },
    text: '0:1:254:0:23:100',
  },
  [C['emergency-dimmable']]: {
    state: { family: 'emergency', mode: 0, on: true, level: 100, emergencyState: 16, battery: 57 },
    text: '0:1:100:0:16:57',
  },
  [C['super-gateway']]: { state: { family: 'superGateway', mode: 0, bridges: 3 }, text: '0:0:0:0:3' },
};

describe('status string', () => {
  it('has a sample for every type code', () => {
    expect(
      Object.keys(SAMPLES)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(DEVICE_TYPE_CODE_LIST);
  });

  it.each(DEVICE_TYPE_CODE_LIST)('formats and parses type %i both ways', (code) => {
    const { state, text } = SAMPLES[code] as { state: DeviceStatus; text: string };
    expect(statusFamily(code)).toBe(state.family);
    expect(formatStatus(code, state)).toEqual({ ok: true, value: text });
    expect(parseStatus(code, text)).toEqual({ ok: true, value: state });
  });

  it('round-trips every brightness and every device colour temperature of a CCT light', () => {
    for (let level = 0; level <= 254; level++) {
      for (const cctValue of [0, 1, level, 253, 254]) {
        const text = `0:1:${level}:${cctValue}`;
        const parsed = parseStatus(C['light-cct'], text);
        expect(parsed.ok, text).toBe(true);
        if (parsed.ok) expect(formatStatus(C['light-cct'], parsed.value)).toEqual({ ok: true, value: text });
      }
    }
  });

  it('writes a colour temperature as the nearest device value', () => {
    const r = formatStatus(C['light-cct'], { family: 'light', mode: 0, on: true, level: 254, cct: 2705 });
    expect(r).toEqual({ ok: true, value: '0:1:254:254' });
  });

  it('ignores fields a newer firmware appends', () => {
    expect(parseStatus(C['light-dimmer'], '0:1:10:0:7:8')).toEqual({ ok: true, value: { family: 'light', mode: 0, on: true, level: 10 } });
  });

  it('refuses malformed strings without throwing', () => {
    const light = C['light-dimmer'];
    expect(parseStatus(999, '0:1:1:0')).toEqual({ ok: false, error: { reason: 'unknownType' } });
    expect(parseStatus(light, '')).toEqual({ ok: false, error: { reason: 'fieldCount', expected: 4, got: 0 } });
    expect(parseStatus(light, '0:1:254')).toEqual({ ok: false, error: { reason: 'fieldCount', expected: 4, got: 3 } });
    expect(parseStatus(light, '0:1:x:0')).toEqual({ ok: false, error: { reason: 'notInteger', field: 2 } });
    expect(parseStatus(light, '0:1:1.5:0')).toEqual({ ok: false, error: { reason: 'notInteger', field: 2 } });
    expect(parseStatus(light, '0:1::0')).toEqual({ ok: false, error: { reason: 'notInteger', field: 2 } });
    expect(parseStatus(light, '0:1:255:0')).toEqual({ ok: false, error: { reason: 'outOfRange', field: 2 } });
    expect(parseStatus(light, '0:2:1:0')).toEqual({ ok: false, error: { reason: 'outOfRange', field: 1 } });
    expect(parseStatus(C['switch-4'], '0:1:0:0:1:1:1')).toMatchObject({ ok: false, error: { reason: 'fieldCount' } });
    expect(parseStatus(C.curtain, '0:1:0:0:101:0')).toEqual({ ok: false, error: { reason: 'outOfRange', field: 4 } });
    expect(parseStatus(light, '0:1:99999999999999999999:0')).toMatchObject({ ok: false });
    expect(parseStatus(light, undefined as unknown as string)).toMatchObject({ ok: false, error: { reason: 'fieldCount' } });
  });

  it('refuses states it cannot write without throwing', () => {
    expect(formatStatus(C['light-cct'], { family: 'switch', mode: 0, channels: [true] })).toEqual({
      ok: false,
      error: { reason: 'wrongFamily', expected: 'light' },
    });
    expect(formatStatus(C['light-cct'], { family: 'light', mode: 0, on: true, level: 254 })).toEqual({
      ok: false,
      error: { reason: 'outOfRange', field: 3 },
    });
    expect(formatStatus(C['light-rgb'], { family: 'light', mode: 0, on: true, level: 254 })).toMatchObject({
      ok: false,
      error: { reason: 'fieldCount' },
    });
    expect(formatStatus(C['switch-2'], { family: 'switch', mode: 0, channels: [true] })).toMatchObject({
      ok: false,
      error: { reason: 'fieldCount' },
    });
    expect(formatStatus(C['light-dimmer'], { family: 'light', mode: 0, on: true, level: 255 })).toEqual({
      ok: false,
      error: { reason: 'outOfRange', field: 2 },
    });
    expect(formatStatus(C['light-dimmer'], { family: 'light', mode: 0, on: true, level: 1.5 })).toEqual({
      ok: false,
      error: { reason: 'notInteger', field: 2 },
    });
    expect(formatStatus(999, { family: 'light', mode: 0, on: true, level: 1 })).toEqual({ ok: false, error: { reason: 'unknownType' } });
    expect(formatStatus(C['light-dimmer'], null as unknown as DeviceStatus)).toMatchObject({ ok: false });
  });
});

describe('display state (spec section 4)', () => {
  const show = (type: number, status: string, typeStatus = 0, fault?: number) => displayState({ type, status, typeStatus, fault });

  it('tells full load, partial load and off for lights', () => {
    expect(show(C['light-cct'], '0:1:254:0')).toBe('onFull');
    expect(show(C['light-cct'], '0:1:253:0')).toBe('onPartial');
    expect(show(C['light-cct'], '0:0:254:0')).toBe('off');
    expect(show(C['light-cct'], '0:1:0:0')).toBe('off');
    expect(show(C['light-single'], '0:1:0:0')).toBe('onFull');
  });

  it('tells switches and curtains by channels and position', () => {
    expect(show(C['switch-2'], '0:1:0:0:1:1')).toBe('onFull');
    expect(show(C['switch-2'], '0:1:0:0:1:0')).toBe('onPartial');
    expect(show(C['switch-2'], '0:0:0:0:0:0')).toBe('off');
    expect(show(C.curtain, '0:1:0:0:100:0')).toBe('onFull');
    expect(show(C.curtain, '0:1:0:0:50:1')).toBe('onPartial');
    expect(show(C.curtain, '0:0:0:0:0:0')).toBe('off');
  });

  it('puts offline before failure and failure before the load', () => {
    expect(show(C['light-cct'], '0:1:254:0', 2)).toBe('offline');
    expect(show(C['light-cct'], '0:1:254:0', 0, 2)).toBe('offline');
    expect(show(C['light-cct'], '0:1:254:0', 2, 8)).toBe('offline');
    expect(show(C['light-cct'], '0:1:254:0', 0, 8)).toBe('failure');
    expect(show(C['light-cct'], '0:1:254:0', 0, 0)).toBe('onFull');
    expect(show(C['light-cct'], '')).toBe('offline');
    expect(show(C['light-cct'], 'garbage')).toBe('failure');
  });

  it('reads emergency states', () => {
    expect(show(C.emergency, '0:1:254:0:23:100')).toBe('onFull');
    expect(show(C.emergency, '0:0:0:0:22:80')).toBe('off');
    expect(show(C.emergency, '0:1:254:0:30:0')).toBe('offline');
    expect(show(C.emergency, '0:1:254:0:2:0')).toBe('failure');
    expect(show(C['emergency-dimmable'], '0:1:100:0:21:50')).toBe('onPartial');
  });

  it('shows sensors, panels and bridges as working, never as a load, and a switched-off sensor as off', () => {
    expect(show(C['sensor-motion'], '0:1:0:0:0:10')).toBe('working');
    expect(show(C['sensor-motion'], '0:0:0:0:0:10')).toBe('off');
    expect(show(C.bridge, '0:0:0:0:5')).toBe('working');
    expect(show(C['panel-scene6'], '0:0:0:0:0:0')).toBe('working');
    expect(show(C['sensor-motion'], '0:1:0:0:0:10', 2)).toBe('offline');
  });
});
