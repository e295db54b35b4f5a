import {
  CLIENT_HEADER,
  RESOURCE_KINDS,
  SECRET_FIELD,
  USER_AUTH,
  endpointId,
  redactSecrets,
  type AuditActor,
  type AuditChannel,
  type EndpointObjects,
  type EndpointSpec,
  type ResourceKind,
} from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './auth.ts';

/** One recorded call as the route layer hands it to the audit trail's writer (modules/audit). */
export interface AuditDraft {
  at: Date;
  tenantId: bigint | null;
  userId: bigint | null;
  /** The name of a caller nobody signed in as (the sign-in name of a sign-in); a signed-in caller's is looked up. */
  userName: string;
  actor: AuditActor;
  /** The API key the call came with, or null. */
  apiKeyId: bigint | null;
  via: AuditChannel;
  ip: string;
  endpoint: string;
  kind: string;
  method: string;
  path: string;
  /** `kind:id`, each once. */
  targets: string[];
  /** The project the targets stand in, as the route layer found it before the handler ran (null: none). */
  project: Promise<bigint | null> | null;
  request: Record<string, unknown>;
  /** What an edit replaced: the fields of the request as the object held them before (null: not recorded). */
  before: Promise<Record<string, unknown> | null> | null;
  code: number;
}

/** What the route layer needs of the audit trail: where drafts go, and the project of a call's targets. */
export interface AuditSink {
  record(draft: AuditDraft): void;
  /** Looked up before a deletion runs, so its entry still finds where the deleted object stood. */
  projectOf(targets: readonly string[]): Promise<bigint | null>;
  /** An object's values of some fields, read before the handler changes them. */
  valuesOf(kind: ResourceKind, id: string, fields: readonly string[]): Promise<Record<string, unknown> | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The business code the answer carried, set where errors become answers (error-handler.ts); absent on success. */
    answerCode?: number;
    /** The project of an audited call's targets, looked up before its handler ran. */
    auditProject?: Promise<bigint | null>;
    /** What an audited edit replaced (the endpoint's `audit.before`), read before its handler ran. */
    auditBefore?: Promise<Record<string, unknown> | null>;
    /** The id the call answered (what it created or saved). */
    auditAnswerId?: string;
  }
}

/**
 * Request fields that name an object by convention, whichever endpoint they come with: a new endpoint's
 * entry says what it touched without declaring anything.
 */
const CONVENTIONAL: Readonly<Record<string, ResourceKind>> = {
  projectId: 'project',
  buildingId: 'building',
  mapId: 'map',
  gatewayId: 'gateway',
  deviceId: 'device',
  deviceIds: 'device',
  groupId: 'group',
  sceneId: 'scene',
};

const ID = /^[0-9]{1,19}$/;
const KINDS = new Set<string>(RESOURCE_KINDS);

function idsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is string => typeof v === 'string' && ID.test(v));
}

/** The objects a request names: the endpoint's checked `objects`, its `audit.targets`, and the conventional fields. */
export function auditTargets(spec: EndpointSpec, input: { params?: unknown; query?: unknown; body?: unknown }): string[] {
  const found = new Set<string>();
  const declared: EndpointObjects[] = [spec.objects ?? {}, spec.audit?.targets ?? {}];
  for (const part of ['params', 'query', 'body'] as const) {
    const values = input[part];
    if (values === null || typeof values !== 'object') continue;
    const fields = values as Record<string, unknown>;
    for (const objects of declared)
      for (const [field, kind] of Object.entries(objects[part] ?? {})) for (const id of idsOf(fields[field])) found.add(`${kind}:${id}`);
    for (const [field, kind] of Object.entries(CONVENTIONAL)) for (const id of idsOf(fields[field])) found.add(`${kind}:${id}`);
  }
  return [...found];
}

/** The fields of a request body an edit sets (not its id, not a secret): what `before` keeps the old values of. */
export function editedFields(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body).filter((name) => name !== 'id' && !SECRET_FIELD.test(name));
}

/**
 * Whether a call deletes what it names: its entry's project must then be looked up before the handler runs (the
 * writer looks up the others' in bulk, after the answer). DELETE, or a path that says delete.
 */
export function deletes(spec: Pick<EndpointSpec, 'method' | 'path'>): boolean {
  return spec.method === 'DELETE' || /\/(delete|del)(_|\/|$)/i.test(spec.path);
}

/** Splits `device:12` into its kind and id; undefined for anything else. */
export function parseTarget(target: string): { kind: ResourceKind; id: string } | undefined {
  const [kind, id] = target.split(':');
  return kind && id && KINDS.has(kind) && ID.test(id) ? { kind: kind as ResourceKind, id } : undefined;
}

