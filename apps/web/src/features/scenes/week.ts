import type { SceneWeekRun } from '@lumigrid/contract/browser';
import { localParts } from '../../i18n/time-format.ts';

const DAY = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date, and back. */
const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY);
const dateOf = (day: number) => localParts(day * DAY, 'UTC').date;

export function addDays(date: string, days: number): string {
  return dateOf(dayNumber(date) + days);
}

/** The Monday of the week a date falls in (weeks run Monday to Sunday, as the report settings count them). */
export function mondayOf(date: string): string {
  const weekday = (dayNumber(date) + 4) % 7; // 1970-01-01 was a Thursday; 0 is Sunday
  return addDays(date, -((weekday + 6) % 7));
}

/** A run as the week view draws it: at its gateway's local time. */
export interface WeekCell extends SceneWeekRun {
  time: string;
}

/** The runs of each day from `from`, each at its gateway's local date and time, in order of that time. */
export function runsByDay(runs: readonly SceneWeekRun[], from: string, days = 7): Array<{ date: string; runs: WeekCell[] }> {
  const columns = Array.from({ length: days }, (_, i) => ({ date: addDays(from, i), runs: [] as WeekCell[] }));
  const byDate = new Map(columns.map((c) => [c.date, c]));
  for (const run of runs) {
    const { date, time } = localParts(run.at, run.timezone);
    byDate.get(date)?.runs.push({ ...run, time });
  }
  for (const column of columns) column.runs.sort((a, b) => a.time.localeCompare(b.time) || a.at - b.at || a.name.localeCompare(b.name));
  return columns;
}

/** Soft colours told apart at a glance; a scene keeps its colour from week to week. */
export const SCENE_COLOURS = ['#1677ff', '#13a8a8', '#722ed1', '#d4380d', '#389e0d', '#c41d7f', '#d48806', '#08979c'] as const;

export function sceneColour(sceneId: string): string {
  let hash = 0;
  for (const char of sceneId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return SCENE_COLOURS[hash % SCENE_COLOURS.length]!;
}
