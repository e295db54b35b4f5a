import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userMadeRows } from '../../db/user-made-rows.ts';
import { apiKeys, users } from '../../db/schema/index.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiKeyListRow = Omit<ApiKeyRow, 'secretHash' | 'windowStartedAt' | 'windowCalls'> & { userName: string };

const LISTED = {
  id: apiKeys.id,
  tenantId: apiKeys.tenantId,
  userId: apiKeys.userId,
  name: apiKeys.name,
  scope: apiKeys.scope,
  projectIds: apiKeys.projectIds,
  expiresAt: apiKeys.expiresAt,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  lastUsedIp: apiKeys.lastUsedIp,
  userName: users.name,
};

/** Queries of the api_keys table; every one but the lookup of a presented key takes the tenant. */
export function createApiKeysRepo(db: Db) {
  return {
    ...userMadeRows<typeof apiKeys, ApiKeyListRow>(db, apiKeys, LISTED),

    async revoke(q: { tenantId: bigint; id: bigint; now: Date }): Promise<void> {
      await db
        .update(apiKeys)
        .set({ revokedAt: q.now })
        .where(and(eq(apiKeys.tenantId, q.tenantId), eq(apiKeys.id, q.id), sql`${apiKeys.revokedAt} is null`));
    },

    /** A presented key by its id, whichever tenant: the id in the key is all the caller has told us yet. */
    async findPresentedAnyTenant(id: bigint): Promise<ApiKeyRow | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
      return row;
    },

    /**
     * Counts a call in the key's current minute and notes when and from where it came, in one statement, so
     * that every server node shares the count. Answers the calls made in the minute, this one included.
     */
    async countCall(q: { id: bigint; now: Date; ip: string; windowMs: number }): Promise<number> {
      const now = sql`${q.now.toISOString()}::timestamptz`;
      const windowEnded = sql`${apiKeys.windowStartedAt} is null or ${apiKeys.windowStartedAt} <= ${new Date(q.now.getTime() - q.windowMs).toISOString()}::timestamptz`;
      const [row] = await db
        .update(apiKeys)
        .set({
          lastUsedAt: q.now,
          lastUsedIp: q.ip,
          windowStartedAt: sql`case when ${windowEnded} then ${now} else ${apiKeys.windowStartedAt} end`,
          windowCalls: sql`case when ${windowEnded} then 1 else ${apiKeys.windowCalls} + 1 end`,
        })
        .where(eq(apiKeys.id, q.id))
        .returning({ calls: apiKeys.windowCalls });
      return row?.calls ?? 0;
    },
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
