import { describe, expect, it } from 'vitest';
import { previewRuns, previewSchedules } from './upcoming.ts';

const tokyo = { gatewayId: '1', gatewayName: 'Tokyo', latitude: 35.68, longitude: 139.69, timezone: 'Asia/Tokyo' };
const nowhere = { gatewayId: '2', gatewayName: 'Nowhere', latitude: null, longitude: null, timezone: null };

describe('the next runs before saving', () => {
  it('turns triggers into gateway schedules with the dates and holidays of the scene', () => {
    expect(
      previewSchedules({
        triggers: [{ at: '08:00', offsetMin: 0, then: 'start' }],
        days: [1],
        from: '2026-01-01',
        to: null,
        skipHolidays: true,
      }),
    ).toEqual([{ id: 1, scene: 1, days: [1], at: '08:00', offsetMin: 0, from: '2026-01-01', skipHolidays: true }]);
  });

  it("computes a schedule's next runs in the gateway's time zone, start and end", () => {
    const from = Date.UTC(2026, 2, 2, 0, 0); // Monday 09:00 in Tokyo
    const { runs, unlocated } = previewRuns(
      {
        triggers: [
          { at: '18:00', offsetMin: 0, then: 'start' },
          { at: '23:00', offsetMin: 0, then: 'end' },
        ],
        days: [1, 2, 3, 4, 5],
        from: null,
        to: null,
        skipHolidays: true,
      },
      [tokyo],
      ['2026-03-03'],
      from,
      4,
    );
    expect(unlocated).toEqual([]);
    expect(runs).toEqual([
      { at: Date.UTC(2026, 2, 2, 9), then: 'start', gatewayId: '1', timezone: 'Asia/Tokyo' },
      { at: Date.UTC(2026, 2, 2, 14), then: 'end', gatewayId: '1', timezone: 'Asia/Tokyo' },
      // Tuesday is a holiday.
      { at: Date.UTC(2026, 2, 4, 9), then: 'start', gatewayId: '1', timezone: 'Asia/Tokyo' },
      { at: Date.UTC(2026, 2, 4, 14), then: 'end', gatewayId: '1', timezone: 'Asia/Tokyo' },
    ]);
  });

  it('names the gateways that cannot have sun times', () => {
    const { runs, unlocated } = previewRuns(
      {
        triggers: [{ at: 'sunset', offsetMin: -15, then: 'start' }],
        days: [0, 1, 2, 3, 4, 5, 6],
        from: null,
        to: null,
        skipHolidays: false,
      },
      [tokyo, nowhere],
      [],
      Date.UTC(2026, 2, 2),
      7,
    );
    expect(unlocated.map((g) => g.gatewayName)).toEqual(['Nowhere']);
    expect(runs).toHaveLength(7);
    expect(runs.every((r) => r.gatewayId === '1' && r.then === 'start')).toBe(true);
  });
});
