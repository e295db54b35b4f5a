import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { JobState } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';
import { createJobsRepo, type JobAttempt, type JobRow } from './jobs.repo.ts';

/** What a payload and a result may hold: they are stored as jsonb. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What a handler knows about the attempt it runs. */
export interface JobContext {
  id: bigint;
  kind: string;
  key: string;
  /** 1 on the first try. */
  attempt: number;
  /** Aborted when this node lost the lease (another node may be running the job now): stop soon. */
  signal: AbortSignal;
}

/**
 * Runs one attempt. A throw is a failed attempt, retried with back-off until max attempts; what it answers is
 * the job's result. Handlers must tolerate running twice: a node that dies after the work and before recording
 * it leaves the job to be taken again.
 */
export type JobHandler = (payload: Json, context: JobContext) => Promise<Json | void> | Json | void;

export interface ScheduledJob {
  kind: string;
  /** The occurrence (`tenant:42/2026-11`): the same kind and key is scheduled once, whoever asks. */
  key: string;
  runAt: Date;
  payload?: Json;
  maxAttempts?: number;
}

/** A job as a caller reads it back. */
export interface JobOutcome {
  id: bigint;
  kind: string;
  key: string;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  result: Json | null;
  lastError: string | null;
  leaseOwner: string | null;
  lockedUntil: Date | null;
  finishedAt: Date | null;
}

export interface JobRunnerOptions {
  db: Db;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Names this process in lease_owner; unique per process by default. */
  nodeId?: string;
  /** How long a claimed job is this node's before another may take it; renewed while the handler runs. */
  leaseMs?: number;
  /** How often start() looks for due jobs. */
  pollMs?: number;
  /** Jobs this node runs at once. */
  concurrency?: number;
  /** First retry delay; it doubles with every failed attempt up to retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Told when this node handed running jobs back (handOver), so the other nodes can look for them at once. */
  onHandedBack?: () => void;
}

export const JOB_DEFAULTS = {
  leaseMs: 5 * 60_000,
  pollMs: 5_000,
  concurrency: 4,
  maxAttempts: 5,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
};

/** Room enough for a cause; a stack or a payload never goes in (the table is read by operators). */
const LAST_ERROR_CHARS = 1000;

/** The delay before the next attempt after `attempts` failed ones: doubling from base, capped. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxMs);
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > LAST_ERROR_CHARS ? `${text.slice(0, LAST_ERROR_CHARS - 1)}…` : text;
}

function outcomeOf(row: JobRow): JobOutcome {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAt: row.runAt,
    result: (row.result ?? null) as Json | null,
    lastError: row.lastError,
    leaseOwner: row.leaseOwner,
    lockedUntil: row.lockedUntil,
    finishedAt: row.finishedAt,
  };
}

/**
 * Durable jobs in the jobs table, run once across every node on the same database (docs/decisions.md,
 * "Durable jobs in a table"). Register handlers, then start(); tests call runDue() and move the clock instead.
 */
