import { Type, type Static } from 'typebox';

/** Backup archives and what restores them (docs/decisions.md "Backup archive", docs/operations.md "Backup and restore"). */
export const BACKUP = {
  /** The archive layout; a restore refuses any other. */
  formatVersion: 1,
  /** Archive names the server makes and the only ones it lists or restores. */
  fileName: /^lumigrid-backup-\d{8}-\d{6}(-\d+)?\.tar\.gz$/,
  /** A directory path below the backup root: names of letters, digits, `-`, `_`, `.` (no `..`), joined by `/`. */
  pathPattern: '^$|^(?!.*(^|/)\\.\\.?(/|$))[A-Za-z0-9_.-]{1,100}(/[A-Za-z0-9_.-]{1,100}){0,15}$',
  /** How often the page asks for a running job's progress, ms. */
  pollMs: 1000,
} as const;

/** A directory below the backup root, `''` being the root itself. */
export const BackupPathSchema = Type.String({
  pattern: BACKUP.pathPattern,
  maxLength: 1000,
  description: "A directory below the server's backup root, parts joined by '/'; '' is the root",
});

export const BackupDirectorysBodySchema = Type.Object({
  path: Type.Optional(BackupPathSchema),
});
export type BackupDirectorysBody = Static<typeof BackupDirectorysBodySchema>;

export const BackupDirectorySchema = Type.Object({
  name: Type.String(),
  path: BackupPathSchema,
});
export type BackupDirectory = Static<typeof BackupDirectorySchema>;

export const BackupDirectoryListSchema = Type.Object({
  root: Type.String({ description: 'Where the backup root is on the server (BACKUP_ROOT), for the operator' }),
  path: BackupPathSchema,
  directories: Type.Array(BackupDirectorySchema, { description: 'The subdirectories of path, by name' }),
});
export type BackupDirectoryList = Static<typeof BackupDirectoryListSchema>;

export const BackupBodySchema = Type.Object({ path: BackupPathSchema });
export type BackupBody = Static<typeof BackupBodySchema>;

export const BackupFileNameSchema = Type.String({ pattern: '^lumigrid-backup-\\d{8}-\\d{6}(-\\d+)?\\.tar\\.gz$', maxLength: 100 });

export const RestoreBodySchema = Type.Object({ path: BackupPathSchema, file: BackupFileNameSchema });
export type RestoreBody = Static<typeof RestoreBodySchema>;

export const BackupMsgQuerySchema = Type.Object({ path: BackupPathSchema });
export type BackupMsgQuery = Static<typeof BackupMsgQuerySchema>;

/** One archive in a directory, with what its manifest says it holds. */
export const BackupArchiveSchema = Type.Object({
  file: BackupFileNameSchema,
  size: Type.Integer({ description: 'Bytes on disk' }),
  createdAt: Type.String({ format: 'date-time', description: 'The moment of the database snapshot' }),
  tables: Type.Integer(),
  rows: Type.Integer(),
  files: Type.Integer({ description: 'Uploaded pictures (floor plans, avatars, logos, scene icons)' }),
  filesBytes: Type.Integer(),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')], { description: 'Where it was taken' }),
  version: Type.String({ description: 'The software version that took it' }),
  restorable: Type.Boolean({
    description: 'Made for the schema this server runs, and every entry matches its checksum (a restore would pass its checks)',
  }),
});
export type BackupArchive = Static<typeof BackupArchiveSchema>;

export const BackupArchiveListSchema = Type.Object({
  path: BackupPathSchema,
  list: Type.Array(BackupArchiveSchema, { description: 'Newest first' }),
});
export type BackupArchiveList = Static<typeof BackupArchiveListSchema>;

export const BackupJobStartedSchema = Type.Object({ id: Type.String({ description: 'Poll progress/{id} with it' }) });
export type BackupJobStarted = Static<typeof BackupJobStartedSchema>;

export const BackupJobIdSchema = Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{16}$' }) });

export const BACKUP_JOB_STATES = ['running', 'succeeded', 'failed'] as const;
export type BackupJobState = (typeof BACKUP_JOB_STATES)[number];

/** A backup or restore as progress/{id} tells it. */
export const BackupProgressSchema = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('backup'), Type.Literal('restore')]),
  state: Type.Union([Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
  percent: Type.Integer({ minimum: 0, maximum: 100 }),
  file: Type.String({ description: 'The archive written or restored' }),
  code: Type.Union([Type.Integer(), Type.Null()], { description: 'On failure: 100801 backup failed or 100802 recovery failed' }),
  reason: Type.Union([Type.Integer(), Type.Null()], { description: 'On failure, when known: why (100803, 100804, 300006)' }),
  msg: Type.Union([Type.String(), Type.Null()], { description: 'code and reason in the caller language' }),
});
export type BackupProgress = Static<typeof BackupProgressSchema>;
