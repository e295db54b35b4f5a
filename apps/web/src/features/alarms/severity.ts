import { ALARM_SEVERITIES, type AlarmSeverity, type AlarmSummary } from '@lumigrid/contract/browser';

/** Spec section 9 status colours, most urgent first: red, volcano, gold, blue. */
export const SEVERITY_COLOUR: Record<AlarmSeverity, string> = { critical: 'red', high: 'volcano', medium: 'gold', low: 'blue' };

/** The banner's parts: each severity with unacknowledged alarms, most urgent first. */
export function bannerCounts(summary: AlarmSummary | undefined): Array<{ severity: AlarmSeverity; count: number }> {
  if (!summary) return [];
  return ALARM_SEVERITIES.map((severity) => ({ severity, count: summary.unacked[severity] })).filter((c) => c.count > 0);
}
