import { describe, expect, it } from 'vitest';
import { EMPTY_TIME, formatDay, isCalendarDay, formatTime, localParts, monthName, weekdayOf, zoneLabel } from './time-format.ts';

// 04:06:58 UTC on 28 November 2026: 17:06 in Auckland (NZDT, +13), 13:06 in Tokyo, 23:06 the day before in New York.
const AT = '2026-11-28T04:06:58.000Z';

describe('one time format', () => {
  it("shows an instant on the site's clock, labelled with the site's zone", () => {
    expect(formatTime(AT, { zone: 'Pacific/Auckland', lang: 'en' })).toBe('28 Nov 2026, 17:06 (Pacific/Auckland)');
    expect(formatTime(AT, { zone: 'Asia/Tokyo', lang: 'en' })).toBe('28 Nov 2026, 13:06 (Asia/Tokyo)');
    expect(formatTime(AT, { zone: 'America/New_York', lang: 'en' })).toBe('27 Nov 2026, 23:06 (America/New_York)');
    expect(formatTime(AT, { zone: 'UTC', lang: 'en' })).toBe('28 Nov 2026, 04:06 (UTC)');
  });

  it('follows daylight saving and half-hour zones', () => {
    // Berlin keeps +1 in winter and +2 in summer; Kathmandu is +5:45 all year.
    expect(formatTime('2026-01-15T12:00:00Z', { zone: 'Europe/Berlin', lang: 'en', label: false })).toBe('15 Jan 2026, 13:00');
    expect(formatTime('2026-07-15T12:00:00Z', { zone: 'Europe/Berlin', lang: 'en', label: false })).toBe('15 Jul 2026, 14:00');
    expect(formatTime('2026-07-15T12:00:00Z', { zone: 'Asia/Kathmandu', lang: 'en', label: false })).toBe('15 Jul 2026, 17:45');
  });

  it("writes the user's language's pattern, the same numbers in each", () => {
    const style = { zone: 'Pacific/Auckland', precision: 'second' } as const;
    expect(formatTime(AT, { ...style, lang: 'en' })).toBe('28 Nov 2026, 17:06:58 (Pacific/Auckland)');
    expect(formatTime(AT, { ...style, lang: 'cn' })).toBe('2026/11/28 17:06:58 (Pacific/Auckland)');
    expect(formatTime(AT, { ...style, lang: 'tc' })).toBe('2026/11/28 17:06:58 (Pacific/Auckland)');
    expect(formatTime(AT, { ...style, lang: 'ja' })).toBe('2026/11/28 17:06:58 (Pacific/Auckland)');
  });

  it('shows the day, the minute or the second, on a 24-hour clock', () => {
    const at = '2026-03-02T00:05:09Z';
    expect(formatTime(at, { zone: 'UTC', lang: 'en', precision: 'date' })).toBe('02 Mar 2026 (UTC)');
    expect(formatTime(at, { zone: 'UTC', lang: 'ja', precision: 'date' })).toBe('2026/03/02 (UTC)');
    expect(formatTime(at, { zone: 'UTC', lang: 'cn' })).toBe('2026/03/02 00:05 (UTC)');
    expect(formatTime('2026-03-02T15:05:09Z', { zone: 'UTC', lang: 'en', precision: 'second' })).toBe('02 Mar 2026, 15:05:09 (UTC)');
  });

  it('takes ISO text, epoch milliseconds and dates alike', () => {
    const style = { zone: 'Asia/Tokyo', lang: 'en' } as const;
    const expected = formatTime(AT, style);
    expect(formatTime(Date.parse(AT), style)).toBe(expected);
    expect(formatTime(new Date(AT), style)).toBe(expected);
  });

  it('shows a missing or broken time as the empty mark, never "Invalid Date" or 1970', () => {
    for (const at of [null, undefined, '', 'not a time', Number.NaN, new Date('nope')]) {
      const text = formatTime(at, { zone: 'Pacific/Auckland', lang: 'en' });
      expect(text).toBe(EMPTY_TIME);
      expect(text).not.toMatch(/Invalid|1970/);
    }
  });

  it('shows a zone it does not know as UTC and says so', () => {
    expect(formatTime(AT, { zone: 'No/Such_Zone', lang: 'en' })).toBe('28 Nov 2026, 04:06 (UTC)');
    expect(formatTime(AT, { zone: '', lang: 'en' })).toBe('28 Nov 2026, 04:06 (UTC)');
    expect(zoneLabel('No/Such_Zone')).toBe('UTC');
    expect(zoneLabel('Europe/Berlin')).toBe('Europe/Berlin');
  });

  it('cuts local days at the zone’s midnight', () => {
    const at = Date.parse('2026-03-02T23:30:00Z');
    expect(localParts(at, 'Asia/Tokyo')).toEqual({ date: '2026-03-03', time: '08:30' });
    expect(localParts(at, 'No/Such_Zone')).toEqual({ date: '2026-03-02', time: '23:30' });
    expect(localParts(Date.parse('2026-03-02T00:00:00Z'), 'UTC')).toEqual({ date: '2026-03-02', time: '00:00' });
  });

  it('writes calendar days, weekdays and months in the language, whatever the browser’s zone', () => {
    expect(formatDay('2026-12-25', 'en', { year: true, weekday: true })).toBe('25 Dec 2026 (Fri)');
    expect(formatDay('2026-12-25', 'ja', { year: true })).toBe('2026/12/25');
    expect(formatDay('2026-12-25', 'cn')).toBe('12/25');
    expect(formatDay('2026-13-45', 'en')).toBe(EMPTY_TIME);
    expect(formatDay('2026-02-31', 'en')).toBe(EMPTY_TIME);
    expect([isCalendarDay('2028-02-29'), isCalendarDay('2026-02-29'), isCalendarDay('2026-1-5'), isCalendarDay('')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(weekdayOf('2026-12-25', 'en')).toBe('Fri');
    expect(weekdayOf('2026-12-25', 'cn')).toBe('周五');
    expect(weekdayOf('2026-12-25', 'ja')).toBe('金');
    expect(monthName(10, 'en')).toBe('Nov');
    expect(monthName(10, 'tc')).toBe('11月');
  });
});
