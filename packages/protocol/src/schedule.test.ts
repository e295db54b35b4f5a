import { describe, expect, it } from 'vitest';
import type { GatewayConfig } from './config.ts';
import { dueSchedules, nextRuns, scheduleRuns, sunTimes, type Schedule } from './schedule.ts';
import { isTimeZone } from './time-zones.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const localDay = (t: number, timeZone: string) => new Date(t).toLocaleDateString('sv-SE', { timeZone });
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

const LONDON = { latitude: 51.5074, longitude: -0.1278, timezone: 'Europe/London' };
const SINGAPORE = { latitude: 1.3521, longitude: 103.8198, timezone: 'Asia/Singapore' };
const TOKYO = { latitude: 35.6895, longitude: 139.6917, timezone: 'Asia/Tokyo' };
const TROMSO = { latitude: 69.65, longitude: 18.96, timezone: 'Europe/Oslo' };

/** Within the ±2 minutes that published tables (timeanddate.com, NOAA) round to. */
function expectNear(actual: number | undefined, expectedIso: string) {
  expect(actual, expectedIso).toBeDefined();
  expect(Math.abs(actual! - at(expectedIso)), `${iso(actual!)} vs ${expectedIso}`).toBeLessThanOrEqual(2 * 60_000);
}

const schedule = (rule: Partial<Schedule>): Schedule => ({ id: 1, scene: 1, days: EVERY_DAY, at: '19:30', ...rule });

describe('sun times', () => {
  it.each([
    ['London midsummer (BST)', LONDON, '2026-06-21', '2026-06-21T04:43+01:00', '2026-06-21T21:21+01:00'],
    ['London midwinter (GMT)', LONDON, '2026-12-21', '2026-12-21T08:04+00:00', '2026-12-21T15:53+00:00'],
    ['Singapore', SINGAPORE, '2026-06-21', '2026-06-21T07:00+08:00', '2026-06-21T19:12+08:00'],
    ['Tokyo midsummer', TOKYO, '2026-06-21', '2026-06-21T04:25+09:00', '2026-06-21T19:00+09:00'],
    ['Tokyo midwinter', TOKYO, '2026-12-21', '2026-12-21T06:47+09:00', '2026-12-21T16:32+09:00'],
  ])('matches the published table: %s', (_name, place, date, sunrise, sunset) => {
    const sun = sunTimes(date, place);
    expectNear(sun.sunrise, sunrise);
    expectNear(sun.sunset, sunset);
  });

  it('has neither sunrise nor sunset in the Tromsø polar night and midnight sun, without throwing', () => {
    expect(sunTimes('2026-12-21', TROMSO)).toEqual({});
    expect(sunTimes('2026-06-21', TROMSO)).toEqual({});
    // Polar night from 27 November to 15 January.
    expect(Object.keys(sunTimes('2026-11-25', TROMSO))).toEqual(['sunrise', 'sunset']);
    expect(sunTimes('2026-11-29', TROMSO)).toEqual({});
    expect(sunTimes('2027-01-13', TROMSO)).toEqual({});
    expect(Object.keys(sunTimes('2027-01-17', TROMSO))).toEqual(['sunrise', 'sunset']);
    const equinox = sunTimes('2026-03-20', TROMSO);
    expect(equinox.sunset! - equinox.sunrise!).toBeGreaterThan(12 * 3_600_000);
  });
});

