import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import { backupFolders } from './backup-folders.ts';
import { createBackupJobs } from './backup-jobs.ts';
import { registerBackupRoutes } from './backup.routes.ts';
import { createBackupService, type RestoreAftermath } from './backup.service.ts';

/** Backup and restore of the whole installation (server mode): archives under BACKUP_ROOT, jobs polled for progress. */
export function createBackupModule(deps: {
  database: Pick<Database, 'db' | 'kind'>;
  config: Pick<Config, 'mode' | 'dataDir' | 'backupRoot'>;
  aftermath: RestoreAftermath;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const backup = createBackupService({ ...deps, folders: backupFolders(deps.config.backupRoot), jobs: createBackupJobs() });
  return {
    service: backup,
    register: (route) => registerBackupRoutes(route, { backup }),
    close: () => backup.settled(),
  } satisfies DomainModule & Record<string, unknown>;
}
