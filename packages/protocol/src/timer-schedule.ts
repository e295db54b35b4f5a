/**
 * Runs `work` after `ms` wall-clock milliseconds; answers how to call it off. A gateway waits with one, so tests
 * can pass one they move by hand (a gateway's lighting schedules are `Schedule` in schedule.ts, not this).
 */
export type TimerSchedule = (work: () => void, ms: number) => () => void;

/** setTimeout, not holding the process open. */
export const realSchedule: TimerSchedule = (work, ms) => {
  const timer = setTimeout(work, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** A TimerSchedule whose waits a test runs by hand, in the order they were asked for: no test waits for the wall clock. */
export function manualSchedule() {
  const pending: Array<{ work: () => void; ms: number }> = [];
  const schedule: TimerSchedule = (work, ms) => {
    const entry = { work, ms };
    pending.push(entry);
    return () => {
      const at = pending.indexOf(entry);
      if (at >= 0) pending.splice(at, 1);
    };
  };
  return {
    schedule,
    /** The waits asked for and not yet run or called off. */
    pending,
    /** Runs the oldest pending wait now. */
    runNext() {
      const next = pending.shift();
      if (!next) throw new Error('nothing is scheduled');
      next.work();
    },
  };
}
