import type { MaintenanceWindow, RolloutSelection, RolloutState, RolloutTargetState } from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { identityId, instant, mayReferTo, refersTo } from './columns.ts';
import { gateways } from './gateways.ts';
import { users } from './users.ts';

/**
 * Fleet firmware rollouts (docs/operations.md "Platform view and firmware rollouts"): one firmware file for a
 * chosen set of gateways, in waves. `step` numbers the durable job that moves it on: the job of step n may
 * schedule step n + 1 only by raising it from n, so a rollout has one job in flight whatever node runs it.
 */
export const firmwareRollouts = pgTable(
  'firmware_rollouts',
  {
    id: identityId(),
    target: text('target').notNull(),
    version: text('version').notNull(),
    selection: jsonb('selection').$type<RolloutSelection>().notNull(),
    waveSize: integer('wave_size').notNull(),
    concurrency: integer('concurrency').notNull(),
    failureThresholdPct: integer('failure_threshold_pct').notNull(),
    window: jsonb('window').$type<MaintenanceWindow>(),
    /** ROLLOUT_STATES of the contract. */
    state: text('state').$type<RolloutState>().notNull(),
    /** threshold or manual while paused. */
    pauseReason: text('pause_reason').$type<'threshold' | 'manual'>(),
    currentWave: integer('current_wave').notNull().default(1),
    /** The last wave whose failures a resume accepted: the threshold no longer pauses it. */
    acceptedWave: integer('accepted_wave').notNull().default(0),
    waves: integer('waves').notNull(),
    step: integer('step').notNull().default(0),
    createdBy: mayReferTo('created_by', () => users.id, 'set null'),
    createdAt: instant('created_at').notNull(),
    updatedAt: instant('updated_at').notNull(),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    index('firmware_rollouts_created_idx').on(t.createdAt),
    check('firmware_rollouts_state_check', sql`${t.state} in ('running', 'paused', 'done', 'rollingBack', 'rolledBack')`),
  ],
);

/** One gateway of a rollout, with the version it ran before, so a rollback knows what to install. */
export const firmwareRolloutTargets = pgTable(
  'firmware_rollout_targets',
  {
    rolloutId: refersTo('rollout_id', () => firmwareRollouts.id, 'cascade'),
    mac: text('mac').notNull(),
    gatewayId: mayReferTo('gateway_id', () => gateways.id, 'set null'),
    wave: integer('wave').notNull(),
    fromVersion: text('from_version').notNull(),
    /** ROLLOUT_TARGET_STATES of the contract. */
    state: text('state').$type<RolloutTargetState>().notNull().default('pending'),
    /** The firmware update the gateway link started (gateways.fw_update_id), to match its result. */
    updateId: text('update_id'),
    errorCode: integer('error_code'),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.rolloutId, t.mac] }), index('firmware_rollout_targets_mac_idx').on(t.mac, t.state)],
);