describe('schedule runs', () => {
  // 2026-11-23 is a Monday.
  const monday1930 = schedule({ days: [1] });

  it('fires a clock time in the gateway time zone, on its days only', () => {
    const week = [at('2026-11-22T00:00:00Z'), at('2026-11-29T00:00:00Z')] as const;
    expect(scheduleRuns(monday1930, { timezone: 'Asia/Tokyo' }, [], ...week).map(iso)).toEqual(['2026-11-23T10:30:00.000Z']);
    expect(scheduleRuns(monday1930, {}, [], ...week).map(iso)).toEqual(['2026-11-23T19:30:00.000Z']);
    const weekdays = schedule({ days: [1, 3, 5], at: '07:00' });
    expect(scheduleRuns(weekdays, { timezone: 'Europe/London' }, [], ...week).map(iso)).toEqual([
      '2026-11-23T07:00:00.000Z',
      '2026-11-25T07:00:00.000Z',
      '2026-11-27T07:00:00.000Z',
    ]);
  });

  it('counts (from, to]: a run exactly at from belongs to the previous interval', () => {
    const run = at('2026-11-23T19:30:00Z');
    expect(scheduleRuns(monday1930, {}, [], run - 1, run)).toEqual([run]);
    expect(scheduleRuns(monday1930, {}, [], run, run + 60_000)).toEqual([]);
    expect(scheduleRuns(monday1930, {}, [], run, run)).toEqual([]);
  });

  it('keeps to the date range, both ends included, and a one-off day with from = to', () => {
    const december = schedule({ from: '2026-12-07', to: '2026-12-09', at: '08:00' });
    expect(scheduleRuns(december, {}, [], at('2026-12-01T00:00:00Z'), at('2026-12-31T00:00:00Z')).map(iso)).toEqual([
      '2026-12-07T08:00:00.000Z',
      '2026-12-08T08:00:00.000Z',
      '2026-12-09T08:00:00.000Z',
    ]);
    const christmasEve = schedule({ from: '2026-12-24', to: '2026-12-24', at: '18:00' });
    const runs = nextRuns([christmasEve], { timezone: 'Asia/Tokyo' }, [], at('2026-01-01T00:00:00Z'), 5);
    expect(runs).toEqual([{ schedule: 1, scene: 1, at: at('2026-12-24T09:00:00Z') }]);
  });

  it('skips holidays only when the schedule asks to', () => {
    const day = [at('2026-11-23T00:00:00Z'), at('2026-11-24T00:00:00Z')] as const;
    expect(scheduleRuns(schedule({ skipHolidays: true }), {}, ['2026-11-23'], ...day)).toEqual([]);
    expect(scheduleRuns(schedule({ skipHolidays: false }), {}, ['2026-11-23'], ...day)).toEqual([at('2026-11-23T19:30:00Z')]);
    // Holidays are local dates: Tokyo's Monday 00:30 is still Sunday in UTC, and the Monday holiday skips it.
    const early = schedule({ at: '00:30', skipHolidays: true });
    const sundayUtc = [at('2026-11-22T00:00:00Z'), at('2026-11-23T00:00:00Z')] as const;
    expect(scheduleRuns(early, { timezone: 'Asia/Tokyo' }, ['2026-11-23'], ...sundayUtc)).toEqual([]);
    expect(scheduleRuns(early, { timezone: 'Asia/Tokyo' }, ['2026-11-22'], ...sundayUtc).map(iso)).toEqual(['2026-11-22T15:30:00.000Z']);
  });

  it('applies offsets across midnight, with the days of the base event', () => {
    const week = [at('2026-11-22T00:00:00Z'), at('2026-11-29T00:00:00Z')] as const;
    // Monday 23:30 plus an hour fires on Tuesday 00:30, and only that once in the week.
    const late = schedule({ days: [1], at: '23:30', offsetMin: 60 });
    expect(scheduleRuns(late, {}, [], ...week).map(iso)).toEqual(['2026-11-24T00:30:00.000Z']);
    // Monday 00:15 less half an hour fires on Sunday 23:45.
    const early = schedule({ days: [1], at: '00:15', offsetMin: -30 });
    expect(scheduleRuns(early, {}, [], at('2026-11-22T00:00:00Z'), at('2026-11-30T12:00:00Z')).map(iso)).toEqual([
      '2026-11-22T23:45:00.000Z',
      '2026-11-29T23:45:00.000Z',
    ]);
    // The date range is the base event's too: the last day's run may fall the day after it.
    const ranged = schedule({ at: '23:30', offsetMin: 60, from: '2026-11-23', to: '2026-11-23' });
    expect(scheduleRuns(ranged, {}, [], ...week).map(iso)).toEqual(['2026-11-24T00:30:00.000Z']);
  });

  it('fires sunset and sunrise with their offsets, and never without a location', () => {
    const sunset = schedule({ at: 'sunset', offsetMin: -30 });
    const day = [at('2026-06-21T00:00:00+01:00'), at('2026-06-22T00:00:00+01:00')] as const;
    const runs = scheduleRuns(sunset, LONDON, [], ...day);
    expect(runs).toHaveLength(1);
    expectNear(runs[0], '2026-06-21T20:51+01:00');
    const sunrise = schedule({ at: 'sunrise', offsetMin: 15 });
    expectNear(
      scheduleRuns(sunrise, TOKYO, [], at('2026-06-21T00:00:00+09:00'), at('2026-06-22T00:00:00+09:00'))[0],
      '2026-06-21T04:40+09:00',
    );
    expect(scheduleRuns(sunset, { timezone: 'Europe/London' }, [], ...day)).toEqual([]);
    expect(scheduleRuns(sunset, { latitude: 51.5 }, [], ...day)).toEqual([]);
  });

  it('has no sun-relative runs in the Tromsø polar night and midnight sun', () => {
    const sunrise = schedule({ at: 'sunrise' });
    const sunset = schedule({ at: 'sunset' });
    expect(scheduleRuns(sunrise, TROMSO, [], at('2026-12-14T00:00:00Z'), at('2026-12-28T00:00:00Z'))).toEqual([]);
    expect(scheduleRuns(sunset, TROMSO, [], at('2026-06-14T00:00:00Z'), at('2026-06-28T00:00:00Z'))).toEqual([]);
    // The polar night lasts from 27 November to 15 January: the first sunrise after it is on 15 January.
    const [first] = nextRuns([sunrise], TROMSO, [], at('2026-12-01T00:00:00Z'), 1);
    expect(localDay(first!.at, 'Europe/Oslo')).toBe('2027-01-15');
  });
});

