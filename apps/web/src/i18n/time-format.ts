import { LANG_TAGS, type Lang } from '@lumigrid/contract/browser';

/**
 * The one place the web turns an instant into text (the lint rule `no-restricted-syntax` in eslint.config.js keeps
 * it so). A time is shown on the wall clock of a zone that is named beside it, in the pattern of the user's
 * language; the same pattern on every screen, so a time read on one screen can be compared with another.
 */

/** What a missing time shows: never "Invalid Date" or 1 January 1970. */
export const EMPTY_TIME = '—';

/** How much of the instant is shown: the day, the minute or the second. */
export type TimePrecision = 'date' | 'minute' | 'second';

export interface TimeStyle {
  /** The IANA zone whose wall clock is shown (an unknown one shows, and is named as, UTC). */
  zone: string;
  lang: Lang;
  /** Minute unless told. */
  precision?: TimePrecision;
  /** Whether the zone's name follows the time; off only where the screen names the zone once for all its times. */
  label?: boolean;
}

export type TimeInput = string | number | Date | null | undefined;

interface WallClock {
  year: string;
  month: string;
  /** The month's short English name, for the English pattern. */
  monthName: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The zone as Intl knows it, or UTC when it does not know it. */
function knownZone(zone: string): string {
  if (!zone) return 'UTC';
  if (clocks.has(zone)) return zone;
  try {
    clocks.set(
      zone,
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'short',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
    );
    return zone;
  } catch {
    return zone === 'UTC' ? zone : knownZone('UTC');
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function wallClock(instant: number, zone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of clocks.get(zone)!.formatToParts(instant)) parts[part.type] = part.value;
  const monthName = parts.month ?? '';
  const month = String(MONTHS.indexOf(monthName) + 1).padStart(2, '0');
  // Some engines still write midnight as 24 with h23.
  const hour = parts.hour === '24' ? '00' : (parts.hour ?? '00');
  return { year: parts.year ?? '', month, monthName, day: parts.day ?? '', hour, minute: parts.minute ?? '', second: parts.second ?? '' };
}

/** The epoch milliseconds of an input, or null when it names no instant. */
function instantOf(at: TimeInput): number | null {
  if (at === null || at === undefined || at === '') return null;
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(ms) ? ms : null;
}

/** The language's pattern, built from the clock's numbers so every browser writes the same text. */
function pattern(clock: WallClock, lang: Lang, precision: TimePrecision): string {
  const time = precision === 'second' ? `${clock.hour}:${clock.minute}:${clock.second}` : `${clock.hour}:${clock.minute}`;
  // English readers on both sides of the Atlantic read "28 Nov 2026" the same way; "11/28" and "28/11" they do not.
  const date = lang === 'en' ? `${clock.day} ${clock.monthName} ${clock.year}` : `${clock.year}/${clock.month}/${clock.day}`;
  if (precision === 'date') return date;
  return lang === 'en' ? `${date}, ${time}` : `${date} ${time}`;
}

/** The name a time is labelled with: the IANA zone it is shown in. */
export function zoneLabel(zone: string): string {
  return knownZone(zone);
}

/** An instant as text on a zone's wall clock, labelled with the zone; EMPTY_TIME for a missing or broken time. */
export function formatTime(at: TimeInput, style: TimeStyle): string {
  const instant = instantOf(at);
  if (instant === null) return EMPTY_TIME;
  const zone = knownZone(style.zone);
  const text = pattern(wallClock(instant, zone), style.lang, style.precision ?? 'minute');
  return style.label === false ? text : `${text} (${zone})`;
}

/** The browser's zone: the zone of pages about no site (the account, the system), named like any other. */
export function browserZone(): string {
  return knownZone(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

/** The local date (YYYY-MM-DD) and clock time (HH:mm) of an instant in a zone, for grouping times by local day. */
export function localParts(at: number, zone: string): { date: string; time: string } {
  const clock = wallClock(at, knownZone(zone));
  return { date: `${clock.year}-${clock.month}-${clock.day}`, time: `${clock.hour}:${clock.minute}` };
}

/** Whether text is a calendar date that exists (2026-02-31 does not, though dates roll it over into March). */
export function isCalendarDay(text: string): boolean {
  const instant = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : NaN;
  return Number.isFinite(instant) && localParts(instant, 'UTC').date === text;
}

/** A calendar date (YYYY-MM-DD, a day of no zone) in the language's short pattern, with its weekday when asked. */
export function formatDay(date: string, lang: Lang, options: { weekday?: boolean; year?: boolean } = {}): string {
  if (!isCalendarDay(date)) return EMPTY_TIME;
  const instant = Date.parse(`${date}T12:00:00Z`);
  const clock = wallClock(instant, knownZone('UTC'));
  const day =
    lang === 'en'
      ? `${clock.day} ${clock.monthName}${options.year ? ` ${clock.year}` : ''}`
      : `${options.year ? `${clock.year}/` : ''}${clock.month}/${clock.day}`;
  if (!options.weekday) return day;
  const weekday = new Intl.DateTimeFormat(LANG_TAGS[lang], { timeZone: 'UTC', weekday: 'short' }).format(instant);
  return `${day} (${weekday})`;
}

/** The short name of a calendar date's weekday in the language (Mon, 月, 周一...). */
export function weekdayOf(date: string, lang: Lang): string {
  const instant = Date.parse(`${date}T12:00:00Z`);
  return Number.isFinite(instant) ? new Intl.DateTimeFormat(LANG_TAGS[lang], { timeZone: 'UTC', weekday: 'short' }).format(instant) : '';
}

/** A month's short name in the language (Jan, 1月...), months counted 0-11. */
export function monthName(month: number, lang: Lang): string {
  return new Intl.DateTimeFormat(LANG_TAGS[lang], { timeZone: 'UTC', month: 'short' }).format(Date.UTC(2000, month, 15));
}
