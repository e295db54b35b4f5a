import type { EmergencySchedule } from '@lumigrid/contract';
import { addDays, localDateOf, zonedInstant, type LocalDate } from '../reports/report-schedule.ts';

/** A light as the stagger sees it: its place on the floor plan (fractions of the image), or none. */
export interface StaggerLight {
  id: bigint;
  x: number | null;
  y: number | null;
}

/**
 * Splits a run's lights into waves so that no two lights closer than `spacingM` test together (greedy colouring in
 * name order: each light takes the first wave with no neighbour in it). Distances are in metres: x scaled by the
 * plan's real width, y by the same scale times the image's aspect ratio. A light without a position neighbours
 * nobody. Answers the wave (1 first) of each light.
 */
export function staggerWaves(
  lights: readonly StaggerLight[],
  options: { spacingM: number; planWidthM: number; aspect: number },
): Map<bigint, number> {
  const waves = new Map<bigint, number>();
  const members: StaggerLight[][] = [];
  const metres = (l: StaggerLight) => ({ x: (l.x ?? 0) * options.planWidthM, y: (l.y ?? 0) * options.planWidthM * options.aspect });
  const near = (a: StaggerLight, b: StaggerLight) => {
    if (a.x === null || a.y === null || b.x === null || b.y === null) return false;
    const p = metres(a);
    const q = metres(b);
    return Math.hypot(p.x - q.x, p.y - q.y) < options.spacingM;
  };
  for (const light of lights) {
    let wave = options.spacingM > 0 ? members.findIndex((m) => !m.some((other) => near(light, other))) : 0;
    if (wave === -1) wave = members.length;
    (members[wave] ??= []).push(light);
    waves.set(light.id, wave + 1);
  }
  return waves;
}

/** The first run of a recurrence strictly after `after`, or null for none (days 1-28, so every month has one). */
export function nextPlannedRun(schedule: EmergencySchedule, timeZone: string, after: Date): Date | null {
  if (schedule.rule === 'none') return null;
  const [hour, minute] = schedule.time.split(':').map(Number) as [number, number];
  const today = localDateOf(addDaysTo(after, -1), timeZone);
  for (let i = 0; i < 30; i++) {
    const date: LocalDate =
      schedule.rule === 'monthly'
        ? { year: today.year + Math.floor((today.month - 1 + i) / 12), month: ((today.month - 1 + i) % 12) + 1, day: schedule.day }
        : { year: today.year + i, month: schedule.month, day: schedule.day };
    const at = zonedInstant(date, hour, minute, timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  return null;
}

function addDaysTo(at: Date, days: number): Date {
  const d = addDays({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() }, days);
  return new Date(Date.UTC(d.year, d.month - 1, d.day, at.getUTCHours(), at.getUTCMinutes()));
}