describe('daylight saving time', () => {
  const nightly = schedule({ at: '01:30' });

  it('fires a time in the spring-forward gap at the first instant after it (Europe/London, 29 March 2026)', () => {
    const runs = scheduleRuns(nightly, { timezone: 'Europe/London' }, [], at('2026-03-28T00:00:00Z'), at('2026-03-31T00:00:00Z'));
    // 01:30 GMT, then 02:00 BST (01:30 does not exist), then 01:30 BST.
    expect(runs.map(iso)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  it('fires a time that happens twice once, the first time (Europe/London, 25 October 2026)', () => {
    const runs = scheduleRuns(nightly, { timezone: 'Europe/London' }, [], at('2026-10-24T00:00:00Z'), at('2026-10-27T00:00:00Z'));
    // 01:30 BST on the 24th and 25th (not again at 01:30 GMT on the 25th), then 01:30 GMT.
    expect(runs.map(iso)).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('has no jumps in Asia/Tokyo on the same days', () => {
    for (const from of [at('2026-03-27T00:00:00Z'), at('2026-10-23T00:00:00Z')]) {
      const runs = scheduleRuns(nightly, { timezone: 'Asia/Tokyo' }, [], from, from + 5 * 86_400_000);
      expect(runs).toHaveLength(5);
      expect(runs.every((t) => new Date(t).getUTCHours() === 16 && new Date(t).getUTCMinutes() === 30)).toBe(true);
    }
  });

  it('knows a time zone from a typo', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('Europe/Londn')).toBe(false);
  });
});

describe('next runs', () => {
  it('merges schedules in time order', () => {
    const schedules = [schedule({ id: 1, scene: 10, days: [1], at: '08:00' }), schedule({ id: 2, scene: 20, days: [1, 2], at: '07:00' })];
    const runs = nextRuns(schedules, { timezone: 'UTC' }, [], at('2026-11-23T07:30:00Z'), 3);
    expect(runs).toEqual([
      { schedule: 1, scene: 10, at: at('2026-11-23T08:00:00Z') },
      { schedule: 2, scene: 20, at: at('2026-11-24T07:00:00Z') },
      { schedule: 2, scene: 20, at: at('2026-11-30T07:00:00Z') },
    ]);
  });

  it('ends for schedules that never fire again', () => {
    const from = at('2026-11-01T00:00:00Z');
    expect(nextRuns([schedule({ to: '2026-10-31' })], {}, [], from, 3)).toEqual([]);
    expect(nextRuns([schedule({ at: 'sunrise' })], {}, [], from, 3)).toEqual([]);
    // Tromsø sunrise on 21 December only: polar night every year.
    const midwinter = schedule({ at: 'sunrise', from: '2026-12-21', to: '2026-12-21' });
    expect(nextRuns([midwinter], TROMSO, [], from, 3)).toEqual([]);
  });
});

describe('due schedules', () => {
  const config = (schedules: Schedule[], holidays?: string[]): GatewayConfig => ({
    groups: [],
    scenes: [],
    linkages: [],
    schedules,
    ...(holidays ? { holidays } : {}),
  });
  const monday1930 = schedule({ days: [1] });

  it('answers each due schedule once with the instant it was due, in time order', () => {
    const c = config([monday1930, schedule({ id: 2, scene: 2, at: '19:29' })]);
    const due = dueSchedules(c, { timezone: 'Asia/Tokyo' }, at('2026-11-23T10:28:00Z'), at('2026-11-23T10:31:00Z'));
    expect(due.map((d) => [d.schedule.id, iso(d.at)])).toEqual([
      [2, '2026-11-23T10:29:00.000Z'],
      [1, '2026-11-23T10:30:00.000Z'],
    ]);
    expect(dueSchedules(c, { timezone: 'Asia/Tokyo' }, at('2026-11-23T10:30:00Z'), at('2026-11-23T10:31:00Z'))).toEqual([]);
    expect(dueSchedules(config([monday1930]), { timezone: 'UTC' }, at('2026-11-24T19:29:00Z'), at('2026-11-24T19:31:00Z'))).toEqual([]);
  });

  it('uses the configuration holidays and the parameters place', () => {
    const holiday = schedule({ days: [1], skipHolidays: true });
    const window = [at('2026-11-23T19:29:00Z'), at('2026-11-23T19:31:00Z')] as const;
    expect(dueSchedules(config([holiday], ['2026-11-23']), {}, ...window)).toEqual([]);
    expect(dueSchedules(config([holiday]), {}, ...window)).toHaveLength(1);
    const sunset = schedule({ id: 2, at: 'sunset' });
    const sun = sunTimes('2026-11-23', TOKYO).sunset!;
    expect(dueSchedules(config([sunset]), TOKYO, sun - 30_000, sun + 30_000)).toEqual([{ schedule: sunset, at: sun }]);
    expect(dueSchedules(config([sunset]), { timezone: 'Asia/Tokyo' }, sun - 30_000, sun + 30_000)).toEqual([]);
  });

  it('looks back at most a day', () => {
    const c = config([schedule({ at: '12:00' })]);
    const due = dueSchedules(c, {}, at('2026-11-01T00:00:00Z'), at('2026-11-10T00:00:00Z'));
    expect(due.map((d) => iso(d.at))).toEqual(['2026-11-09T12:00:00.000Z']);
  });
});
