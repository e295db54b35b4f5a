import { and, asc, count, eq, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';

export type JobRow = typeof jobs.$inferSelect;

// Written as literals, not parameters, so every plan (a prepared statement's generic one too) matches the
// partial indexes jobs_queued_run_at_idx and jobs_running_locked_until_idx.
const isQueued = sql`${jobs.state} = 'queued'`;
const isRunning = sql`${jobs.state} = 'running'`;

/** One claimed attempt of a job: a finish or a lease renewal counts only while the row still says so. */
export interface JobAttempt {
  id: bigint;
  attempts: number;
}

/**
 * The queries of the job runner. Every time is a parameter from the runner's clock, never the database's
 * now(), so nodes agree with the clock they were given and tests move time by hand.
 */
export function createJobsRepo(db: Db) {
  /** The row is this node's current attempt; anything else (taken over, finished) ignores the write. */
  const ownAttempt = (nodeId: string, attempt: JobAttempt) =>
    and(eq(jobs.id, attempt.id), eq(jobs.attempts, attempt.attempts), eq(jobs.state, 'running'), eq(jobs.leaseOwner, nodeId));

  /** Writes one attempt if it is still this node's; answers whether it was. */
  async function updateOwnAttempt(nodeId: string, attempt: JobAttempt, set: PgUpdateSetSource<typeof jobs>): Promise<boolean> {
    const rows = await db.update(jobs).set(set).where(ownAttempt(nodeId, attempt)).returning({ id: jobs.id });
    return rows.length > 0;
  }

  /** Writes those of the attempts still this node's; answers their ids. */
  async function updateOwnAttempts(nodeId: string, attempts: JobAttempt[], set: PgUpdateSetSource<typeof jobs>): Promise<Set<bigint>> {
    if (attempts.length === 0) return new Set();
    const rows = await db
      .update(jobs)
      .set(set)
      .where(or(...attempts.map((attempt) => ownAttempt(nodeId, attempt))))
      .returning({ id: jobs.id });
    return new Set(rows.map((row) => row.id));
  }

  return {
    /** Jobs queued and running across every node; each count reads its partial index, never the finished rows. */
    async countActive(): Promise<{ queued: number; running: number }> {
      const countWhere = async (state: SQL) => (await db.select({ n: count() }).from(jobs).where(state))[0]?.n ?? 0;
      return { queued: await countWhere(isQueued), running: await countWhere(isRunning) };
    },

    /** Answers whether a row was made: the same kind and key from any node inserts once. */
    async insert(row: { kind: string; key: string; runAt: Date; payload: unknown; maxAttempts: number; createdAt: Date }) {
      const made = await db
        .insert(jobs)
        .values(row)
        .onConflictDoNothing({ target: [jobs.kind, jobs.key] })
        .returning({ id: jobs.id });
      return made.length > 0;
    },

    /**
     * Takes up to `limit` due jobs of the given kinds: queued ones whose time came, and running ones whose lease
     * ended (their node is taken to be dead) with attempts left. SKIP LOCKED lets nodes claim side by side
     * without waiting on or taking each other's rows.
     */
    async claim(input: { kinds: string[]; now: Date; limit: number; nodeId: string; lockedUntil: Date }): Promise<JobRow[]> {
      const due = db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            inArray(jobs.kind, input.kinds),
            or(
              and(isQueued, lte(jobs.runAt, input.now)),
              and(isRunning, lt(jobs.lockedUntil, input.now), lt(jobs.attempts, jobs.maxAttempts)),
            ),
          ),
        )
        .orderBy(asc(jobs.runAt))
        .limit(input.limit)
        .for('update', { skipLocked: true });
      return db
        .update(jobs)
        .set({ state: 'running', attempts: sql`${jobs.attempts} + 1`, leaseOwner: input.nodeId, lockedUntil: input.lockedUntil })
        .where(inArray(jobs.id, due))
        .returning();
    },

    /**
     * Fails running jobs whose lease ended after their last attempt: the node died on every try, so nobody
     * may take them again. Answers how many.
     */
    async failAbandoned(input: { kinds: string[]; now: Date; error: string }): Promise<number> {
      const failed = await db
        .update(jobs)
        .set({ state: 'failed', finishedAt: input.now, lockedUntil: null, lastError: input.error })
        .where(
          and(inArray(jobs.kind, input.kinds), isRunning, lt(jobs.lockedUntil, input.now), sql`${jobs.attempts} >= ${jobs.maxAttempts}`),
        )
        .returning({ id: jobs.id });
      return failed.length;
    },

    /** Pushes the leases of this node's running attempts forward; answers the ids it still holds. */
    async renew(input: { nodeId: string; attempts: JobAttempt[]; lockedUntil: Date }): Promise<Set<bigint>> {
      return updateOwnAttempts(input.nodeId, input.attempts, { lockedUntil: input.lockedUntil });
    },

    /** Records success; answers false when the attempt was no longer this node's. */
    async complete(input: { nodeId: string; attempt: JobAttempt; result: unknown; now: Date }): Promise<boolean> {
      return updateOwnAttempt(input.nodeId, input.attempt, {
        state: 'done',
        result: input.result,
        finishedAt: input.now,
        lockedUntil: null,
      });
    },

    /** Queues the job again at `runAt`; answers false when the attempt was no longer this node's. */
    async retry(input: { nodeId: string; attempt: JobAttempt; error: string; runAt: Date }): Promise<boolean> {
      return updateOwnAttempt(input.nodeId, input.attempt, {
        state: 'queued',
        runAt: input.runAt,
        lastError: input.error,
        lockedUntil: null,
      });
    },

    /**
     * Queues this node's running attempts again at `runAt`, the attempt not counted: a node that is stopping
     * hands them back so another takes them now instead of after the lease. Answers the ids handed back.
     */
    async release(input: { nodeId: string; attempts: JobAttempt[]; runAt: Date }): Promise<Set<bigint>> {
      return updateOwnAttempts(input.nodeId, input.attempts, {
        state: 'queued',
        attempts: sql`${jobs.attempts} - 1`,
        runAt: input.runAt,
        leaseOwner: null,
        lockedUntil: null,
      });
    },

    /** Records the last failure for good; answers false when the attempt was no longer this node's. */
    async fail(input: { nodeId: string; attempt: JobAttempt; error: string; now: Date }): Promise<boolean> {
      return updateOwnAttempt(input.nodeId, input.attempt, {
        state: 'failed',
        lastError: input.error,
        finishedAt: input.now,
        lockedUntil: null,
      });
    },

    async find(input: { kind: string; key: string }): Promise<JobRow | undefined> {
      const [row] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, input.kind), eq(jobs.key, input.key)));
      return row;
    },
  };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;
