import type { EmergencySchedule } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { nextPlannedRun, staggerWaves, type StaggerLight } from './emergency-plan.ts';

// The planning rules of emergency tests, without a database: which lights test together, and when a run starts.

const light = (id: number, x: number | null, y: number | null): StaggerLight => ({ id: BigInt(id), x, y });
const wavesOf = (lights: StaggerLight[], options = { spacingM: 5, planWidthM: 100, aspect: 1 }) =>
  [...staggerWaves(lights, options).entries()].map(([id, wave]) => [Number(id), wave]);

describe('staggerWaves: lights closer than the spacing never test together', () => {
  it('runs every light in wave 1 when the spacing is 0', () => {
    expect(wavesOf([light(1, 0.1, 0.1), light(2, 0.1, 0.1)], { spacingM: 0, planWidthM: 100, aspect: 1 })).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('puts two lights nearer than the spacing into different waves, and far ones together', () => {
    // 0.01 of a 100 m plan is 1 m apart; 0.5 is 50 m.
    expect(wavesOf([light(1, 0.1, 0.1), light(2, 0.11, 0.1), light(3, 0.6, 0.1)])).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
    ]);
  });

  it('lets lights exactly the spacing apart test together', () => {
    expect(wavesOf([light(1, 0, 0), light(2, 0.05, 0)])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('scales the height by the image’s aspect ratio', () => {
    // 0.04 of the height is 4 m on a square plan (too near), 8 m on a plan twice as tall as wide (far enough).
    const pair = [light(1, 0.5, 0.1), light(2, 0.5, 0.14)];
    expect(wavesOf(pair, { spacingM: 5, planWidthM: 100, aspect: 1 })).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(wavesOf(pair, { spacingM: 5, planWidthM: 100, aspect: 2 })).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('treats a light without a position as nobody’s neighbour', () => {
    expect(wavesOf([light(1, 0.1, 0.1), light(2, null, null), light(3, 0.1, null)])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
  });

  it('gives each light the first wave with no neighbour in it (greedy, in the given order)', () => {
    // A row 1 m apart: neighbours alternate, so two waves suffice.
    const row = [0, 1, 2, 3].map((i) => light(i + 1, i * 0.04, 0));
    expect(wavesOf(row)).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
      [4, 2],
    ]);
    // Three in one spot need three waves.
    expect(wavesOf([light(1, 0.2, 0.2), light(2, 0.2, 0.2), light(3, 0.2, 0.2)]).map(([, wave]) => wave)).toEqual([1, 2, 3]);
  });
});

describe('nextPlannedRun: the first run of a recurrence strictly after a moment', () => {
  const schedule = (over: Partial<EmergencySchedule>): EmergencySchedule => ({
    rule: 'monthly',
    day: 1,
    month: 1,
    time: '02:00',
    timeZone: '',
    ...over,
  });
  const next = (over: Partial<EmergencySchedule>, after: string, zone = 'UTC') =>
    nextPlannedRun(schedule(over), zone, new Date(after))?.toISOString() ?? null;

  it('has none for a task without a recurrence', () => {
    expect(next({ rule: 'none' }, '2026-11-23T00:00:00Z')).toBeNull();
  });

  it('takes this month’s day when it is still ahead, next month’s when it has passed', () => {
    expect(next({ day: 25 }, '2026-11-23T00:00:00Z')).toBe('2026-11-25T02:00:00.000Z');
    expect(next({ day: 5 }, '2026-11-23T00:00:00Z')).toBe('2026-12-05T02:00:00.000Z');
  });

  it('is strictly after: a run due at this very moment is the next month’s', () => {
    expect(next({ day: 23 }, '2026-11-23T02:00:00Z')).toBe('2026-12-23T02:00:00.000Z');
    expect(next({ day: 23 }, '2026-11-23T01:59:00Z')).toBe('2026-11-23T02:00:00.000Z');
  });

  it('rolls a monthly run over the end of the year', () => {
    expect(next({ day: 10 }, '2026-12-20T00:00:00Z')).toBe('2027-01-10T02:00:00.000Z');
  });

  it('runs a yearly task on its month and day, this year or the next', () => {
    expect(next({ rule: 'yearly', month: 12, day: 1 }, '2026-11-23T00:00:00Z')).toBe('2026-12-01T02:00:00.000Z');
    expect(next({ rule: 'yearly', month: 3, day: 1 }, '2026-11-23T00:00:00Z')).toBe('2027-03-01T02:00:00.000Z');
  });

  it('reads the start time on the task’s zone clock', () => {
    // 02:00 in Tokyo is 17:00 UTC the day before.
    expect(next({ day: 25 }, '2026-11-23T00:00:00Z', 'Asia/Tokyo')).toBe('2026-11-24T17:00:00.000Z');
  });

  it('follows daylight saving: 02:00 in London is 01:00 UTC in summer, 02:00 in winter', () => {
    expect(next({ rule: 'yearly', month: 7, day: 1 }, '2026-06-01T00:00:00Z', 'Europe/London')).toBe('2026-07-01T01:00:00.000Z');
    expect(next({ rule: 'yearly', month: 1, day: 1 }, '2026-06-01T00:00:00Z', 'Europe/London')).toBe('2027-01-01T02:00:00.000Z');
  });

  it('counts days on the zone’s calendar, a day ahead of UTC in Tokyo', () => {
    // 22:30 UTC on the 1st is 07:30 on the 2nd in Tokyo: the run of the 2nd at 08:00 is half an hour away.
    expect(next({ day: 2, time: '08:00' }, '2026-11-01T22:30:00Z', 'Asia/Tokyo')).toBe('2026-11-01T23:00:00.000Z');
    // Half an hour after it, the next is December's.
    expect(next({ day: 2, time: '08:00' }, '2026-11-01T23:30:00Z', 'Asia/Tokyo')).toBe('2026-12-01T23:00:00.000Z');
  });
});
