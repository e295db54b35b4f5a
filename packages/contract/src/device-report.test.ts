import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES as C, DEVICE_TYPE_CODE_LIST, displayState, formatStatus, statusFromReport } from './index.ts';

describe('state from a gateway report', () => {
  it('gives a writable state for every type from an empty report', () => {
    for (const code of DEVICE_TYPE_CODE_LIST) {
      const r = statusFromReport(code, {});
      expect(r.ok, String(code)).toBe(true);
      if (r.ok) expect(formatStatus(code, r.value).ok, String(code)).toBe(true);
    }
  });

  it('writes what a light reports, CCT to the nearest device value', () => {
    const r = statusFromReport(C['light-cct'], { on: true, level: 200, cct: 3000 });
    expect(r.ok && formatStatus(C['light-cct'], r.value)).toEqual({ ok: true, value: '0:1:200:234' });
    const rgb = statusFromReport(C['light-rgb'], { on: true, level: 254, rgb: [1, 2, 3] });
    expect(rgb.ok && formatStatus(C['light-rgb'], rgb.value)).toEqual({ ok: true, value: '0:1:254:0:1:2:3' });
  });

  it('writes a single-colour light, which does not dim, at full whenever it is on, as it is shown', () => {
    const code = C['light-single'];
    const echoed = statusFromReport(code, { on: true, level: 127 });
    expect(echoed.ok && formatStatus(code, echoed.value)).toEqual({ ok: true, value: '0:1:254:0' });
    expect(echoed.ok && displayState({ type: code, typeStatus: 0, fault: 0, status: '0:1:254:0' })).toBe('onFull');
    const off = statusFromReport(code, { on: false, level: 127 });
    expect(off.ok && formatStatus(code, off.value)).toEqual({ ok: true, value: '0:0:0:0' });
  });

  it('keeps what the report leaves out, including the mode', () => {
    const before = { family: 'motion', mode: 1, enabled: true, occupied: false, lux: 12 } as const;
    expect(statusFromReport(C['sensor-motion'], { occupied: true }, before)).toEqual({ ok: true, value: { ...before, occupied: true } });
    const sw = statusFromReport(C['switch-3'], { channels: [true] }, { family: 'switch', mode: 0, channels: [false, true, true] });
    expect(sw).toEqual({ ok: true, value: { family: 'switch', mode: 0, channels: [true, true, true] } });
  });

  it('refuses what it cannot write', () => {
    expect(statusFromReport(C['light-dimmer'], { level: 300 })).toEqual({ ok: false, error: { reason: 'outOfRange', field: 2 } });
    expect(statusFromReport(999, {})).toEqual({ ok: false, error: { reason: 'unknownType' } });
    const t = statusFromReport(C['sensor-temperature'], { temperature: -12.345 });
    expect(t.ok && formatStatus(C['sensor-temperature'], t.value)).toEqual({ ok: true, value: '0:0:0:0:-123' });
  });
});
