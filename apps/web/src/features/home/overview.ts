import type { SceneWeekRun } from '@lumigrid/contract/browser';

/** The runs still to come after `now`, soonest first, at most `count`. */
export function upcomingRuns(runs: readonly SceneWeekRun[], now: number, count: number): SceneWeekRun[] {
  return runs
    .filter((run) => run.at >= now)
    .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name))
    .slice(0, count);
}
