import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, identityId, instant } from './columns.ts';

/** Where a job is in its life; `running` rows carry a lease that another node may take once it expires. */
export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * Durable work (mailed reports, emergency test plans, rollups) claimed with FOR UPDATE SKIP LOCKED, so each
 * job runs on one server node at a time (docs/decisions.md, "Durable jobs in a table").
 */
export const jobs = pgTable(
  'jobs',
  {
    id: identityId(),
    /** Which handler runs it (`report.mail`, `emergency.plan`, ...). */
    kind: text('kind').notNull(),
    /** The occurrence within its kind (`tenant:42/2026-11`): scheduling it again, from any node, is a no-op. */
    key: text('key').notNull(),
    /** What the handler needs; never secrets, the table is read by operators. */
    payload: jsonb('payload').notNull().default({}),
    /** Not before this time; moved forward by the back-off after a failed attempt. */
    runAt: instant('run_at').notNull(),
    /** JOB_STATES. */
    state: text('state').$type<JobState>().notNull().default('queued'),
    /** Attempts claimed so far, including one whose node died. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    /** The node running it now (or last); a finish from another node is ignored. */
    leaseOwner: text('lease_owner'),
    /** A running job whose lease ended here is claimable again: its node is taken to be dead. */
    lockedUntil: instant('locked_until'),
    /** The last attempt's error message, truncated. */
    lastError: text('last_error'),
    /** What the handler answered. */
    result: jsonb('result'),
    createdAt: createdAt(),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_kind_key').on(t.kind, t.key),
    // The claim reads queued jobs in run_at order and running ones whose lease ended; each has its own index.
    index('jobs_queued_run_at_idx')
      .on(t.runAt)
      .where(sql`${t.state} = 'queued'`),
    index('jobs_running_locked_until_idx')
      .on(t.lockedUntil)
      .where(sql`${t.state} = 'running'`),
    check('jobs_state_check', sql`${t.state} in ('queued', 'running', 'done', 'failed')`),
  ],
);
