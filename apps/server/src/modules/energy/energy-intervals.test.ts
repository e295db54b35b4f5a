import { describe, expect, it } from 'vitest';
import { counterDelta, localDateOf, localTimestampOf, spreadInterval, zoneOffsetMs } from './energy-intervals.ts';

const HOUR = 3_600_000;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('counterDelta', () => {
  it('is the growth of the counter, or the new value after a reset', () => {
    expect(counterDelta(100, 130)).toBe(30);
    expect(counterDelta(100, 100)).toBe(0);
    expect(counterDelta(100, 7)).toBe(7);
  });
});

describe('spreadInterval', () => {
  const spread = (fromIso: string, toIso: string, from: number, to: number, timeZone = 'UTC', ratedPowerW = 36) =>
    spreadInterval({
      from: { at: Date.parse(fromIso), counterWh: from },
      to: { at: Date.parse(toIso), counterWh: to },
      ratedPowerW,
      timeZone,
    });

  it('keeps the whole delta, split by the time in each hour', () => {
    const pieces = spread('2026-11-23T10:40:00Z', '2026-11-23T13:10:00Z', 0, 150);
    expect(sum(pieces.map((p) => p.energyWh))).toBeCloseTo(150, 9);
    const byHour = new Map<number, number>();
    for (const p of pieces) byHour.set(p.hour, (byHour.get(p.hour) ?? 0) + p.energyWh);
    // 20, 60, 60 and 10 minutes of 150 minutes.
    expect([...byHour.values()].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([20, 60, 60, 10]);
  });

  it('saves nothing on standby and never goes negative', () => {
    expect(sum(spread('2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z', 0, 0.3).map((p) => p.savedWh))).toBe(0);
    expect(sum(spread('2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z', 0, 50).map((p) => p.savedWh))).toBe(0);
    expect(sum(spread('2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z', 0, 12).map((p) => p.savedWh))).toBeCloseTo(24, 9);
  });

  it('puts quarter-hour zones on their own local hours (Kathmandu, UTC+5:45)', () => {
    const pieces = spread('2026-11-23T18:00:00Z', '2026-11-23T18:30:00Z', 0, 30, 'Asia/Kathmandu');
    // 18:00-18:15 UTC is 23:45-24:00 local, 18:15-18:30 is 00:00-00:15 the next day.
    expect(pieces.map((p) => [localTimestampOf(p.localHour), localDateOf(p.localHour), p.energyWh])).toEqual([
      ['2026-11-23 23:00:00', '2026-11-23', 15],
      ['2026-11-24 00:00:00', '2026-11-24', 15],
    ]);
  });

  it('follows summer time: London skips 01:00 local on 29 March 2026', () => {
    const pieces = spread('2026-03-29T00:00:00Z', '2026-03-29T02:00:00Z', 0, 20, 'Europe/London');
    const local = new Map<string, number>();
    for (const p of pieces) local.set(localTimestampOf(p.localHour), (local.get(localTimestampOf(p.localHour)) ?? 0) + p.energyWh);
    expect([...local]).toEqual([
      ['2026-03-29 00:00:00', 10],
      ['2026-03-29 02:00:00', 10],
    ]);
  });

  it('reads an unknown zone as UTC', () => {
    expect(zoneOffsetMs('Not/AZone', Date.parse('2026-11-23T00:00:00Z'))).toBe(0);
    expect(zoneOffsetMs('Asia/Tokyo', Date.parse('2026-11-23T00:00:00Z'))).toBe(9 * HOUR);
  });
});
