import { Type, type Static } from 'typebox';
import { IdSchema, Nullable, PageOf, pageFields } from './common.ts';
import { RESOURCE_KINDS, type ResourceKind } from './resources.ts';

/**
 * Who made a recorded call: the platform administrator, an account, a sub-account, an API key (made by the
 * user the entry names), or nobody signed in (a sign-in, a sign-up, a refused call without a token).
 */
export const AUDIT_ACTORS = ['admin', 'account', 'subAccount', 'apiKey', 'anonymous'] as const;
export type AuditActor = (typeof AUDIT_ACTORS)[number];

/** Through what: the web client (it says so in a header), any other caller of the API, or the BACnet/IP interface. */
export const AUDIT_CHANNELS = ['web', 'api', 'bacnet'] as const;
export type AuditChannel = (typeof AUDIT_CHANNELS)[number];

/** The header the web client sends so that the trail tells its calls from other callers of the API. */
export const CLIENT_HEADER = 'x-lumigrid-client';

/**
 * Request fields that hold secrets (passwords, tokens, verification and captcha codes): never stored in the
 * audit trail, whatever endpoint they come with. Matched against every field name at any depth.
 */
export const SECRET_FIELD = /pass(word|wd)?|pwd|secret|token|captcha|credential|private.?key|api.?key|^(verify_?|sms_?|mail_?)?code$/i;

/** What replaces a secret's value in the trail. */
export const REDACTED = '[redacted]';

const Time = Type.String({ format: 'date-time' });

export const AuditTargetSchema = Type.Object({
  kind: Type.Unsafe<ResourceKind>({ type: 'string', enum: [...RESOURCE_KINDS] }),
  id: IdSchema,
});
export type AuditTarget = Static<typeof AuditTargetSchema>;

/** One recorded call: appended when the answer went out, never changed (the database refuses it). */
export const AuditEntrySchema = Type.Object({
  id: IdSchema,
  at: Time,
  actor: Type.Unsafe<AuditActor>({ type: 'string', enum: [...AUDIT_ACTORS] }),
  userId: Nullable(IdSchema, 'The signed-in caller, or null'),
  /** The caller's name when the call was made (or the sign-in name a sign-in gave). */
  userName: Type.String(),
  /** The API key the call was made with (its user is `userId`), or null. */
  apiKeyId: Nullable(IdSchema, 'The API key, or null'),
  /** The account the caller belongs to, or null for a call nobody signed in made. */
  accountId: Nullable(IdSchema, 'The account, or null'),
  via: Type.Unsafe<AuditChannel>({ type: 'string', enum: [...AUDIT_CHANNELS] }),
  ip: Type.String(),
  /** The endpoint's id in the contract's table: `<domain>.<name>` (`devices.control`). */
  endpoint: Type.String(),
  /** The endpoint's domain (`devices`, `groups`, `scenes`...). */
  kind: Type.String(),
  method: Type.String(),
  path: Type.String(),
  targets: Type.Array(AuditTargetSchema),
  projectId: Nullable(IdSchema, 'The project the targets stand in, or null'),
  projectName: Type.String({ description: "The project's name now ('' when none or deleted)" }),
  /** The request's `params`, `query` and `body`, secrets replaced by [redacted], files not kept; `answer.id` the id it answered (what it created). */
  request: Type.Record(Type.String(), Type.Unknown()),
  /** What the call replaced, where the endpoint records it; null otherwise. */
  before: Type.Unknown({ description: 'The value before an edit, or null' }),
  /** 0 for success, otherwise the business code of the answer. */
  code: Type.Integer(),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

const auditFilters = {
  from: Type.Optional(Time),
  to: Type.Optional(Time),
  userId: Type.Optional(IdSchema),
  projectId: Type.Optional(IdSchema),
  /** The endpoint's domain (`devices`), or one endpoint (`devices.control`). */
  kind: Type.Optional(Type.String({ pattern: '^[A-Za-z]+(\\.[A-Za-z]+)?$', maxLength: 60 })),
  targetKind: Type.Optional(Type.Unsafe<ResourceKind>({ type: 'string', enum: [...RESOURCE_KINDS] })),
  targetId: Type.Optional(IdSchema),
  /** Only successful calls (true) or only refused ones (false). */
  ok: Type.Optional(Type.Boolean()),
};

/** POST audit/v1/page: the trail, newest first. */
export const AuditListBodySchema = Type.Object({
  ...auditFilters,
  ...pageFields,
});
export type AuditListBody = Static<typeof AuditListBodySchema>;

export const AuditPageSchema = PageOf(AuditEntrySchema);
export type AuditPage = Static<typeof AuditPageSchema>;

/** POST audit/v1/export: every entry the filters take, newest first. */
export const AuditExportBodySchema = Type.Object(auditFilters);
export type AuditExportBody = Static<typeof AuditExportBodySchema>;

/** GET audit/v1/device/{id}: the latest successful changes and commands that named a device. */
export const AuditDeviceParamsSchema = Type.Object({ id: IdSchema });
export const AuditDeviceChangesSchema = Type.Object({ list: Type.Array(AuditEntrySchema) });
export type AuditDeviceChanges = Static<typeof AuditDeviceChangesSchema>;

/** How many of a device's latest changes its panel shows. */
export const DEVICE_CHANGES_SHOWN = 5;

/**
 * Replaces every secret field (SECRET_FIELD) by REDACTED, at any depth; arrays and objects are copied, the
 * input is left as it was.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    copy[name] = SECRET_FIELD.test(name) ? REDACTED : redactSecrets(field);
  }
  return copy;
}
