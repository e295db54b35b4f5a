import { describe, expect, it } from 'vitest';
import { createBackupJobs } from './backup-jobs.ts';

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
});
