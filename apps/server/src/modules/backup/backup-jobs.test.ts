import { describe, expect, it } from 'vitest';
import { createBackupJobs, mapProgress } from './backup-jobs.ts';

describe('the backup jobs of a node', () => {
  it('refuses a backup with 300008 while a restore runs, and a restore with 300007 while a backup runs', () => {
    const jobs = createBackupJobs();
    const restore = jobs.begin('restore', 'lumigrid-backup-20990101-000001.tar.gz');
    expect(() => jobs.begin('backup', 'lumigrid-backup-20990101-000002.tar.gz')).toThrow(expect.objectContaining({ code: 300008 }));
    jobs.fail(restore, 100802, 100803);
    const backup = jobs.begin('backup', 'lumigrid-backup-20990101-000002.tar.gz');
    expect(() => jobs.begin('restore', 'lumigrid-backup-20990101-000001.tar.gz')).toThrow(expect.objectContaining({ code: 300007 }));
    jobs.succeed(backup);
    expect(jobs.find(backup.id)).toMatchObject({ state: 'succeeded', percent: 100 });
    expect(jobs.find(restore.id)).toMatchObject({ state: 'failed', code: 100802, reason: 100803 });
  });

  it('moves the percent forward only, and to 100 only when the job ends', () => {
    const jobs = createBackupJobs();
    const job = jobs.begin('backup', 'lumigrid-backup-20990101-000001.tar.gz');
    jobs.advance(job, 40.7);
    jobs.advance(job, 10);
    expect(job.percent).toBe(40);
    jobs.advance(job, 100);
    expect(job.percent).toBe(99);
    jobs.succeed(job);
    expect(job.percent).toBe(100);
  });

  it('keeps the last finished jobs for late pollers and forgets older ones', () => {
    const jobs = createBackupJobs();
    const ids = Array.from({ length: 25 }, (_, i) => {
      const job = jobs.begin('backup', `lumigrid-backup-20990101-0000${String(i).padStart(2, '0')}.tar.gz`);
      jobs.succeed(job);
      return job.id;
    });
    expect(ids.filter((id) => jobs.find(id)).length).toBeLessThanOrEqual(21);
    expect(jobs.find(ids.at(-1)!)).toBeDefined();
  });

  it('refuses a second backup while one runs (300007), and takes one again once it failed', () => {
    const jobs = createBackupJobs();
    const first = jobs.begin('backup', 'a.tar.gz');
    expect(() => jobs.begin('backup', 'b.tar.gz')).toThrow(expect.objectContaining({ code: 300007 }));
    expect(jobs.running()).toBe(first);
    jobs.fail(first, 100802, null);
    expect(jobs.running()).toBeUndefined();
    expect(jobs.begin('backup', 'b.tar.gz').state).toBe('running');
  });

  it('keeps the job that runs when older finished ones are forgotten', () => {
    const jobs = createBackupJobs();
    const ids = Array.from({ length: 21 }, (_, i) => {
      const job = jobs.begin('backup', `${i}.tar.gz`);
      jobs.succeed(job);
      return job.id;
    });
    const running = jobs.begin('restore', 'r.tar.gz');
    for (let i = 0; i < 5; i++) jobs.advance(running, i * 10);
    expect(jobs.find(running.id)).toBe(running);
    expect(jobs.find(ids[0]!)).toBeUndefined();
  });

  it('does not free the running job when an older, finished one is failed again', () => {
    const jobs = createBackupJobs();
    const old = jobs.begin('backup', 'old.tar.gz');
    jobs.succeed(old);
    const now = jobs.begin('restore', 'now.tar.gz');
    jobs.fail(old, 100802, null);
    expect(jobs.running()).toBe(now);
  });
});

describe('mapProgress: the answer of progress/{id}', () => {
  const texts: Record<number, string> = { 100802: 'The backup failed', 100803: 'the disk is full' };
  const message = (code: number) => texts[code] ?? `#${code}`;

  it('has no message while a job runs or after it succeeded', () => {
    const jobs = createBackupJobs();
    const job = jobs.begin('backup', 'a.tar.gz');
    expect(mapProgress(job, message)).toMatchObject({ state: 'running', percent: 0, code: null, reason: null, msg: null });
    jobs.succeed(job);
    expect(mapProgress(job, message)).toMatchObject({ state: 'succeeded', percent: 100, msg: null });
  });

  it('says the failure and its reason in the caller’s words, joined', () => {
    const jobs = createBackupJobs();
    const job = jobs.begin('restore', 'a.tar.gz');
    jobs.fail(job, 100802, 100803);
    expect(mapProgress(job, message)).toEqual({
      id: job.id,
      kind: 'restore',
      state: 'failed',
      percent: 0,
      file: 'a.tar.gz',
      code: 100802,
      reason: 100803,
      msg: 'The backup failed: the disk is full',
    });
  });

  it('says the failure alone when it has no reason', () => {
    const jobs = createBackupJobs();
    const job = jobs.begin('backup', 'a.tar.gz');
    jobs.fail(job, 100802, null);
    expect(mapProgress(job, message).msg).toBe('The backup failed');
  });
});
