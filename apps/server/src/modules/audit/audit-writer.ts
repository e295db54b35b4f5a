import type { FastifyBaseLogger } from 'fastify';
import type { AuditDraft, AuditSink } from '../../http/audit-entry.ts';
import type { AuditInsert, AuditRepo } from './audit.repo.ts';

export interface AuditWriterOptions {
  /** How long an entry waits for others to share its insert. */
  flushMs?: number;
  /** Entries per insert. */
  batchSize?: number;
  /** Entries waiting at most; beyond it new ones are dropped and the loss logged (a database gone for minutes). */
  maxQueue?: number;
  /** How long a due batch waits at most for a moment without requests (`quiet`) before it is inserted anyway. */
  quietWaitMs?: number;
}

export const AUDIT_WRITER_DEFAULTS = { flushMs: 200, batchSize: 500, maxQueue: 20_000, quietWaitMs: 1000 };

/**
 * Stores audit entries off the request path: the route layer hands each one over once its answer has gone out,
 * and they are inserted together, one statement per batch, one batch at a time. A due batch waits for a moment
 * when no request is being answered (`quiet`, up to `quietWaitMs`), so that its statements do not queue in front
 * of a request's on a database that answers one statement at a time (PGlite). A failed insert is logged with
 * how many entries it lost and never reaches a caller. flush() waits until everything handed over so far is
 * stored (tests, closing), without waiting for quiet.
 */
export function createAuditWriter(
  deps: {
    repo: Pick<AuditRepo, 'insert' | 'projectsOf' | 'valuesOf'>;
    logger: Pick<FastifyBaseLogger, 'error' | 'warn'>;
    /** Resolves at the next moment no request is being answered (none: never waits). */
    quiet?: () => Promise<void>;
  } & AuditWriterOptions,
) {
  const { flushMs, batchSize, maxQueue, quietWaitMs } = { ...AUDIT_WRITER_DEFAULTS, ...deps };
  let queue: AuditDraft[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let dropped = 0;

  /** The rows of a batch: the projects looked up before a deletion ran, the others' all at once now. */
  async function toRows(batch: AuditDraft[]): Promise<AuditInsert[]> {
    const later = batch.filter((d) => !d.project && d.targets.length > 0);
    const looked = later.length > 0 ? await deps.repo.projectsOf(later.map((d) => d.targets)) : [];
    const now = new Map(later.map((d, i) => [d, looked[i] ?? null]));
    return Promise.all(
      batch.map(async (draft) => {
        const { project, before, ...rest } = draft;
        return { ...rest, projectId: project ? await project : (now.get(draft) ?? null), before: before ? await before : null };
      }),
    );
  }

  /** The next moment without requests, or `quietWaitMs` from now, whichever comes first. */
  async function quietMoment(): Promise<void> {
    if (!deps.quiet) return;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([deps.quiet(), new Promise<void>((resolve) => (timeout = setTimeout(resolve, quietWaitMs)))]);
    clearTimeout(timeout);
  }

  async function writeAll(waitForQuiet: boolean): Promise<void> {
    while (queue.length > 0) {
      if (waitForQuiet) await quietMoment();
      const batch = queue.slice(0, batchSize);
      queue = queue.slice(batch.length);
      try {
        await deps.repo.insert(await toRows(batch));
      } catch (err) {
        deps.logger.error({ err, lost: batch.length }, 'audit entries not stored');
      }
    }
  }

  /** Runs a write after the one under way, so batches never overlap. */
  function drain(waitForQuiet: boolean): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    running = running.then(() => writeAll(waitForQuiet));
    return running;
  }
  const drainNow = () => drain(false);

  const sink: AuditSink = {
    record(draft) {
      if (queue.length >= maxQueue) {
        if (dropped++ === 0) deps.logger.warn({ maxQueue }, 'audit queue full: entries are dropped until it drains');
        return;
      }
      if (dropped > 0) {
        deps.logger.warn({ dropped }, 'audit entries dropped while the queue was full');
        dropped = 0;
      }
      queue.push(draft);
      if (queue.length >= batchSize) void drain(true);
      else timer ??= setTimeout(() => void drain(true), flushMs);
    },
    projectOf: async (targets) => (await deps.repo.projectsOf([targets]))[0] ?? null,
    valuesOf: (kind, id, fields) => deps.repo.valuesOf(kind, id, fields),
  };

  return {
    sink,
    /** Resolves once every entry handed over before the call is stored (or its loss logged). */
    flush: drainNow,
    close: drainNow,
  };
}
export type AuditWriter = ReturnType<typeof createAuditWriter>;
