import { mayCall, type Access, type EndpointObjects, type ResourceKind } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { AccessRepo } from './access.repo.ts';

/**
 * Who asks: the account and a limited sub-account's scope, with the authority inside the account where the
 * permission asked for needs it ('signedIn' does not: the endpoint has checked the authority already).
 */
export type AccessCaller = Pick<AuthContext, 'tenantId' | 'scope'> & Partial<Pick<AuthContext, 'operateAuth' | 'userAuth' | 'pushAuth'>>;

/** Whether the caller holds the permission, by the one rule of contract roles.ts. */
function holds(auth: AccessCaller, permission: Access): boolean {
  if (permission === 'public' || permission === 'signedIn') return true;
  return auth.operateAuth !== undefined && mayCall(permission, { ...auth, operateAuth: auth.operateAuth });
}

const MAX_ID = 2n ** 63n - 1n;

/**
 * Parses an id from a request. An id beyond 64 bits cannot exist, so it answers "not your data" like any
 * other id the caller does not own, rather than reaching the database.
 */
export function toId(value: string): bigint {
  const id = BigInt(value);
  if (id < 1n || id > MAX_ID) throw new AppError(110011);
  return id;
}

/**
 * Refuses an object the caller may not touch (110011). Unknown ids, ids of another account and objects that
 * do not belong together (a gateway of another project than the map) answer alike, so existence is never told.
 */
export function denyAccess(): never {
  throw new AppError(110011);
}

/** The row an account-filtered query found; none means the object is not the caller's (or is gone since its check). */
export function found<T>(row: T | null | undefined): T {
  if (row === null || row === undefined) denyAccess();
  return row;
}

/** Whether the caller sees a project: every project of its account, or a limited sub-account only its own. */
export function seesProject(auth: Pick<AuthContext, 'scope'>, projectId: bigint | null): boolean {
  return !auth.scope || (projectId !== null && auth.scope.projectIds.has(projectId));
}

/**
 * Whether the caller sees what stands on a map (a gateway, a device, a group); a limited sub-account sees
 * nothing that stands on no map of its projects.
 */
export function seesMap(auth: Pick<AuthContext, 'scope'>, mapId: bigint | null): boolean {
  return !auth.scope || (mapId !== null && auth.scope.mapIds.has(mapId));
}

/** The maps a list may show a limited sub-account; undefined when the caller sees its whole account. */
export function visibleMapIds(auth: Pick<AuthContext, 'scope'>): bigint[] | undefined {
  return auth.scope ? [...auth.scope.mapIds] : undefined;
}

/** The projects a list may show a limited sub-account; undefined when the caller sees its whole account. */
export function visibleProjectIds(auth: Pick<AuthContext, 'scope'>): bigint[] | undefined {
  return auth.scope ? [...auth.scope.projectIds] : undefined;
}

type IdInput = string | bigint;

function uniqueIds(ids: IdInput | readonly IdInput[]): bigint[] {
  const list = Array.isArray(ids) ? (ids as readonly IdInput[]) : [ids as IdInput];
  return [...new Set(list.map((id) => (typeof id === 'bigint' ? id : toId(id))))];
}

/** The ids a request field holds: one string, a list of strings, or nothing (absent, null, empty). */
function fieldIds(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/**
 * The one answer to "may this caller touch these objects", in the spirit of immich's requireAccess: a bulk
 * query per kind of object, honouring the account and a limited sub-account's projects and maps. The route
 * layer asks it for the ids an endpoint declares (contract `objects`); services ask it for ids met inside
 * their rules, and lists filter through it.
 */
export function createAccess(deps: { repo: Pick<AccessRepo, 'allowedIds'> }) {
  /** The ids among these that the caller may touch with this authority; none at all without the authority. */
  async function checkAccess(auth: AccessCaller, permission: Access, kind: ResourceKind, ids: Iterable<bigint>): Promise<Set<bigint>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0 || !holds(auth, permission)) return new Set();
    const allowed = await deps.repo.allowedIds(kind, {
      tenantId: auth.tenantId,
      ids: wanted,
      scope: auth.scope ? { projectIds: [...auth.scope.projectIds], mapIds: [...auth.scope.mapIds] } : undefined,
    });
    return new Set(allowed);
  }

  /**
   * The ids, parsed and without repeats, when the caller may touch every one of them: 110003 without the
   * authority, 110011 when any id is not theirs (or does not exist, or is past 64 bits).
   */
  async function requireAccess(
    auth: AccessCaller,
    permission: Access,
    kind: ResourceKind,
    ids: IdInput | readonly IdInput[],
  ): Promise<bigint[]> {
    if (!holds(auth, permission)) throw new AppError(110003);
    const wanted = uniqueIds(ids);
    const allowed = await checkAccess(auth, permission, kind, wanted);
    if (wanted.some((id) => !allowed.has(id))) denyAccess();
    return wanted;
  }

  /** One id the caller may touch (see requireAccess). */
  async function requireOne(auth: AccessCaller, permission: Access, kind: ResourceKind, id: IdInput): Promise<bigint> {
    const [one] = await requireAccess(auth, permission, kind, id);
    return one!;
  }

  /**
   * The route layer's check: every id an endpoint declares in its request, kind by kind, before the handler
   * runs. Fields are checked in the order the endpoint declares them, so the first refusal is the one the
   * handler would have met first.
   */
  async function requireObjects(
    auth: AccessCaller,
    permission: Access,
    objects: EndpointObjects,
    input: { params?: unknown; query?: unknown; body?: unknown },
  ): Promise<void> {
    for (const part of ['params', 'query', 'body'] as const) {
      const fields = objects[part];
      const values = (input[part] ?? {}) as Record<string, unknown>;
      if (!fields) continue;
      for (const [field, kind] of Object.entries(fields)) {
        const ids = fieldIds(values[field]);
        if (ids.length > 0) await requireAccess(auth, permission, kind, ids);
      }
    }
  }

  return { checkAccess, requireAccess, requireOne, requireObjects };
}
export type AccessService = ReturnType<typeof createAccess>;
