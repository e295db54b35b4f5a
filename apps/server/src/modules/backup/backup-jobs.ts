import { randomBytes } from 'node:crypto';
import type { BackupJobState, BackupProgress, ErrorCode } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';

/** A backup or restore of this server node, as progress/{id} reports it. */
export interface BackupJob {
  id: string;
  kind: 'backup' | 'restore';
  state: BackupJobState;
  percent: number;
  file: string;
  code: ErrorCode | null;
  reason: ErrorCode | null;
}

/** Finished jobs kept for late pollers; older ones are forgotten. */
const KEPT = 20;

/**
 * The jobs of this node, in memory: one backup or restore runs at a time (300007 / 300008 to a second one),
 * since a restore replaces everything a backup reads and two archives written at once would share the disk.
 */
export function createBackupJobs() {
  const jobs = new Map<string, BackupJob>();
  let running: BackupJob | undefined;

  return {
    /** Starts a job when none runs; throws 300007 / 300008 otherwise. */
    begin(kind: BackupJob['kind'], file: string): BackupJob {
      if (running) throw new AppError(running.kind === 'backup' ? 300007 : 300008);
      const job: BackupJob = { id: randomBytes(8).toString('hex'), kind, state: 'running', percent: 0, file, code: null, reason: null };
      running = job;
      jobs.set(job.id, job);
      for (const id of jobs.keys()) if (jobs.size > KEPT && jobs.get(id) !== running) jobs.delete(id);
      return job;
    },

    /** Moves the percent forward (never back, never to 100 before the job ends). */
    advance(job: BackupJob, percent: number): void {
      job.percent = Math.max(job.percent, Math.min(99, Math.floor(percent)));
    },

    succeed(job: BackupJob): void {
      job.state = 'succeeded';
      job.percent = 100;
      if (running === job) running = undefined;
    },

    fail(job: BackupJob, code: ErrorCode, reason: ErrorCode | null): void {
      job.state = 'failed';
      job.code = code;
      job.reason = reason;
      if (running === job) running = undefined;
    },

    find(id: string): BackupJob | undefined {
      return jobs.get(id);
    },

    /** The job running now, if any: a restore waits for nothing else, the server's close waits for it. */
    running(): BackupJob | undefined {
      return running;
    },
  };
}

export type BackupJobs = ReturnType<typeof createBackupJobs>;

/** The answer of progress/{id}, with the failure's texts in the caller's language. */
export function mapProgress(job: BackupJob, message: (code: ErrorCode) => string): BackupProgress {
  const msg =
    job.code === null ? null : [message(job.code), job.reason === null ? undefined : message(job.reason)].filter(Boolean).join(': ');
  return { id: job.id, kind: job.kind, state: job.state, percent: job.percent, file: job.file, code: job.code, reason: job.reason, msg };
}
