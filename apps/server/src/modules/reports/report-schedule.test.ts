import { describe, expect, it } from 'vitest';
import { nextOccurrence, previousOccurrence, reportPeriod, zonedInstant, type ReportRule } from './report-schedule.ts';

const rule = (over: Partial<ReportRule>): ReportRule => ({
  unit: 'day',
  monthDay: null,
  weekday: null,
  sendTime: '08:00',
  timeZone: 'UTC',
  ...over,
});
const next = (r: Partial<ReportRule>, after: string) => nextOccurrence(rule(r), new Date(after)).toISOString();

describe('nextOccurrence', () => {
  it('sends daily at the local time, strictly after the given instant', () => {
    expect(next({ timeZone: 'Asia/Tokyo' }, '2026-11-22T22:00:00Z')).toBe('2026-11-22T23:00:00.000Z');
    expect(next({ timeZone: 'Asia/Tokyo' }, '2026-11-22T23:00:00Z')).toBe('2026-11-23T23:00:00.000Z');
    // Behind UTC: 08:00 in Los Angeles on the 22nd is still ahead at 01:00 UTC on the 23rd.
    expect(next({ timeZone: 'America/Los_Angeles' }, '2026-11-23T01:00:00Z')).toBe('2026-11-23T16:00:00.000Z');
  });

  it('sends weekly on the weekday, Monday being 1 and Sunday 7', () => {
    // 2026-11-23 is a Monday.
    expect(next({ unit: 'week', weekday: 1 }, '2026-11-23T07:59:00Z')).toBe('2026-11-23T08:00:00.000Z');
    expect(next({ unit: 'week', weekday: 1 }, '2026-11-23T08:00:00Z')).toBe('2026-11-30T08:00:00.000Z');
    expect(next({ unit: 'week', weekday: 7 }, '2026-11-23T08:00:00Z')).toBe('2026-11-29T08:00:00.000Z');
  });

  it('sends monthly on the 1st, the 15th or the last day, whatever the month is long', () => {
    expect(next({ unit: 'month', monthDay: 'first' }, '2026-11-23T00:00:00Z')).toBe('2026-12-01T08:00:00.000Z');
    expect(next({ unit: 'month', monthDay: 'fifteenth' }, '2026-11-23T00:00:00Z')).toBe('2026-12-15T08:00:00.000Z');
    expect(next({ unit: 'month', monthDay: 'last' }, '2026-11-23T00:00:00Z')).toBe('2026-11-30T08:00:00.000Z');
    expect(next({ unit: 'month', monthDay: 'last' }, '2027-01-31T08:00:00Z')).toBe('2027-02-28T08:00:00.000Z');
    expect(next({ unit: 'month', monthDay: 'last' }, '2028-01-31T08:00:00Z')).toBe('2028-02-29T08:00:00.000Z');
    expect(next({ unit: 'month', monthDay: 'last' }, '2026-12-31T08:00:00Z')).toBe('2027-01-31T08:00:00.000Z');
  });

  it('sends yearly on the 1st of January', () => {
    expect(next({ unit: 'year' }, '2026-11-23T00:00:00Z')).toBe('2027-01-01T08:00:00.000Z');
    expect(next({ unit: 'year' }, '2027-01-01T07:00:00Z')).toBe('2027-01-01T08:00:00.000Z');
    expect(next({ unit: 'year', timeZone: 'Asia/Tokyo', sendTime: '00:30' }, '2026-12-31T12:00:00Z')).toBe('2026-12-31T15:30:00.000Z');
  });

  it('keeps the local time across DST changes', () => {
    // Berlin goes to summer time on 2027-03-28 at 02:00.
    expect(next({ timeZone: 'Europe/Berlin' }, '2027-03-27T08:00:00Z')).toBe('2027-03-28T06:00:00.000Z');
    expect(next({ timeZone: 'Europe/Berlin' }, '2027-03-27T06:00:00Z')).toBe('2027-03-27T07:00:00.000Z');
    // New York goes back on 2026-11-01.
    expect(next({ timeZone: 'America/New_York' }, '2026-10-31T13:00:00Z')).toBe('2026-11-01T13:00:00.000Z');
  });

  it('moves a time that does not exist forward by the gap, and takes the first of a time that happens twice', () => {
    // 02:30 does not exist in Berlin on 2027-03-28: it is 03:30 CEST.
    expect(next({ timeZone: 'Europe/Berlin', sendTime: '02:30' }, '2027-03-27T12:00:00Z')).toBe('2027-03-28T01:30:00.000Z');
    // 02:30 happens twice in Berlin on 2026-10-25: the first is 00:30 UTC.
    expect(next({ timeZone: 'Europe/Berlin', sendTime: '02:30' }, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(zonedInstant({ year: 2026, month: 10, day: 25 }, 2, 30, 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('handles half-hour zones', () => {
    expect(next({ timeZone: 'Asia/Kolkata', sendTime: '09:00' }, '2026-11-23T00:00:00Z')).toBe('2026-11-23T03:30:00.000Z');
  });
});

describe('the period a report covers', () => {
  it('is the whole local days from the previous send day up to this one', () => {
    const monthly = rule({ unit: 'month', monthDay: 'first', timeZone: 'Asia/Tokyo' });
    const at = nextOccurrence(monthly, new Date('2026-11-23T00:00:00Z'));
    expect(previousOccurrence(monthly, at).toISOString()).toBe('2026-10-31T23:00:00.000Z');
    const period = reportPeriod(monthly, at);
    expect(period.firstDay).toEqual({ year: 2026, month: 11, day: 1 });
    expect(period.endDay).toEqual({ year: 2026, month: 12, day: 1 });
    expect(period.from.toISOString()).toBe('2026-10-31T15:00:00.000Z');
    expect(period.to.toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });

  it('is yesterday for a daily report and the week before for a weekly one, across DST', () => {
    const daily = rule({ timeZone: 'Europe/Berlin' });
    const period = reportPeriod(daily, new Date('2027-03-29T06:00:00Z'));
    expect(period.firstDay).toEqual({ year: 2027, month: 3, day: 28 });
    expect(period.to.getTime() - period.from.getTime()).toBe(23 * 3_600_000);
    const weekly = reportPeriod(rule({ unit: 'week', weekday: 1 }), new Date('2026-11-30T08:00:00Z'));
    expect(weekly.firstDay).toEqual({ year: 2026, month: 11, day: 23 });
    expect(weekly.endDay).toEqual({ year: 2026, month: 11, day: 30 });
  });

  it('runs from the last day of the month before for a last-day report', () => {
    const period = reportPeriod(rule({ unit: 'month', monthDay: 'last' }), new Date('2027-02-28T08:00:00Z'));
    expect(period.firstDay).toEqual({ year: 2027, month: 1, day: 31 });
    expect(period.endDay).toEqual({ year: 2027, month: 2, day: 28 });
  });
});
