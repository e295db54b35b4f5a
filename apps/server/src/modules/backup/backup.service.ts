import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BACKUP,
  errorMessage,
  type BackupArchive,
  type BackupArchiveList,
  type BackupBody,
  type BackupDirectoryList,
  type BackupDirectorysBody,
  type BackupJobStarted,
  type BackupMsgQuery,
  type BackupProgress,
  type RestoreBody,
} from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import { ArchiveRejected, extractVerified, readManifest } from './backup-archive.ts';
import type { BackupFolders } from './backup-folders.ts';
import { mapProgress, type BackupJob, type BackupJobs } from './backup-jobs.ts';
import { readSchemaVersion } from './backup.repo.ts';
import { restoreArchive } from './restore-archive.ts';
import { archiveName, takeBackup } from './take-backup.ts';

/** What a restore must put right outside the tables: sessions, gateways and what this node caches of them. */
export interface RestoreAftermath {
  /** Users signed in now, before the restore replaces the sessions table: they are told to sign in again. */
  signedInUsers(): Promise<bigint[]>;
  /** Ends every session of the restored data and tells `alsoNotify` and their owners to sign in again. */
  endEverySession(alsoNotify: bigint[]): Promise<void>;
  /** Each gateway's highest configuration version (desired or acknowledged), by MAC, with its id. */
  gatewayVersions(): Promise<Array<{ id: bigint; mac: string; version: number }>>;
  /** Raises every gateway's version past anything it ran before or after the backup, and sends it its configuration. */
  resyncGateways(previous: Array<{ mac: string; version: number }>): Promise<void>;
  /** Forgets what this node cached about gateways and their devices. */
  forgetGateways(ids: bigint[]): void;
}

