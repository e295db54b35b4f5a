import { utcOffset, wallClock } from './time-zones.ts';
import { getTimes } from 'suncalc';
import type { GatewayConfig } from './config.ts';
import type { GatewayParams } from './gateway.ts';

/** One schedule of a gateway's configuration. */
export type Schedule = GatewayConfig['schedules'][number];

/** Where a gateway runs its schedules: without latitude and longitude, sun-relative schedules never fire. */
export interface SchedulePlace {
  latitude?: number;
  longitude?: number;
  /** IANA time zone of the clock times and local dates; UTC when absent. */
  timezone?: string;
}

/** A place that has a position, as sunrise and sunset need. */
export type SunPlace = Required<SchedulePlace>;

/** One upcoming run of a schedule. */
export interface ScheduledRun {
  schedule: number;
  scene: number;
  /** Epoch ms. */
  at: number;
}

/** A schedule that came due, with the instant it was due. */
export interface DueSchedule {
  schedule: Schedule;
  at: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far nextRuns looks ahead: beyond a year, so a yearly date range is still found. */
export const NEXT_RUNS_HORIZON_DAYS = 400;

/**
 * The instant a local wall-clock time (epoch ms of its fields read as UTC) happens in a time zone. A time
 * that happens twice (clocks going back) gives the first; one that never happens (clocks going forward)
 * gives the first instant after the gap.
 */
function localInstant(wall: number, timeZone: string): number {
  const before = utcOffset(wall - DAY, timeZone);
  const after = utcOffset(wall + DAY, timeZone);
  const candidates = [wall - before, wall - after].filter((at) => wallClock(at, timeZone) === wall);
  if (candidates.length) return Math.min(...candidates);
  // In the gap: the zone's offset changes between these two instants; find where, to the second.
  let lo = Math.min(wall - before, wall - after);
  let hi = Math.max(wall - before, wall - after);
  const offsetBefore = utcOffset(lo, timeZone);
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (utcOffset(mid, timeZone) === offsetBefore) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Days since 1970-01-01 of a YYYY-MM-DD date, and back. */
function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY);
}

