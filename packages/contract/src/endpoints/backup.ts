import { endpoint } from '../endpoint.ts';
import {
  BackupArchiveListSchema,
  BackupBodySchema,
  BackupDirectoryListSchema,
  BackupDirectorysBodySchema,
  BackupJobIdSchema,
  BackupJobStartedSchema,
  BackupMsgQuerySchema,
  BackupProgressSchema,
  RestoreBodySchema,
} from '../backup.ts';

const SERVER_MODE_ONLY = 'Server mode only: in SaaS mode every call answers 100805.';

/** Backup and restore of the whole installation, spec section 7 "Backup" (docs/operations.md "Backup and restore"). */
export const backupEndpoints = {
  directorys: endpoint({
    method: 'POST',
    path: '/api1/backup_restore/v1/directorys',
    tags: ['backup'],
    summary: "The subdirectories of a directory below the server's backup root",
    description: `Paths are relative to BACKUP_ROOT; a missing directory (or one leading outside the root) answers 300006. ${SERVER_MODE_ONLY}`,
    access: 'admin',
    body: BackupDirectorysBodySchema,
    response: BackupDirectoryListSchema,
    errors: [300006, 100805],
  }),
  backup: endpoint({
    method: 'POST',
    path: '/api1/backup_restore/v1/backup',
    tags: ['backup'],
    summary: 'Starts a backup of the database and the uploaded files into an archive in a directory',
    description: `Answers the job id at once; poll progress/{id}. One backup or restore at a time: 300007 while a backup runs, 300008 while a restore runs; 300006 for a missing directory. ${SERVER_MODE_ONLY}`,
    access: 'admin',
    body: BackupBodySchema,
    response: BackupJobStartedSchema,
    errors: [300006, 300007, 300008, 100805],
  }),
  backupMsg: endpoint({
    method: 'GET',
    path: '/api1/backup_restore/v1/backup_msg',
    tags: ['backup'],
    summary: 'The archives in a directory: size, time and what each holds, newest first',
    description: `300006 for a missing directory. ${SERVER_MODE_ONLY}`,
    access: 'admin',
    query: BackupMsgQuerySchema,
    response: BackupArchiveListSchema,
    errors: [300006, 100805],
  }),
  restore: endpoint({
    method: 'POST',
    path: '/api1/backup_restore/v1/restore',
    tags: ['backup'],
    summary: 'Starts restoring an archive: every table and uploaded file is replaced by its content',
    description: `Answers the job id at once; poll progress/{id}. The whole archive is verified (checksums, schema version) before anything changes; a damaged one fails with 100802 and reason 100803, one of another schema with reason 100804. Afterwards every user is signed out and every gateway is sent its configuration again. 300006 for a missing file, 300007 / 300008 while a backup / restore runs. ${SERVER_MODE_ONLY}`,
    access: 'admin',
    body: RestoreBodySchema,
    response: BackupJobStartedSchema,
    errors: [300006, 300007, 300008, 100805],
  }),
  progress: endpoint({
    method: 'GET',
    path: '/api1/backup_restore/v1/progress/:id',
    tags: ['backup'],
    summary: 'The progress of a backup or restore: percent, and on failure why',
    description: `An unknown id (jobs are kept in the memory of the server node that runs them, until it restarts) answers 300006. ${SERVER_MODE_ONLY}`,
    access: 'admin',
    params: BackupJobIdSchema,
    response: BackupProgressSchema,
    errors: [300006, 100805],
  }),
};
