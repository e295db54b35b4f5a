import type { GatewayConfig } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import { dueSchedules, sunTimes } from './schedule.ts';

const config = (schedules: GatewayConfig['schedules'], holidays?: string[]): GatewayConfig => ({
  groups: [],
  scenes: [],
  linkages: [],
  schedules,
  ...(holidays ? { holidays } : {}),
});
const at = (iso: string) => Date.parse(iso);

describe('sun times', () => {
  it('puts Tokyo midsummer sunrise near 04:25 and sunset near 19:00 local time', () => {
    const sun = sunTimes('2026-06-21', 35.68, 139.69)!;
    const local = (t: number) => new Date(t + 9 * 3600_000).toISOString().slice(11, 16);
    expect(Math.abs(Date.parse(`2026-06-21T${local(sun.sunrise)}:00Z`) - Date.parse('2026-06-21T04:25:00Z'))).toBeLessThan(5 * 60_000);
    expect(Math.abs(Date.parse(`2026-06-21T${local(sun.sunset)}:00Z`) - Date.parse('2026-06-21T19:00:00Z'))).toBeLessThan(5 * 60_000);
  });

  it('has none in the polar night', () => {
    expect(sunTimes('2026-12-21', 80, 15)).toBeUndefined();
  });
});

describe('due schedules', () => {
  // 2026-11-23 is a Monday.
  const monday1930 = { id: 1, scene: 1, days: [1], at: '19:30' as const };

  it('fires a clock time once, in the gateway time zone, on its days only', () => {
    const c = config([monday1930]);
    expect(dueSchedules(c, { timezone: 'Asia/Tokyo' }, at('2026-11-23T10:29:00Z'), at('2026-11-23T10:31:00Z'))).toEqual([monday1930]);
    expect(dueSchedules(c, { timezone: 'Asia/Tokyo' }, at('2026-11-23T10:30:00Z'), at('2026-11-23T10:31:00Z'))).toEqual([]);
    expect(dueSchedules(c, { timezone: 'UTC' }, at('2026-11-23T10:29:00Z'), at('2026-11-23T10:31:00Z'))).toEqual([]);
    expect(dueSchedules(c, { timezone: 'UTC' }, at('2026-11-24T19:29:00Z'), at('2026-11-24T19:31:00Z'))).toEqual([]);
  });

  it('honours offsets, date ranges and holidays', () => {
    const early = { ...monday1930, offsetMin: -30 };
    expect(dueSchedules(config([early]), {}, at('2026-11-23T18:59:00Z'), at('2026-11-23T19:00:00Z'))).toEqual([early]);
    const ranged = { ...monday1930, from: '2026-12-01' };
    expect(dueSchedules(config([ranged]), {}, at('2026-11-23T19:29:00Z'), at('2026-11-23T19:31:00Z'))).toEqual([]);
    const holiday = { ...monday1930, skipHolidays: true };
    expect(dueSchedules(config([holiday], ['2026-11-23']), {}, at('2026-11-23T19:29:00Z'), at('2026-11-23T19:31:00Z'))).toEqual([]);
  });

  it('fires sunset schedules from longitude and latitude, and none without them', () => {
    const sunset = { id: 2, scene: 1, days: [0, 1, 2, 3, 4, 5, 6], at: 'sunset' as const };
    const params = { timezone: 'Asia/Tokyo', latitude: 35.68, longitude: 139.69 };
    const sun = sunTimes('2026-11-23', 35.68, 139.69)!;
    expect(dueSchedules(config([sunset]), params, sun.sunset - 60_000, sun.sunset + 60_000)).toEqual([sunset]);
    expect(dueSchedules(config([sunset]), { timezone: 'Asia/Tokyo' }, sun.sunset - 60_000, sun.sunset + 60_000)).toEqual([]);
  });
});
