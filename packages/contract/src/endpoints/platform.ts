import { Type } from 'typebox';
import { NoFieldsBodySchema } from '../common.ts';
import { endpoint } from '../endpoint.ts';
import {
  FirmwareFileViewSchema,
  PlatformOverviewSchema,
  RolloutCreateBodySchema,
  RolloutDetailSchema,
  RolloutParamsSchema,
  RolloutSchema,
} from '../platform.ts';

const LIVE = 'Every change is published on /topic/firmware_rollouts (platform administrators only).';

/**
 * The platform administrator's view across tenants and the fleet firmware rollouts (docs/operations.md
 * "Platform view and firmware rollouts"). Only the platform administrator may call them.
 */
export const platformEndpoints = {
  overview: endpoint({
    method: 'GET',
    path: '/api4/platform/v1/overview',
    tags: ['platform'],
    summary: 'Every tenant with its gateways online and offline, open alarms and storage; firmware versions in the fleet',
    access: 'admin',
    response: PlatformOverviewSchema,
  }),
  firmwareFiles: endpoint({
    method: 'GET',
    path: '/api4/platform/v1/firmware_files',
    tags: ['platform'],
    summary: 'The firmware files of the catalogue a rollout can install',
    access: 'admin',
    response: Type.Array(FirmwareFileViewSchema),
  }),
  rollouts: endpoint({
    method: 'GET',
    path: '/api4/platform/v1/rollouts',
    tags: ['platform'],
    summary: 'Fleet firmware rollouts, newest first',
    access: 'admin',
    response: Type.Array(RolloutSchema),
  }),
  rollout: endpoint({
    method: 'GET',
    path: '/api4/platform/v1/rollout/:id',
    tags: ['platform'],
    summary: 'One rollout with each of its gateways',
    access: 'admin',
    params: RolloutParamsSchema,
    response: RolloutDetailSchema,
    errors: [104003],
  }),
  startRollout: endpoint({
    method: 'POST',
    path: '/api4/platform/v1/rollout',
    tags: ['platform'],
    summary: 'Starts a fleet firmware rollout in waves',
    description: `Takes the gateways the selection matches that do not run the version yet, in waves of waveSize (in MAC order), at most concurrency updates at once, each only inside the maintenance window of its own time zone. When more than failureThresholdPct percent of a wave has failed, the rollout pauses and the later waves are left alone. ${LIVE}`,
    access: 'admin',
    body: RolloutCreateBodySchema,
    response: RolloutSchema,
    errors: [104001, 104002, 104004, 104005, 104007],
  }),
  pauseRollout: endpoint({
    method: 'POST',
    path: '/api4/platform/v1/rollout/:id/pause',
    tags: ['platform'],
    summary: 'Pauses a running rollout: updates under way finish, no new one starts',
    access: 'admin',
    params: RolloutParamsSchema,
    body: NoFieldsBodySchema,
    response: RolloutSchema,
    errors: [104003, 104006],
  }),
  resumeRollout: endpoint({
    method: 'POST',
    path: '/api4/platform/v1/rollout/:id/resume',
    tags: ['platform'],
    summary: 'Resumes a paused rollout with the gateways not yet updated; failed ones stay failed',
    access: 'admin',
    params: RolloutParamsSchema,
    body: NoFieldsBodySchema,
    response: RolloutSchema,
    errors: [104003, 104006],
  }),
  rollBack: endpoint({
    method: 'POST',
    path: '/api4/platform/v1/rollout/:id/rollback',
    tags: ['platform'],
    summary: 'Rolls a paused or finished rollout back: the gateways it updated get their previous version again',
    description: 'Needs the previous version in the catalogue; a gateway whose version has no file ends rollbackFailed (260007).',
    access: 'admin',
    params: RolloutParamsSchema,
    body: NoFieldsBodySchema,
    response: RolloutSchema,
    errors: [104003, 104006],
  }),
};
