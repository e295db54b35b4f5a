import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import type { JobContext, JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import { createEnergyRepo } from '../energy/energy.repo.ts';
import { createDeviceReportsRepo } from './device-reports.repo.ts';
import { createEventsRepo } from './event-writer.ts';

export const HISTORY_RETENTION_JOB = 'history.retention';
const DAY_MS = 24 * 60 * 60_000;
/** Rows per delete: each statement stays short, so ingest and readers never wait long behind it. */
export const HISTORY_PURGE_BATCH = 5000;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What one run removed. */
export interface HistoryPurgeResult {
  reports: number;
  readings: number;
  /** Month partitions of energy_readings dropped whole. */
  readingMonths: string[];
  events: number;
  /** Delete statements run (each at most one batch). */
  batches: number;
  [key: string]: number | string[];
}

/**
 * The daily retention of the device history: reported states, raw energy and power samples and sensor and
 * emergency events older than their configured days are removed, in bounded batches (whole month partitions
 * of energy_readings are dropped). The energy rollups are not touched.
 */
export function createHistoryRetention(deps: {
  db: Db;
  /** The core tables' owners' subqueries (the energy and event repos read gateways and devices through them). */
  reads: OwnedReads;
  config: Pick<Config, 'historyRetentionDays'>;
  clock: Clock;
  jobs: Pick<JobRunner, 'register' | 'schedule'>;
  logger: Pick<FastifyBaseLogger, 'info'>;
  /** Rows per delete statement; HISTORY_PURGE_BATCH by default. */
  batch?: number;
}) {
  const reports = createDeviceReportsRepo(deps.db);
  const events = createEventsRepo(deps.db, deps.reads);
  const energy = createEnergyRepo(deps.db, deps.reads);
  const batch = deps.batch ?? HISTORY_PURGE_BATCH;

  /** Schedules the run of the day after `at` (once, whichever node asks). */
  const schedule = (at: Date) =>
    deps.jobs.schedule({ kind: HISTORY_RETENTION_JOB, key: dayOf(at), runAt: new Date(Date.parse(dayOf(at)) + DAY_MS) });

  /** Deletes in batches until a batch comes back short (or the lease is lost); answers the rows and statements. */
  async function inBatches(purge: (limit: number) => Promise<number>, signal?: AbortSignal) {
    let removed = 0;
    let batches = 0;
    for (;;) {
      const n = await purge(batch);
      removed += n;
      batches++;
      if (n < batch || signal?.aborted) return { removed, batches };
      await yieldToOthers();
    }
  }

  /** Removes what is older than the retention, and schedules tomorrow's run. */
  async function purge(context?: Pick<JobContext, 'signal'>): Promise<HistoryPurgeResult> {
    const now = deps.clock.now();
    const days = deps.config.historyRetentionDays;
    const cutoff = (d: number) => new Date(now.getTime() - d * DAY_MS);
    const signal = context?.signal;
    const r = await inBatches((limit) => reports.purgeHistoryAnyTenant({ before: cutoff(days.reports), limit }), signal);
    const readingMonths = await energy.dropReadingMonthsAnyTenant(cutoff(days.telemetry));
    const t = await inBatches((limit) => energy.purgeReadingsAnyTenant({ before: cutoff(days.telemetry), limit }), signal);
    const e = await inBatches((limit) => events.purgeAnyTenant({ before: cutoff(days.events), limit }), signal);
    const result = {
      reports: r.removed,
      readings: t.removed,
      readingMonths,
      events: e.removed,
      batches: r.batches + t.batches + e.batches,
    };
    deps.logger.info(result, 'device history past its retention removed');
    // A run cut short by a lost lease is finished by the node that took it over, or by tomorrow's.
    await schedule(now);
    return result;
  }
  deps.jobs.register(HISTORY_RETENTION_JOB, (_payload, context) => purge(context));

  return {
    purge,
    /** The first run: the end of today, then daily from there. */
    start: () => schedule(deps.clock.now()),
  };
}
export type HistoryRetention = ReturnType<typeof createHistoryRetention>;
