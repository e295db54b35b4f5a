import type { DeviceState } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import type { ReportRow } from './device-reports.repo.ts';
import { deviceKey } from './device-reports.repo.ts';
import { digestOf, selectChanges } from './history-filter.ts';

const MINUTE = 60_000;
const rowOf = (state: Record<string, unknown>, receivedAt = 0): ReportRow => ({
  mac: 'A4C1380C0001',
  addr: String(state.addr),
  kind: 'light-dimmer',
  online: true,
  fault: 0,
  state: state as unknown as DeviceState,
  reportedAt: new Date(receivedAt).toISOString(),
  receivedAt: new Date(receivedAt).toISOString(),
});
const without = (state: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(state).filter(([k]) => k !== key));
const dimmer = { addr: '00C1', kind: 'light-dimmer', online: true, fault: 0, on: true, level: 40, power: 12.5, meta: { cct: 3000 } };

describe("a device state's digest", () => {
  it('is the same whatever order the gateway sent the fields in', () => {
    for (let level = 0; level <= 100; level++) {
      const state = { ...dimmer, level, power: level / 8 };
      const reversed = Object.fromEntries(Object.entries(state).reverse());
      const rotated = Object.fromEntries([...Object.entries(state).slice(3), ...Object.entries(state).slice(0, 3)]);
      expect([digestOf(rowOf(reversed)), digestOf(rowOf(rotated))]).toEqual([digestOf(rowOf(state)), digestOf(rowOf(state))]);
    }
  });

  it.each([
    ['a value changed', { ...dimmer, level: 41 }],
    ['a field added', { ...dimmer, energy: 0 }],
    ['a field gone', without(dimmer, 'power')],
    ['two values swapped', { ...dimmer, on: 40, level: true }],
    ['a number sent as text', { ...dimmer, level: '40' }],
    ['a nested value changed', { ...dimmer, meta: { cct: 3001 } }],
    ['a value moved to another field', { ...without(dimmer, 'level'), brightness: 40 }],
  ])('differs with %s', (_, changed) => {
    expect(digestOf(rowOf(changed))).not.toBe(digestOf(rowOf(dimmer)));
  });

  it('takes a field set to undefined for one not sent, as JSON does', () => {
    expect(digestOf(rowOf({ ...dimmer, energy: undefined }))).toBe(digestOf(rowOf(dimmer)));
  });

  it('is a whole number under 2^48, for a bigint column and a JavaScript number alike', () => {
    for (let level = 0; level <= 100; level++) {
      const digest = digestOf(rowOf({ ...dimmer, level }));
      expect(Number.isSafeInteger(digest) && digest >= 0 && digest < 2 ** 48).toBe(true);
    }
    expect(new Set(Array.from({ length: 101 }, (_, level) => digestOf(rowOf({ ...dimmer, level })))).size).toBe(101);
  });
});

describe('change-only selection', () => {
  it('keeps a change and a due heartbeat, and leaves out a repeat within the heartbeat', () => {
    const last = new Map([[deviceKey(rowOf(dimmer)), { digest: digestOf(rowOf(dimmer)), at: 0 }]]);
    const rows = [rowOf(dimmer, MINUTE), rowOf({ ...dimmer, level: 50 }, 2 * MINUTE), rowOf({ ...dimmer, level: 50 }, 18 * MINUTE)];
    const selection = selectChanges(rows, last, deviceKey, 15 * MINUTE);
    expect(selection.kept).toEqual([rows[1], rows[2]]);
    expect(selection.unchanged).toBe(1);
    expect(selection.taken.get(deviceKey(rows[2]!))).toEqual({ digest: digestOf(rows[2]!), at: 18 * MINUTE });
  });
});