function dateOf(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

function localDate(at: number, timeZone: string): string {
  return dateOf(Math.floor(wallClock(at, timeZone) / DAY));
}

/** suncalc 2 answers null for an event that does not happen; older versions an Invalid Date. */
function instant(date: Date | null | undefined): number | undefined {
  const at = date?.getTime();
  return at !== undefined && Number.isFinite(at) ? at : undefined;
}

/**
 * Sunrise and sunset (epoch ms) of a local date (YYYY-MM-DD) at a place; either is missing on a day it does
 * not happen (polar day or night).
 */
export function sunTimes(date: string, place: SunPlace): { sunrise?: number; sunset?: number } {
  const day = dayNumber(date);
  const result: { sunrise?: number; sunset?: number } = {};
  // suncalc answers by solar day; where the zone is far from solar time, the local date's event can sit in
  // the neighbouring solar day, so ask around local noon of the day before and after too.
  for (const near of [day, day - 1, day + 1]) {
    const noon = localInstant(near * DAY + 12 * 3_600_000, place.timezone);
    const times = getTimes(new Date(noon), place.latitude, place.longitude);
    for (const event of ['sunrise', 'sunset'] as const) {
      const at = instant(times[event]);
      if (result[event] === undefined && at !== undefined && localDate(at, place.timezone) === date) result[event] = at;
    }
  }
  return result;
}

/** The instant the schedule's base event (before its offset) happens on a local date, if it does. */
function baseEvent(schedule: Schedule, date: string, place: SchedulePlace, timeZone: string): number | undefined {
  if (schedule.at === 'sunrise' || schedule.at === 'sunset') {
    if (place.latitude === undefined || place.longitude === undefined) return undefined;
    return sunTimes(date, { latitude: place.latitude, longitude: place.longitude, timezone: timeZone })[schedule.at];
  }
  const [hours, minutes] = schedule.at.split(':').map(Number) as [number, number];
  return localInstant(dayNumber(date) * DAY + (hours * 60 + minutes) * MINUTE, timeZone);
}

function runsOn(schedule: Schedule, date: string, holidays: ReadonlySet<string>): boolean {
  if (!schedule.days.includes((dayNumber(date) + 4) % 7)) return false; // 1970-01-01 was a Thursday
  if (schedule.from !== undefined && date < schedule.from) return false;
  if (schedule.to !== undefined && date > schedule.to) return false;
  return !(schedule.skipHolidays && holidays.has(date));
}

/**
 * Every instant in (from, to] at which a schedule fires, ascending. Days of the week, the date range and
 * holidays are matched against the local date of the base event (the clock time, sunrise or sunset), before
 * `offsetMin` is added as elapsed minutes, so an offset may carry a run into the next or previous day.
 */
export function scheduleRuns(schedule: Schedule, place: SchedulePlace, holidays: Iterable<string>, from: number, to: number): number[] {
  if (!(to > from)) return [];
  const timeZone = place.timezone ?? 'UTC';
  const holidaySet = holidays instanceof Set ? (holidays as ReadonlySet<string>) : new Set(holidays);
  const offset = (schedule.offsetMin ?? 0) * MINUTE;
  // Zone offsets (at most 14 h) and schedule offsets (at most 12 h) reach at most two days either side.
  const first = Math.floor(from / DAY) - 2;
  const last = Math.floor(to / DAY) + 2;
  const runs: number[] = [];
  for (let day = first; day <= last; day++) {
    const date = dateOf(day);
    if (!runsOn(schedule, date, holidaySet)) continue;
    const base = baseEvent(schedule, date, place, timeZone);
    if (base === undefined) continue;
    const at = base + offset;
    if (at > from && at <= to) runs.push(at);
  }
  return runs.sort((a, b) => a - b);
}

/**
 * The next `count` runs after `from` of a set of schedules, merged and ascending (ties by schedule id).
 * Looks at most `horizonDays` ahead, so schedules that never fire again (polar night, a past date range)
 * give fewer runs rather than a search without end.
 */
export function nextRuns(
  schedules: readonly Schedule[],
  place: SchedulePlace,
  holidays: Iterable<string>,
  from: number,
  count: number,
  horizonDays = NEXT_RUNS_HORIZON_DAYS,
): ScheduledRun[] {
  const holidaySet = new Set(holidays);
  const end = from + horizonDays * DAY;
  const runs: ScheduledRun[] = [];
  // A week at a time: every run of an earlier window comes before every run of a later one.
  for (let start = from; start < end && runs.length < count; start += 7 * DAY) {
    const stop = Math.min(start + 7 * DAY, end);
    for (const schedule of schedules) {
      for (const at of scheduleRuns(schedule, place, holidaySet, start, stop))
        runs.push({ schedule: schedule.id, scene: schedule.scene, at });
    }
  }
  return runs.sort((a, b) => a.at - b.at || a.schedule - b.schedule).slice(0, Math.max(0, count));
}

/**
 * The schedules of a configuration due in (from, to] on a gateway's clock, each with the instant it was due,
 * by that instant. Looks back at most a day: a gateway whose clock jumped further does not replay the days
 * it skipped.
 */
export function dueSchedules(config: GatewayConfig, params: GatewayParams, from: number, to: number): DueSchedule[] {
  const start = Math.max(from, to - DAY);
  const holidays = new Set(config.holidays ?? []);
  const due: DueSchedule[] = [];
  for (const schedule of config.schedules) {
    for (const at of scheduleRuns(schedule, params, holidays, start, to)) due.push({ schedule, at });
  }
  return due.sort((a, b) => a.at - b.at || a.schedule.id - b.schedule.id);
}
