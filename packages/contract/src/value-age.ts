/**
 * How old a reported value may be before it is shown as stale: a gateway reports its devices' states and
 * measurements every report interval (gateway settings `reportIntervalS`), so a value older than two of them
 * has missed at least one report and may no longer be true (a light switched on since still shows the power it
 * drew while off).
 */
export const STALE_AFTER_REPORTS = 2;

/** The report interval a gateway uses when none is set (its firmware's default), seconds. */
export const DEFAULT_REPORT_INTERVAL_S = 60;

/** The age of a value measured or heard `at` (ISO 8601), at `now` (epoch ms), and whether it is stale. */
export function valueAge(at: string, reportIntervalS: number | null, now: number): { ageMs: number; stale: boolean } {
  const ageMs = Math.max(0, now - Date.parse(at));
  const intervalMs = (reportIntervalS ?? DEFAULT_REPORT_INTERVAL_S) * 1000;
  return { ageMs, stale: ageMs > STALE_AFTER_REPORTS * intervalMs };
}