const LONGEST_TEXT = 500;
const LONGEST_LIST = 100;

/** Long texts and lists cut short: the trail says what a call did, it does not keep its every byte. */
function shorten(value: unknown): unknown {
  if (typeof value === 'string') return value.length > LONGEST_TEXT ? `${value.slice(0, LONGEST_TEXT)}\u2026` : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, LONGEST_LIST).map(shorten);
    return value.length > LONGEST_LIST ? [...kept, `\u2026 ${value.length - LONGEST_LIST} more`] : kept;
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shorten(v)]));
}

function nonEmpty(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

/** What the request said, secrets redacted (contract SECRET_FIELD), files left out (an upload's body holds its plain fields only). */
export function auditRequest(input: { params?: unknown; query?: unknown; body?: unknown }): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const part of ['params', 'query', 'body'] as const) if (nonEmpty(input[part])) kept[part] = shorten(redactSecrets(input[part]));
  return kept;
}

function actorOf(auth: { userAuth: number; apiKeyId?: bigint } | undefined): AuditActor {
  if (auth?.apiKeyId !== undefined) return 'apiKey';
  const userAuth = auth?.userAuth;
  if (userAuth === USER_AUTH.admin) return 'admin';
  if (userAuth === USER_AUTH.account) return 'account';
  if (userAuth === USER_AUTH.subAccount) return 'subAccount';
  return 'anonymous';
}

/** The sign-in name a call nobody signed in made gives (a sign-in, a sign-up), or ''. */
function signInName(body: unknown): string {
  if (body === null || typeof body !== 'object') return '';
  const fields = body as Record<string, unknown>;
  for (const name of ['account', 'mail', 'phone', 'target'])
    if (typeof fields[name] === 'string') return (fields[name] as string).slice(0, LONGEST_TEXT);
  return '';
}

/** The entry of a call whose answer has gone out. Cheap and synchronous: it runs for every audited call. */
export function auditDraft(spec: EndpointSpec, request: FastifyRequest, at: Date): AuditDraft {
  const auth = request.auth;
  const input = { params: request.params, query: request.query, body: request.body };
  const id = endpointId(spec) ?? `${spec.method} ${spec.path}`;
  return {
    at,
    tenantId: auth?.tenantId ?? null,
    userId: auth?.userId ?? null,
    userName: auth ? '' : signInName(request.body),
    actor: actorOf(auth),
    apiKeyId: auth?.apiKeyId ?? null,
    via: request.headers[CLIENT_HEADER] === 'web' ? 'web' : 'api',
    ip: request.ip,
    endpoint: id,
    kind: id.split('.')[0]!,
    method: spec.method,
    path: request.url.split('?')[0]!.slice(0, LONGEST_TEXT),
    targets: auditTargets(spec, input),
    project: request.auditProject ?? null,
    request: { ...auditRequest(input), ...(request.auditAnswerId ? { answer: { id: request.auditAnswerId } } : {}) },
    before: request.auditBefore ?? null,
    code: request.answerCode ?? 0,
  };
}

/**
 * The entry of a call the server made itself through a service on a user's behalf (the demo site's seeding makes
 * the demo's scenes as its owner): built from the endpoint's table entry as the route layer builds a call's, so it
 * reads like one, through the API and from no address.
 */
export function serverCallDraft(
  spec: EndpointSpec,
  call: {
    auth: Pick<AuthContext, 'tenantId' | 'userId' | 'userAuth'>;
    input: { params?: unknown; query?: unknown; body?: unknown };
    at: Date;
    /** The id the call answered (what it created). */
    answerId?: string;
  },
): AuditDraft {
  const id = endpointId(spec) ?? `${spec.method} ${spec.path}`;
  const path = spec.path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    String((call.input.params as Record<string, unknown>)?.[name] ?? ''),
  );
  return {
    at: call.at,
    tenantId: call.auth.tenantId,
    userId: call.auth.userId,
    userName: '',
    actor: actorOf(call.auth),
    apiKeyId: null,
    via: 'api',
    ip: '',
    endpoint: id,
    kind: id.split('.')[0]!,
    method: spec.method,
    path: path.slice(0, LONGEST_TEXT),
    targets: auditTargets(spec, call.input),
    project: null,
    request: { ...auditRequest(call.input), ...(call.answerId ? { answer: { id: call.answerId } } : {}) },
    before: null,
    code: 0,
  };
}