export function createJobRunner(options: JobRunnerOptions) {
  const { clock, logger } = options;
  const settings = {
    leaseMs: options.leaseMs ?? JOB_DEFAULTS.leaseMs,
    pollMs: options.pollMs ?? JOB_DEFAULTS.pollMs,
    concurrency: options.concurrency ?? JOB_DEFAULTS.concurrency,
    maxAttempts: JOB_DEFAULTS.maxAttempts,
    retryBaseMs: options.retryBaseMs ?? JOB_DEFAULTS.retryBaseMs,
    retryMaxMs: options.retryMaxMs ?? JOB_DEFAULTS.retryMaxMs,
  };
  const nodeId = options.nodeId ?? `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
  const repo = createJobsRepo(options.db);
  const handlers = new Map<string, JobHandler>();
  const running = new Map<bigint, { attempt: JobAttempt; lease: AbortController; done: Promise<void>; handedBack?: boolean }>();
  const sweeps = new Set<Promise<number>>();
  const queries = new Set<Promise<unknown>>();
  let pollTimer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let closing = false;

  const leaseEnd = () => new Date(clock.now().getTime() + settings.leaseMs);

  /** Keeps the leases of running jobs alive, so only a dead node's jobs expire; a lost one is aborted. */
  async function renewLeases() {
    const attempts = [...running.values()].map((job) => job.attempt);
    const held = await repo.renew({ nodeId, attempts, lockedUntil: leaseEnd() });
    for (const attempt of attempts) {
      const job = running.get(attempt.id);
      if (job?.attempt === attempt && !held.has(attempt.id)) job.lease.abort(new Error('lease lost to another node'));
    }
  }

  function watchLeases() {
    if (renewTimer || running.size === 0) return;
    renewTimer = setInterval(
      () => void renewLeases().catch((err: unknown) => logger.warn({ err }, 'job leases not renewed')),
      Math.max(1, Math.floor(settings.leaseMs / 3)),
    );
    renewTimer.unref();
  }

  function unwatchLeases() {
    if (running.size > 0 || !renewTimer) return;
    clearInterval(renewTimer);
    renewTimer = undefined;
  }

  async function attempt(row: JobRow, handler: JobHandler, lease: AbortController) {
    const own = { id: row.id, attempts: row.attempts };
    const job = { id: row.id, kind: row.kind, key: row.key, attempt: row.attempts };
    let result: Json;
    try {
      const answered = await handler(row.payload as Json, { ...job, signal: lease.signal });
      // Checked here, so a result jsonb cannot hold (a bigint, a cycle) fails the attempt instead of the write.
      result = JSON.parse(JSON.stringify(answered ?? null)) as Json;
    } catch (error) {
      const lastError = errorText(error);
      const now = clock.now();
      if (row.attempts >= row.maxAttempts) {
        if (await repo.fail({ nodeId, attempt: own, error: lastError, now })) logger.warn({ job, lastError }, 'job failed for good');
        return;
      }
      const runAt = new Date(now.getTime() + retryDelayMs(row.attempts, settings.retryBaseMs, settings.retryMaxMs));
      if (await repo.retry({ nodeId, attempt: own, error: lastError, runAt }))
        logger.warn({ job, lastError, runAt }, 'job failed; retrying');
      return;
    }
    if (!(await repo.complete({ nodeId, attempt: own, result, now: clock.now() }))) {
      logger.warn({ job }, 'job finished after another node took it over; this result is dropped');
    }
  }

  function run(row: JobRow): Promise<void> {
    const handler = handlers.get(row.kind)!;
    const lease = new AbortController();
    const done = attempt(row, handler, lease)
      // Not recorded (the database went away): the lease runs out and another attempt follows.
      .catch((err: unknown) => logger.error({ err, job: { id: row.id, kind: row.kind, key: row.key } }, 'job outcome not recorded'))
      .finally(() => {
        running.delete(row.id);
        unwatchLeases();
      });
    running.set(row.id, { attempt: { id: row.id, attempts: row.attempts }, lease, done });
    watchLeases();
    return done;
  }

  /** Keeps a sweep's query in `queries` while it runs: closing waits for it, not for the jobs the sweep started. */
  function queried<T>(query: Promise<T>): Promise<T> {
    queries.add(query);
    return query.finally(() => queries.delete(query));
  }

  async function sweep(): Promise<number> {
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return 0;
    await queried(
      repo.failAbandoned({ kinds, now: clock.now(), error: 'lease expired on the last attempt (the node running it stopped)' }),
    );
    let ran = 0;
    while (!closing) {
      const limit = settings.concurrency - running.size;
      if (limit <= 0) break;
      const now = clock.now();
      const claimed = await queried(repo.claim({ kinds, now, limit, nodeId, lockedUntil: new Date(now.getTime() + settings.leaseMs) }));
      if (claimed.length === 0) break;
      await Promise.all(claimed.map(run));
      ran += claimed.length;
    }
    return ran;
  }

  function poll() {
    pollTimer = setTimeout(() => {
      void runner
        .runDue()
        .catch((err: unknown) => logger.warn({ err }, 'due jobs not claimed'))
        .finally(() => {
          if (!closing) poll();
        });
    }, settings.pollMs);
    pollTimer.unref();
  }

  const runner = {
    nodeId,

    /** One handler per kind; a node claims only kinds it has a handler for (mixed versions during a deploy). */
    register(kind: string, handler: JobHandler): void {
      if (handlers.has(kind)) throw new Error(`a handler for job kind ${kind} is already registered`);
      handlers.set(kind, handler);
    },

    /** Queues an occurrence; answers whether it was new (false: this kind and key exist already). */
    schedule(job: ScheduledJob): Promise<boolean> {
      return repo.insert({
        kind: job.kind,
        key: job.key,
        runAt: job.runAt,
        payload: job.payload ?? {},
        maxAttempts: job.maxAttempts ?? settings.maxAttempts,
        createdAt: clock.now(),
      });
    },

    /**
     * Claims and runs due jobs until none is left (or close() began) and records each outcome; answers how many
     * attempts this call ran. The poll timer calls it; tests call it after moving the clock.
     */
    async runDue(): Promise<number> {
      // A sweep under way (the poll timer's) may have claimed jobs due now: they have run when this answers.
      await Promise.allSettled([...sweeps]);
      if (closing) return 0;
      const swept = sweep();
      sweeps.add(swept);
      try {
        return await swept;
      } finally {
        sweeps.delete(swept);
      }
    },

    async find(kind: string, key: string): Promise<JobOutcome | undefined> {
      const row = await repo.find({ kind, key });
      return row && outcomeOf(row);
    },

    /** Looks for due jobs every pollMs until close(). */
    start(): void {
      if (pollTimer || closing) return;
      poll();
    },

    /**
     * For a node that is stopping: claims nothing more, gives the running jobs `waitMs` to record their outcome,
     * then queues the others again for another node (their attempt not counted) and aborts their handlers.
     * Answers how many were handed back.
     */
    async handOver(waitMs: number): Promise<number> {
      closing = true;
      clearTimeout(pollTimer);
      await Promise.allSettled([...queries]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running.values()].map((job) => job.done)),
        new Promise((wake) => (timer = setTimeout(wake, waitMs))),
      ]);
      clearTimeout(timer);
      const left = [...running.values()].filter((job) => !job.handedBack);
      if (left.length === 0) return 0;
      // Queued before the abort: an aborted handler that fails fast must not record a retry with its back-off.
      const released = await repo.release({ nodeId, attempts: left.map((job) => job.attempt), runAt: clock.now() });
      for (const job of left) {
        if (!released.has(job.attempt.id)) continue;
        job.handedBack = true;
        job.lease.abort(new Error('handed back: this node is stopping'));
      }
      if (released.size > 0) {
        logger.info({ jobs: released.size }, 'running jobs handed back to the other nodes');
        options.onHandedBack?.();
      }
      return released.size;
    },

    /** Stops claiming and waits for the jobs running on this node (but those handed back) to record their outcome. */
    async close(): Promise<void> {
      closing = true;
      clearTimeout(pollTimer);
      await Promise.allSettled([...queries]);
      await Promise.allSettled([...running.values()].filter((job) => !job.handedBack).map((job) => job.done));
      clearInterval(renewTimer);
      renewTimer = undefined;
    },
  };
  return runner;
}

export type JobRunner = ReturnType<typeof createJobRunner>;
