import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BACKUP, backupEndpoints, type BackupProgress, type RestoreBody } from '@lumigrid/contract/browser';
import { ApiError, call } from '../../api/client.ts';
import { endsSession } from '../../api/envelope.ts';

/** One key factory for backup and restore; a finished job invalidates `all` (the archive list changed). */
export const backupKeys = {
  all: ['backup'] as const,
  directories: (path: string) => [...backupKeys.all, 'directories', path] as const,
  archives: (path: string) => [...backupKeys.all, 'archives', path] as const,
  progress: (id: string) => [...backupKeys.all, 'progress', id] as const,
};

/** The subdirectories of a directory below the server's backup root. */
export function useBackupDirectories(path: string) {
  return useQuery({
    queryKey: backupKeys.directories(path),
    queryFn: ({ signal }) => call(backupEndpoints.directorys, { body: { path } }, { signal }),
  });
}

/** Reads a directory's subdirectories once, for a tree that opens folders on demand. */
export const fetchBackupDirectories = (path: string) => call(backupEndpoints.directorys, { body: { path } });

/** The archives in a directory, newest first. */
export function useBackupArchives(path: string) {
  return useQuery({
    queryKey: backupKeys.archives(path),
    queryFn: ({ signal }) => call(backupEndpoints.backupMsg, { query: { path } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useStartBackup() {
  return useMutation({ mutationFn: (path: string) => call(backupEndpoints.backup, { body: { path } }) });
}

export function useStartRestore() {
  return useMutation({ mutationFn: (body: RestoreBody) => call(backupEndpoints.restore, { body }) });
}

/** Whether a job still runs: the page polls it every BACKUP.pollMs until then. */
export const isRunning = (progress: BackupProgress | undefined) => progress === undefined || progress.state === 'running';

/**
 * A job's progress, polled while it runs; a finished backup refreshes the archive lists. A restore's polls are
 * silent: the restore ends every session, this one too, and the page says so itself (see the data page).
 */
export function useBackupProgress(job: { id: string; kind: 'backup' | 'restore' } | undefined) {
  const client = useQueryClient();
  return useQuery({
    queryKey: backupKeys.progress(job?.id ?? ''),
    enabled: job !== undefined,
    queryFn: async ({ signal }) => {
      const progress = await call(backupEndpoints.progress, { params: { id: job!.id } }, { signal, silent: job!.kind === 'restore' });
      if (!isRunning(progress)) void client.invalidateQueries({ queryKey: [...backupKeys.all, 'archives'] });
      return progress;
    },
    refetchInterval: (query) => (query.state.error || !isRunning(query.state.data) ? false : BACKUP.pollMs),
    retry: false,
  });
}

/** Whether a restore's poll was refused because the restore ended this session: the data was replaced. */
export const signedOutByRestore = (error: unknown) => error instanceof ApiError && endsSession(error.action);

/** Bytes as a person reads them: 1.5 MB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
