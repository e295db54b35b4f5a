import type { SceneFields, SceneKind, SceneTrigger } from '@lumigrid/contract/browser';

/**
 * The times of a scene as its editor shows them, and back to the contract's triggers. A schedule is a list of
 * time slots (a start and, if wanted, an end); a sunrise/sunset scene a list of rows (event, before/after,
 * minutes, start/end); a scene that runs once a date and a time.
 */

/** One time slot of a schedule: the members' actions at `start`, off at `end` (none: they stay as set). */
export interface TimeSlot {
  start: string | null;
  end: string | null;
}

export function slotsToTriggers(slots: readonly TimeSlot[]): SceneTrigger[] {
  return slots.flatMap((slot) => [
    ...(slot.start ? [{ at: slot.start, offsetMin: 0, then: 'start' as const }] : []),
    ...(slot.end ? [{ at: slot.end, offsetMin: 0, then: 'end' as const }] : []),
  ]);
}

/**
 * The slots of saved clock triggers: each start takes the end that follows it (as slotsToTriggers writes them);
 * an end without a start before it stands alone.
 */
export function triggersToSlots(triggers: readonly SceneTrigger[]): TimeSlot[] {
  const clock = triggers.filter((t) => t.at !== 'sunrise' && t.at !== 'sunset');
  const slots: TimeSlot[] = [];
  for (const trigger of clock) {
    const last = slots[slots.length - 1];
    if (trigger.then === 'end' && last && last.start !== null && last.end === null) last.end = trigger.at;
    else if (trigger.then === 'start') slots.push({ start: trigger.at, end: null });
    else slots.push({ start: null, end: trigger.at });
  }
  return slots;
}

/** Slots whose start is missing, or whose end is not after their start on the same day. */
export function slotProblems(slots: readonly TimeSlot[]): Array<'noStart' | 'endBeforeStart' | undefined> {
  return slots.map((slot) => {
    if (!slot.start) return 'noStart';
    if (slot.end && slot.end <= slot.start) return 'endBeforeStart';
    return undefined;
  });
}

/** One row of a sunrise/sunset scene: "start at sunset, 15 minutes before". */
export interface SunRow {
  event: 'sunrise' | 'sunset';
  direction: 'before' | 'after';
  minutes: number;
  then: 'start' | 'end';
}

/** On at sunset -15 min, off at sunrise +10 min: the usual outdoor lighting. */
export const DEFAULT_SUN_ROWS: readonly SunRow[] = [
  { event: 'sunset', direction: 'before', minutes: 15, then: 'start' },
  { event: 'sunrise', direction: 'after', minutes: 10, then: 'end' },
];

export function sunRowsToTriggers(rows: readonly SunRow[]): SceneTrigger[] {
  return rows.map((row) => ({
    at: row.event,
    offsetMin: (row.direction === 'before' ? -1 : 1) * Math.abs(Math.round(row.minutes)),
    then: row.then,
  }));
}

export function triggersToSunRows(triggers: readonly SceneTrigger[]): SunRow[] {
  return triggers.flatMap((t) =>
    t.at === 'sunrise' || t.at === 'sunset'
      ? [
          {
            event: t.at,
            direction: t.offsetMin < 0 ? ('before' as const) : ('after' as const),
            minutes: Math.abs(t.offsetMin),
            then: t.then,
          },
        ]
      : [],
  );
}

/** The weekday (0 Sunday ... 6 Saturday) of a YYYY-MM-DD date, whatever the browser's time zone. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** A scene that runs once: one start at a time on one date; from = to = the date, its weekday the only day. */
export function onceTiming(date: string, time: string): Pick<SceneFields, 'triggers' | 'days' | 'from' | 'to'> {
  return { triggers: [{ at: time, offsetMin: 0, then: 'start' }], days: [weekdayOf(date)], from: date, to: date };
}

/** Every weekday, Monday first as the editor lists them. */
export const WEEKDAYS_MONDAY_FIRST = [1, 2, 3, 4, 5, 6, 0] as const;

/** The editor route of each kind (spec section 2); a group schedule shares the schedule editor. */
export const EDITOR_ROUTE: Record<SceneKind, string> = {
  manual: '/scene/add/manual',
  schedule: '/scene/add/schedule',
  groupSchedule: '/scene/add/schedule',
  sun: '/scene/add/sunriseSunset',
  once: '/scene/add/reportonce',
  sequence: '/scene/add/sequence',
};

/** Where a scene is edited: its kind's editor with the query id. */
export function editPath(scene: { id: string; kind: SceneKind }): string {
  return `${EDITOR_ROUTE[scene.kind]}?id=${scene.id}`;
}

/** Kinds that run by hand (the Run button); the rest run on the gateways' clocks. */
export function runsByHand(kind: SceneKind): boolean {
  return kind === 'manual' || kind === 'sequence';
}
