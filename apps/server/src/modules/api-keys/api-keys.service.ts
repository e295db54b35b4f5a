import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_LIMITS,
  API_KEY_PATTERN,
  OPERATE_AUTH,
  apiKeyOperateAuth,
  apiKeyReaches,
  isLang,
  mayGrantScope,
  type ApiKey,
  type ApiKeyCreateBody,
  type ApiKeyCreated,
  type ApiKeyList,
  type EndpointSpec,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext, ProjectScope } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { denyAccess, toId } from '../access/access.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import type { ApiKeyListRow, ApiKeysRepo } from './api-keys.repo.ts';

const DAY_MS = 86_400_000;
const RATE_WINDOW_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The stored hash of a secret (hex), compared in constant time so the comparison tells nothing of the right one. */
function sameHash(secret: string, storedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const presented = sha256(secret);
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}

/** A key as its list shows it. */
export function mapApiKey(row: ApiKeyListRow): ApiKey {
  return {
    id: String(row.id),
    name: row.name,
    scope: row.scope,
    projectIds: row.projectIds ? row.projectIds.map(String) : null,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    userId: String(row.userId),
    userName: row.userName,
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    lastUsedIp: row.lastUsedIp,
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
    prefix: `lg_${row.id}_`,
  };
}

/** Owners (and the platform administrator in its own account) see and revoke every key of the account. */
function seesEveryKey(auth: Pick<AuthContext, 'operateAuth'>): boolean {
  return auth.operateAuth === OPERATE_AUTH.owner;
}

/** What a key limited to projects and a maker limited to projects both see. */
function narrower(maker: ProjectScope | undefined, key: ProjectScope | undefined): ProjectScope | undefined {
  if (!maker) return key;
  if (!key) return maker;
  return {
    projectIds: new Set([...key.projectIds].filter((id) => maker.projectIds.has(id))),
    mapIds: new Set([...key.mapIds].filter((id) => maker.mapIds.has(id))),
  };
}

/** API keys: made, listed and revoked by signed-in users; presented keys resolved to their caller on every call. */
export function createApiKeysService(deps: {
  repo: ApiKeysRepo;
  accounts: Pick<AccountsService, 'findById'>;
  members: Pick<ProjectMembers, 'scopeOf' | 'scopeOfProjects' | 'requireProjects'>;
  clock: Clock;
}) {
  const { repo, accounts, members, clock } = deps;

  return {
    async list(auth: AuthContext): Promise<ApiKeyList> {
      const rows = await repo.list({ tenantId: auth.tenantId, userId: seesEveryKey(auth) ? undefined : auth.userId });
      return rows.map(mapApiKey);
    },

    /** Makes a key within the maker's authority and projects; the answer holds the secret this once. */
    async create(auth: AuthContext, body: ApiKeyCreateBody): Promise<ApiKeyCreated> {
      if (!mayGrantScope(auth, body.scope)) throw new AppError(110003);
      const now = clock.now();
      const expiresAt = new Date(body.expiresAt);
      if (!(expiresAt > now) || expiresAt.getTime() > now.getTime() + API_KEY_LIMITS.maxLifetimeDays * DAY_MS) throw new AppError(101006);
      let projectIds: bigint[] | null = null;
      if (body.projectIds) {
        projectIds = await members.requireProjects({ tenantId: auth.tenantId, projectIds: body.projectIds });
        // A limited maker gives only projects it sees itself.
        if (auth.scope && projectIds.some((id) => !auth.scope!.projectIds.has(id))) denyAccess();
      }
      if ((await repo.countInTenant({ tenantId: auth.tenantId })) >= API_KEY_LIMITS.perAccount) throw new AppError(101007);
      const secret = randomBytes(32).toString('base64url');
      const id = await repo.insert({
        tenantId: auth.tenantId,
        userId: auth.userId,
        name: body.name.trim(),
        scope: body.scope,
        projectIds,
        secretHash: sha256(secret).toString('hex'),
        expiresAt,
        createdAt: now,
      });
      const row = await repo.findInTenant({ tenantId: auth.tenantId, id });
      return { ...mapApiKey(row!), secret: `lg_${id}_${secret}` };
    },

    /** Revokes a key at once: its next call answers 101002. */
    async revoke(auth: AuthContext, id: string): Promise<null> {
      const row = await repo.findInTenant({ tenantId: auth.tenantId, id: toId(id) });
      if (!row || (!seesEveryKey(auth) && row.userId !== auth.userId)) denyAccess();
      await repo.revoke({ tenantId: auth.tenantId, id: row.id, now: clock.now() });
      return null;
    },

    /**
     * Resolves a presented key to its caller on every call, reading the key and its user afresh, so that a
     * revocation, an expiry or a change of the user's authority counts from the next call. Refuses an endpoint
     * keys never reach (101005) and a key past its calls of the minute (101004); the route layer then checks
     * the endpoint's authority against the key's, as for anybody.
     */
    async authenticate(token: string, call: { spec: Pick<EndpointSpec, 'access' | 'sessionOnly'>; ip: string }): Promise<AuthContext> {
      const match = API_KEY_PATTERN.exec(token);
      if (!match) throw new AppError(101001);
      const id = BigInt(match[1]!);
      const key = await repo.findPresentedAnyTenant(id);
      if (!key || !sameHash(match[2]!, key.secretHash)) throw new AppError(101001);
      if (key.revokedAt) throw new AppError(101002);
      const now = clock.now();
      if (now >= key.expiresAt) throw new AppError(101003);
      const user = await accounts.findById(key.userId);
      if (!user || user.deletedAt) throw new AppError(250020);
      if (!user.enabled) throw new AppError(250018);
      if (!apiKeyReaches(call.spec)) throw new AppError(101005);
      const calls = await repo.countCall({ id: key.id, now, ip: call.ip, windowMs: RATE_WINDOW_MS });
      if (calls > API_KEY_LIMITS.callsPerMinute) throw new AppError(101004);
      const tenantId = user.parentId ?? user.id;
      const makerScope = user.parentId !== null && !user.allProjects ? await members.scopeOf({ tenantId, userId: user.id }) : undefined;
      const keyScope = key.projectIds ? await members.scopeOfProjects({ tenantId, projectIds: key.projectIds }) : undefined;
      const scope = narrower(makerScope, keyScope);
      return {
        userId: user.id,
        tenantId,
        userAuth: user.userAuth,
        operateAuth: apiKeyOperateAuth(key.scope, user),
        // Push review is a person's permission, never a key's.
        pushAuth: false,
        lang: isLang(user.lang) ? user.lang : 'en',
        // A key has no session: no endpoint a key reaches is about the caller's session.
        sessionId: 0n,
        apiKeyId: key.id,
        ...(scope ? { scope } : {}),
      };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
