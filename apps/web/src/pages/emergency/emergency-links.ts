import type { EmergencyRunResult, EmergencyTask, EmergencyTaskStatus } from '@lumigrid/contract/browser';

/** The task's page: the spec's detection settings take the task as query i and its project as p. */
export const taskPath = (task: Pick<EmergencyTask, 'id' | 'projectId'>) => `/emergency/set/details?i=${task.id}&p=${task.projectId}`;

/** A run's records (the report's details page). */
export const runPath = (runId: string) => `/emergency/report/details?id=${runId}`;

/** Status colours of spec section 9 where they apply: running blue, finished green, stopped amber. */
export const STATUS_COLOUR: Record<EmergencyTaskStatus, string> = {
  idle: 'default',
  running: 'processing',
  finished: 'green',
  stopped: 'gold',
};

export const RESULT_COLOUR: Record<EmergencyRunResult, string> = { pass: 'green', failed: 'red', stopped: 'default' };
