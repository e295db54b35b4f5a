import type { MonthDay, ReportUnit } from '@lumigrid/contract';
import { utcOffset, wallClock } from '@lumigrid/protocol';

/** When a recipient's reports go out: spec section 9's frequencies, at a local time in its time zone. */
export interface ReportRule {
  unit: ReportUnit;
  monthDay: MonthDay | null;
  /** 1 Monday ... 7 Sunday. */
  weekday: number | null;
  /** HH:mm. */
  sendTime: string;
  timeZone: string;
}

/** A calendar date without a zone; month 1-12. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;
/** The calendar date in a zone at an instant. */
export function localDateOf(instant: Date, timeZone: string): LocalDate {
  const wall = new Date(wallClock(instant.getTime(), timeZone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/**
 * The instant a local wall-clock time happens in a zone. A time that happens twice (clocks going back) is the
 * first; a time that never happens (clocks going forward) moves forward by the gap, as the clock on the wall
 * does (02:30 on a spring-forward night in Berlin is 03:30).
 */
export function zonedInstant(date: LocalDate, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const before = utcOffset(wall - DAY_MS, timeZone);
  const after = utcOffset(wall + DAY_MS, timeZone);
  const fits = [before, after].map((offset) => wall - offset).filter((t) => utcOffset(t, timeZone) === wall - t);
  return new Date(fits.length > 0 ? Math.min(...fits) : wall - before);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The date `days` after a date (negative: before). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** YYYY-MM-DD. */
export function isoDate(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** 1 Monday ... 7 Sunday. */
function weekdayOf(date: LocalDate): number {
  return ((new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7) + 1;
}

function monthSendDay(year: number, month: number, monthDay: MonthDay | null): number {
  if (monthDay === 'fifteenth') return 15;
  if (monthDay === 'last') return daysInMonth(year, month);
  return 1;
}

/** The send dates of a rule from the month of `from` on, in order, at or after `from`. */
function* sendDates(rule: ReportRule, from: LocalDate): Generator<LocalDate> {
  switch (rule.unit) {
    case 'day':
      for (let d = from; ; d = addDays(d, 1)) yield d;
    case 'week': {
      const first = addDays(from, ((((rule.weekday ?? 1) - weekdayOf(from)) % 7) + 7) % 7);
      for (let d = first; ; d = addDays(d, 7)) yield d;
    }
    case 'month':
      for (let year = from.year, month = from.month; ; month === 12 ? ((month = 1), year++) : month++) {
        const day = monthSendDay(year, month, rule.monthDay);
        if (year > from.year || month > from.month || day >= from.day) yield { year, month, day };
      }
    case 'year':
      for (let year = from.month === 1 && from.day === 1 ? from.year : from.year + 1; ; year++) yield { year, month: 1, day: 1 };
  }
}

/** The first time a rule sends strictly after `after`. */
export function nextOccurrence(rule: ReportRule, after: Date): Date {
  const [hour, minute] = rule.sendTime.split(':').map(Number) as [number, number];
  // From the day before, so a zone behind UTC does not skip today's send.
  for (const date of sendDates(rule, addDays(localDateOf(after, rule.timeZone), -1))) {
    const at = zonedInstant(date, hour, minute, rule.timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('unreachable');
}

/** How far back the occurrence before any occurrence of a unit lies, at most (a DST day and a margin included). */
const LONGEST_GAP_DAYS: Record<ReportUnit, number> = { day: 2, week: 8, month: 32, year: 367 };

/** The occurrence before `occurrence`: where the period a report covers begins. */
export function previousOccurrence(rule: ReportRule, occurrence: Date): Date {
  let previous = new Date(occurrence.getTime() - LONGEST_GAP_DAYS[rule.unit] * DAY_MS);
  for (let next = nextOccurrence(rule, previous); next.getTime() < occurrence.getTime(); next = nextOccurrence(rule, next)) {
    previous = next;
  }
  return previous;
}

/**
 * The whole local days a report covers: from the previous send day up to, not including, this send day (daily:
 * yesterday; weekly on Monday: last Monday to Sunday; monthly on the 1st: last month; yearly: last year). The
 * send day itself is not over when the report leaves, so it belongs to the next one.
 */
export function reportPeriod(rule: ReportRule, occurrence: Date): { firstDay: LocalDate; endDay: LocalDate; from: Date; to: Date } {
  const firstDay = localDateOf(previousOccurrence(rule, occurrence), rule.timeZone);
  const endDay = localDateOf(occurrence, rule.timeZone);
  return {
    firstDay,
    endDay,
    from: zonedInstant(firstDay, 0, 0, rule.timeZone),
    to: zonedInstant(endDay, 0, 0, rule.timeZone),
  };
}
