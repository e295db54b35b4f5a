import { Type, type Static } from 'typebox';
import { IdSchema, Nullable } from './common.ts';
import type { EndpointSpec } from './endpoint.ts';
import { OPERATE_AUTH, mayCall, type Access, type RoleSubject } from './roles.ts';

/**
 * API keys (docs/api.md "API keys"): an account's users give integrators a key that calls the endpoint table
 * as they would, within a scope, optionally limited to some projects, until it expires or is revoked.
 */

/** What a key may do: read, control devices, groups and scenes, or edit the installation. */
export const API_KEY_SCOPES = ['read', 'control', 'edit'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * The authority each scope calls with: the operate_auth of a user who may do exactly that, so the one rule of
 * roles.ts decides for keys as it does for users.
 */
export const API_KEY_SCOPE_OPERATE_AUTH: Readonly<Record<ApiKeyScope, number>> = {
  read: OPERATE_AUTH.viewOnly,
  control: OPERATE_AUTH.controllable,
  edit: OPERATE_AUTH.editable,
};

/** The access level a scope stands for in the endpoint table. */
export const API_KEY_SCOPE_ACCESS: Readonly<Record<ApiKeyScope, Access>> = { read: 'read', control: 'control', edit: 'write' };

export const API_KEY_LIMITS = {
  name: { min: 1, max: 50 },
  /** Keys an account keeps, revoked ones included until they are deleted with their user (101007 past it). */
  perAccount: 100,
  /** The furthest an expiry may lie ahead (101006 beyond it, or in the past). */
  maxLifetimeDays: 730,
  /** Projects one key may be limited to. */
  projects: 100,
  /** Calls one key may make per minute, counted across every server node (101004 past it). */
  callsPerMinute: 120,
} as const;

/** Every key starts with it, so a leaked key is recognised by scanners and never mistaken for a session token. */
export const API_KEY_PREFIX = 'lg_';

/** `lg_<id>_<secret>`: the id lets the server find the key without searching, the secret is 256 random bits. */
export const API_KEY_PATTERN = /^lg_([0-9]{1,19})_([A-Za-z0-9_-]{43})$/;

/**
 * Whether a bearer token is an API key rather than a session token. The whole shape is matched, not the prefix
 * alone: a session token is 43 random base64url characters and may begin with `lg_` by chance, never match.
 */
export function isApiKeyToken(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

/**
 * Whether keys reach an endpoint at all: only the calls of the installation (read, control, write authority).
 * Sign-in, sessions, passwords, account management, administration and push need a signed-in user, and so does
 * an endpoint marked `sessionOnly` (managing the keys themselves).
 */
export function apiKeyReaches(spec: Pick<EndpointSpec, 'access' | 'sessionOnly'>): boolean {
  if (spec.sessionOnly) return false;
  return spec.access === 'read' || spec.access === 'control' || spec.access === 'write';
}

/** The operate_auth a key calls with: its scope's, never more than the user who made it has now. */
export function apiKeyOperateAuth(scope: ApiKeyScope, maker: Pick<RoleSubject, 'operateAuth'>): number {
  return Math.max(API_KEY_SCOPE_OPERATE_AUTH[scope], maker.operateAuth);
}

/** Whether a user may make a key of a scope: only within their own authority. */
export function mayGrantScope(maker: RoleSubject, scope: ApiKeyScope): boolean {
  return mayCall(API_KEY_SCOPE_ACCESS[scope], maker);
}

/** Whether a key of a scope, made by an owner, passes an endpoint: it must reach it and its scope admit it. */
export function apiKeyMayCall(spec: Pick<EndpointSpec, 'access' | 'sessionOnly'>, scope: ApiKeyScope): boolean {
  return apiKeyReaches(spec) && mayCall(spec.access, { operateAuth: API_KEY_SCOPE_OPERATE_AUTH[scope] });
}

const ScopeSchema = Type.Unsafe<ApiKeyScope>({
  type: 'string',
  enum: [...API_KEY_SCOPES],
  description: 'read: every read call; control: also switch, dim and run scenes; edit: also change the installation',
});
const Time = Type.String({ format: 'date-time' });

/** A key as its list shows it: never its secret, which only the create answer carries, once. */
export const ApiKeySchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  scope: ScopeSchema,
  projectIds: Nullable(Type.Array(IdSchema), 'The projects the key is limited to (with their sub-projects), or null for every project'),
  expiresAt: Time,
  createdAt: Time,
  /** Who made it: the key calls as this user, within its scope. */
  userId: IdSchema,
  userName: Type.String(),
  lastUsedAt: Nullable(Time, 'When it last called, or null'),
  lastUsedIp: Nullable(Type.String(), 'From which address it last called, or null'),
  revokedAt: Nullable(Time, 'When it was revoked, or null'),
  /** The start of the key, `lg_<id>_`, to recognise it by. */
  prefix: Type.String(),
});
export type ApiKey = Static<typeof ApiKeySchema>;

export const ApiKeyListSchema = Type.Array(ApiKeySchema);
export type ApiKeyList = Static<typeof ApiKeyListSchema>;

/** The create answer: the key and, this once, its secret. */
export const ApiKeyCreatedSchema = Type.Object({
  ...ApiKeySchema.properties,
  secret: Type.String({ description: 'The whole key, lg_<id>_<secret>: shown this once, stored only as a hash' }),
});
export type ApiKeyCreated = Static<typeof ApiKeyCreatedSchema>;

export const ApiKeyCreateBodySchema = Type.Object({
  name: Type.String({
    minLength: API_KEY_LIMITS.name.min,
    maxLength: API_KEY_LIMITS.name.max,
    pattern: '\\S',
    description: 'What the key is for (not only spaces)',
  }),
  scope: ScopeSchema,
  projectIds: Type.Optional(
    Nullable(
      Type.Array(IdSchema, { minItems: 1, maxItems: API_KEY_LIMITS.projects, uniqueItems: true }),
      'Limit the key to these projects (and their sub-projects); null or absent for every project the maker sees',
    ),
  ),
  expiresAt: Type.String({ format: 'date-time', description: 'When it stops working; in the future, at most two years ahead (101006)' }),
});
export type ApiKeyCreateBody = Static<typeof ApiKeyCreateBodySchema>;

export const ApiKeyRevokeBodySchema = Type.Object({ id: IdSchema });
export type ApiKeyRevokeBody = Static<typeof ApiKeyRevokeBodySchema>;
