import { describe, expect, it } from 'vitest';
import {
  EMERGENCY_FAILURES,
  EMERGENCY_LIMITS,
  EMERGENCY_STATES,
  FUNCTION_RESULTS,
  LIFE_RESULTS,
  decodeDown,
  decodeResult,
  decodeUp,
  downTopic,
  emergencyDurationAllowed,
  encodeCommand,
  encodeUp,
  upTopic,
  type EventMessage,
} from './index.ts';

const MAC = 'A4C1380B229F';
const TS = Date.parse('2026-11-23T08:00:00Z');
const ADDR = '00124B0001A2B3C7';

describe('emergency constants', () => {
  it('names the state codes, results, failures and limits of spec section 4', () => {
    expect(Object.values(EMERGENCY_STATES).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 5, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 29, 30,
    ]);
    expect(FUNCTION_RESULTS).toEqual({ pass: 0, testing: 1, failed: 2 });
    expect(LIFE_RESULTS).toEqual({ stopped: 0, failed: 1, pass: 2, capacityLow: 3, testing: 4 });
    expect(EMERGENCY_FAILURES).toEqual(['battery', 'lamp', 'circuit', 'communication']);
    expect(EMERGENCY_LIMITS.batteryCells).toEqual({ min: 1, max: 20 });
    expect([15, 254].map((s) => emergencyDurationAllowed('function', s))).toEqual([true, true]);
    expect([14, 255].map((s) => emergencyDurationAllowed('function', s))).toEqual([false, false]);
    expect([300, 36_000, 299, 36_001].map((s) => emergencyDurationAllowed('life', s))).toEqual([true, true, false, false]);
  });
});

describe('emergency messages', () => {
  it('carries a final result with the battery measurements and failures, both ways through the codec', () => {
    const result: EventMessage = {
      type: 'emergency',
      ts: TS,
      addr: ADDR,
      test: 'life',
      state: EMERGENCY_STATES.batteryDepleted,
      result: LIFE_RESULTS.failed,
      progress: 75,
      voltageBefore: 5.2,
      voltageAfter: 4,
      durationS: 10_800,
      batteryVoltage: 4,
      batteryCurrent: 0.8,
      batteryTemperature: 30.8,
      batteryCells: 4,
      powerW: 3.2,
      failures: ['battery'],
    };
    const decoded = decodeUp(upTopic(MAC, 'event'), encodeUp('event', result));
    expect(decoded).toMatchObject({ ok: true, value: { channel: 'event', message: result } });
    // Progress events stay as they were: no measurements needed.
    const progress = { type: 'emergency', ts: TS, addr: ADDR, test: 'function', state: 19, progress: 40 };
    expect(decodeUp(upTopic(MAC, 'event'), JSON.stringify(progress)).ok).toBe(true);
  });

  it('refuses an unknown failure, a cell count out of range and an unknown light type', () => {
    const base = { type: 'emergency', ts: TS, addr: ADDR, test: 'function', state: 27, result: 0 };
    for (const bad of [{ failures: ['fuse'] }, { batteryCells: 21 }, { batteryCells: 0 }, { batteryTemperature: 200 }]) {
      expect(decodeUp(upTopic(MAC, 'event'), JSON.stringify({ ...base, ...bad })).ok, JSON.stringify(bad)).toBe(false);
    }
    const start = (params: object) =>
      decodeDown(downTopic(MAC, 'cmd'), JSON.stringify({ id: 'c1', name: 'emergency.start', params, ts: TS })).ok;
    const ok = { addrs: [ADDR], test: 'life', durationS: 5400 };
    expect(start({ ...ok, batteryCells: 20, lightType: 'non-maintained', allowWhileCharging: true })).toBe(true);
    expect(start({ ...ok, batteryCells: 21 })).toBe(false);
    expect(start({ ...ok, lightType: 'sometimes' })).toBe(false);
  });

  it('reads emergency status: the command and its result', () => {
    const command = encodeCommand({ id: 'c2', name: 'emergency.status', params: { addrs: [ADDR] }, ts: TS });
    expect(decodeDown(downTopic(MAC, 'cmd'), command)).toMatchObject({ ok: true, value: { message: { name: 'emergency.status' } } });
    const light = {
      addr: ADDR,
      state: 18,
      battery: 64,
      test: 'life',
      progress: 20,
      batteryVoltage: 4.9,
      ratedDurationMin: 180,
      failures: [],
      batteryCells: 4,
      lightType: 'maintained',
    };
    expect(decodeResult('emergency.status', { lights: [light] }).ok).toBe(true);
    const silent = { addr: ADDR, state: 30, battery: 64, batteryVoltage: 4.9, ratedDurationMin: 180, failures: ['communication'] };
    expect(decodeResult('emergency.status', { lights: [silent] }).ok).toBe(true);
    expect(decodeResult('emergency.status', { lights: [{ ...silent, battery: 101 }] }).ok).toBe(false);
    expect(decodeResult('emergency.status', { lights: [{ ...silent, failures: ['fuse'] }] }).ok).toBe(false);
    const { batteryVoltage: _dropped, ...withoutVoltage } = silent;
    expect(decodeResult('emergency.status', { lights: [withoutVoltage] }).ok).toBe(false);
  });
});
