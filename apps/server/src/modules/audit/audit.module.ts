import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import { createAuditRepo } from './audit.repo.ts';
import { registerAuditRoutes } from './audit.routes.ts';
import { createAuditService } from './audit.service.ts';
import { createAuditWriter, type AuditWriterOptions } from './audit-writer.ts';

export const AUDIT_RETENTION_JOB = 'audit.retention';
const DAY_MS = 24 * 60 * 60_000;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The audit trail: its writer (the route layer records every audited call through `sink`), the calls that
 * read it, and the daily retention job, the only one that removes entries.
 */
export function createAuditModule(deps: {
  db: Db;
  config: Pick<Config, 'auditRetentionDays'>;
  clock: Clock;
  jobs: Pick<JobRunner, 'register' | 'schedule'>;
  logger: FastifyBaseLogger;
  writer?: AuditWriterOptions;
  /** The next moment no request is being answered: when the writer's inserts go. */
  quiet?: () => Promise<void>;
}) {
  const repo = createAuditRepo(deps.db);
  const writer = createAuditWriter({ repo, logger: deps.logger, quiet: deps.quiet, ...deps.writer });
  const service = createAuditService({ repo });

  /** Schedules the purge of the day after `at` (once, whichever node asks). */
  const scheduleRetention = (at: Date) =>
    deps.jobs.schedule({ kind: AUDIT_RETENTION_JOB, key: dayOf(at), runAt: new Date(Date.parse(dayOf(at)) + DAY_MS) });

  /** Removes entries older than the retention, and schedules tomorrow's run. */
  async function purge() {
    const now = deps.clock.now();
    const removed = await repo.purge(new Date(now.getTime() - deps.config.auditRetentionDays * DAY_MS));
    await scheduleRetention(now);
    return { removed };
  }
  deps.jobs.register(AUDIT_RETENTION_JOB, purge);

  return {
    sink: writer.sink,
    writer,
    service,
    purge,
    /** The first run: the end of today, then daily from there. */
    start: () => scheduleRetention(deps.clock.now()),
    register: (route) => registerAuditRoutes(route, { audit: service }),
    close: () => writer.close(),
  } satisfies DomainModule & Record<string, unknown>;
}
export type AuditModule = ReturnType<typeof createAuditModule>;
