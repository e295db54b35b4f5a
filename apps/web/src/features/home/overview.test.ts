import { describe, expect, it } from 'vitest';
import type { SceneWeekRun } from '@lumigrid/contract/browser';
import { upcomingRuns } from './overview.ts';

const run = (name: string, at: number): SceneWeekRun => ({
  sceneId: name,
  name,
  kind: 'schedule',
  gatewayId: '1',
  gatewayName: 'Gateway',
  at,
  timezone: 'UTC',
  then: 'start',
});

describe('upcomingRuns', () => {
  it('keeps the runs still to come, soonest first, up to the count', () => {
    const runs = [run('late', 300), run('past', 50), run('soon', 200), run('now', 100), run('later', 400)];
    expect(upcomingRuns(runs, 100, 3).map((r) => r.name)).toEqual(['now', 'soon', 'late']);
  });

  it('orders runs at the same time by name', () => {
    expect(upcomingRuns([run('b', 10), run('a', 10)], 0, 5).map((r) => r.name)).toEqual(['a', 'b']);
  });
});