export function createBackupService(deps: {
  database: Pick<Database, 'db' | 'kind'>;
  config: Pick<Config, 'mode' | 'dataDir'>;
  folders: BackupFolders;
  jobs: BackupJobs;
  aftermath: RestoreAftermath;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}) {
  const { config, folders, jobs, logger } = deps;
  let work: Promise<void> = Promise.resolve();

  /** Backup and restore belong to an installation's own server; a SaaS platform is backed up by its operator. */
  function assertServerMode() {
    if (config.mode !== 'server') throw new AppError(100805);
  }

  /** Runs a job in the background: its outcome goes into the job, its reason (without data) into the log. */
  function run(job: BackupJob, task: () => Promise<void>) {
    work = (async () => {
      try {
        await task();
        jobs.succeed(job);
        logger.info({ job: job.id, kind: job.kind, file: job.file }, `${job.kind} finished`);
      } catch (error) {
        const reason =
          error instanceof ArchiveRejected || error instanceof AppError ? (error instanceof AppError ? error.code : error.reason) : null;
        jobs.fail(job, job.kind === 'backup' ? 100801 : 100802, reason);
        logger.error(
          { job: job.id, kind: job.kind, file: job.file, reason, err: { message: error instanceof Error ? error.message : String(error) } },
          `${job.kind} failed`,
        );
      }
    })();
  }

  /**
   * Whether an archive would pass a restore's checks (every checksum, this server's schema). Each archive is
   * read once: the answer is kept for as long as its size and modification time stay the same.
   */
  const verified = new Map<string, boolean>();
  async function passesChecks(path: string, info: { size: number; mtimeMs: number }, running: string): Promise<boolean> {
    const key = `${path}\n${info.size}\n${info.mtimeMs}\n${running}`;
    const known = verified.get(key);
    if (known !== undefined) return known;
    let passes = true;
    try {
      await extractVerified({ file: path, schema: { migration: running }, onBytes: () => undefined });
    } catch (error) {
      if (!(error instanceof ArchiveRejected)) throw error;
      passes = false;
    }
    verified.set(key, passes);
    return passes;
  }

  async function describe(dir: string, file: string, running: string): Promise<BackupArchive> {
    const path = join(dir, file);
    const info = await stat(path);
    try {
      const m = await readManifest(path);
      const restorable = m.schema.migration === running && (await passesChecks(path, info, running));
      return {
        file,
        size: info.size,
        createdAt: new Date(m.snapshotAt).toISOString(),
        tables: m.tables.length,
        rows: m.tables.reduce((a, t) => a + t.rows, 0),
        files: m.files.length,
        filesBytes: m.files.reduce((a, f) => a + f.size, 0),
        database: m.database,
        version: m.software,
        restorable,
      };
    } catch {
      // Listed all the same, so the operator sees it, but not offered for a restore.
      return {
        file,
        size: info.size,
        createdAt: info.mtime.toISOString(),
        tables: 0,
        rows: 0,
        files: 0,
        filesBytes: 0,
        database: deps.database.kind,
        version: '',
        restorable: false,
      };
    }
  }

  return {
    /** POST directorys: the subdirectories of a directory below the backup root. */
    async directorys(_auth: AuthContext, body: BackupDirectorysBody): Promise<BackupDirectoryList> {
      assertServerMode();
      const path = body.path ?? '';
      return { root: folders.root, path, directories: await folders.list(path) };
    },

    /** POST backup: starts a backup into a directory and answers the job to poll. */
    async backup(_auth: AuthContext, body: BackupBody): Promise<BackupJobStarted> {
      assertServerMode();
      const dir = await folders.resolveDir(body.path);
      const name = await archiveName(dir, deps.clock.now());
      const job = jobs.begin('backup', name);
      run(job, async () => {
        await takeBackup({
          database: deps.database,
          dataDir: config.dataDir,
          dir,
          name,
          workId: job.id,
          onPercent: (p) => jobs.advance(job, p),
          onSkippedFile: (path) => logger.warn({ path }, 'backup: an uploaded file with an unexpected name was left out'),
        });
      });
      return { id: job.id };
    },

    /** GET backup_msg: the archives of a directory, newest first, with what each holds. */
    async backupMsg(_auth: AuthContext, query: BackupMsgQuery): Promise<BackupArchiveList> {
      assertServerMode();
      const dir = await folders.resolveDir(query.path);
      const running = (await readSchemaVersion(deps.database.db)).migration;
      const names = (await readdir(dir, { withFileTypes: true }))
        .filter((e) => e.isFile() && BACKUP.fileName.test(e.name))
        .map((e) => e.name);
      const list = await Promise.all(names.map((name) => describe(dir, name, running)));
      list.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.file.localeCompare(a.file));
      return { path: query.path, list };
    },

    /** POST restore: starts restoring an archive and answers the job to poll. */
    async restore(_auth: AuthContext, body: RestoreBody): Promise<BackupJobStarted> {
      assertServerMode();
      const file = await folders.resolveArchive(body.path, body.file);
      const job = jobs.begin('restore', body.file);
      run(job, async () => {
        let before: { users: bigint[]; gateways: Awaited<ReturnType<RestoreAftermath['gatewayVersions']>> } | undefined;
        await restoreArchive({
          database: deps.database,
          dataDir: config.dataDir,
          file,
          workId: job.id,
          onPercent: (p) => jobs.advance(job, p),
          beforeChange: async () => {
            before = { users: await deps.aftermath.signedInUsers(), gateways: await deps.aftermath.gatewayVersions() };
          },
        });
        // Sessions first: nobody may keep working on the data that was replaced.
        await deps.aftermath.endEverySession(before?.users ?? []);
        const after = await deps.aftermath.gatewayVersions();
        deps.aftermath.forgetGateways([...(before?.gateways ?? []), ...after].map((g) => g.id));
        await deps.aftermath.resyncGateways(before?.gateways ?? []);
      });
      return { id: job.id };
    },

    /** GET progress/{id}: a job of this node; 300006 for one it does not know. */
    async progress(auth: AuthContext, id: string): Promise<BackupProgress> {
      assertServerMode();
      const job = jobs.find(id);
      if (!job) throw new AppError(300006);
      return mapProgress(job, (code) => errorMessage(code, auth.lang));
    },

    /** Waits for the running job (the server closing, tests). */
    async settled(): Promise<void> {
      await work;
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
