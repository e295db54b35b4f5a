import { describe, expect, it } from 'vitest';
import { localTimeOf } from './energy.ts';
import { activationWindows, occupancyChance, planOccupancy } from './occupancy.ts';

const ZONE = 'Pacific/Auckland';
/** Monday 16 November 2026, 00:00 in Wellington, and the week from there. */
const MONDAY = Date.parse('2026-11-15T11:00:00Z');
const WEEK = 7 * 24 * 3_600_000;

describe('simulated occupancy', () => {
  const sensors = [
    { addr: 'A', profile: 'meeting' as const },
    { addr: 'B', profile: 'office' as const },
  ];
  const plan = (seed: string) => planOccupancy({ sensors, from: MONDAY, until: MONDAY + WEEK, timeZone: ZONE, seed });

  it('plays the same week for the same seed, and another for another', () => {
    expect(plan('02DE30000001')).toEqual(plan('02DE30000001'));
    expect(plan('02DE30000002')).not.toEqual(plan('02DE30000001'));
  });

  it('pairs every occupied report with a cleared one a few minutes later, and nobody is in at night', () => {
    const events = plan('seed');
    const byAddr = (addr: string) => events.filter((e) => e.addr === addr);
    for (const addr of ['A', 'B']) {
      const mine = byAddr(addr);
      for (let i = 0; i < mine.length; i += 2) {
        expect(mine[i]!.value).toBe(1);
        expect(mine[i + 1]!.value).toBe(0);
        expect(mine[i + 1]!.ts - mine[i]!.ts).toBeGreaterThanOrEqual(60_000);
        expect(mine[i + 1]!.ts - mine[i]!.ts).toBeLessThanOrEqual(5 * 60_000);
      }
    }
    expect(events.filter((e) => localTimeOf(e.ts, ZONE).minute < 5 * 60)).toEqual([]);
  });

  it('fills meeting rooms at 10:00 rather than at lunch, and weekdays rather than weekends', () => {
    const at = (date: string, weekday: number, hour: number) => ({ date, weekday, minute: hour * 60 });
    expect(occupancyChance('meeting', at('2026-11-16', 1, 10))).toBeGreaterThan(occupancyChance('meeting', at('2026-11-16', 1, 12)) * 2);
    expect(occupancyChance('office', at('2026-11-21', 6, 10))).toBeLessThan(occupancyChance('office', at('2026-11-16', 1, 10)) / 5);
    const counts = activationWindows(plan('seed'));
    expect(counts.get('B')!).toBeGreaterThan(counts.get('A')!);
  });
});
