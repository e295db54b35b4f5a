/** Runs `work` after `ms` wall-clock milliseconds; answers how to call it off. */
export type Schedule = (work: () => void, ms: number) => () => void;

export const realSchedule: Schedule = (work, ms) => {
  const timer = setTimeout(work, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** A Schedule whose waits a test runs by hand, in the order they were asked for: no test waits for the wall clock. */
export function manualSchedule() {
  const pending: Array<{ work: () => void; ms: number }> = [];
  const schedule: Schedule = (work, ms) => {
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
