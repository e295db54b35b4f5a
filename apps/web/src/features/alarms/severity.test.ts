import { describe, expect, it } from 'vitest';
import { bannerCounts } from './severity.ts';

describe('the alarm banner counts', () => {
  it('lists the severities with unacknowledged alarms, most urgent first', () => {
    expect(bannerCounts({ unacked: { low: 4, medium: 0, high: 1, critical: 2 }, shelved: 3 })).toEqual([
      { severity: 'critical', count: 2 },
      { severity: 'high', count: 1 },
      { severity: 'low', count: 4 },
    ]);
  });

  it('shows nothing before the summary arrives or when nothing waits', () => {
    expect(bannerCounts(undefined)).toEqual([]);
    expect(bannerCounts({ unacked: { low: 0, medium: 0, high: 0, critical: 0 }, shelved: 1 })).toEqual([]);
  });
});
