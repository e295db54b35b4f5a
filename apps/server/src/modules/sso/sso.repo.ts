import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { ssoFlows, ssoLinks, ssoSettings } from '../../db/schema/index.ts';

export type SsoSettingsRow = typeof ssoSettings.$inferSelect;
export type SsoFlowRow = typeof ssoFlows.$inferSelect;

/** Queries of the single sign-on tables: the settings, the sign-ins under way and the links to sub-accounts. */
export function createSsoRepo(db: Db) {
  return {
    async settingsOf(q: { tenantId: bigint }): Promise<SsoSettingsRow | undefined> {
      const [row] = await db.select().from(ssoSettings).where(eq(ssoSettings.tenantId, q.tenantId));
      return row;
    },

    /** The account a sign-in page's domain names; any tenant's, as the person signing in has none yet. */
    async settingsByDomainAnyTenant(domain: string): Promise<SsoSettingsRow | undefined> {
      const [row] = await db.select().from(ssoSettings).where(eq(ssoSettings.domain, domain));
      return row;
    },

    /** Writes the settings; 'domainTaken' when another account already signs in that domain. */
    async saveSettings(row: SsoSettingsRow): Promise<'saved' | 'domainTaken'> {
      const { tenantId: _tenantId, ...set } = row;
      try {
        await db.insert(ssoSettings).values(row).onConflictDoUpdate({ target: ssoSettings.tenantId, set });
        return 'saved';
      } catch (error) {
        if (isUniqueViolation(error)) return 'domainTaken';
        throw error;
      }
    },

    async insertFlow(row: SsoFlowRow): Promise<void> {
      await db.insert(ssoFlows).values(row);
    },

    /** Takes a sign-in under way by its state: it is gone afterwards, so a state works once. */
    async takeFlowAnyTenant(stateHash: string): Promise<SsoFlowRow | undefined> {
      const [row] = await db.delete(ssoFlows).where(eq(ssoFlows.stateHash, stateHash)).returning();
      return row;
    },

    /** Forgets sign-ins that were started and never finished. */
    async sweepFlowsAnyTenant(q: { now: Date }): Promise<void> {
      await db.delete(ssoFlows).where(lt(ssoFlows.expiresAt, q.now));
    },

    async linkedUser(q: { tenantId: bigint; claimValue: string }): Promise<bigint | undefined> {
      const [row] = await db
        .select({ userId: ssoLinks.userId })
        .from(ssoLinks)
        .where(and(eq(ssoLinks.tenantId, q.tenantId), eq(ssoLinks.claimValue, q.claimValue)));
      return row?.userId;
    },

    /** Links a claim value to a sub-account; answers the user it is linked to, which a parallel sign-in may have set first. */
    async link(q: { tenantId: bigint; claimValue: string; userId: bigint; now: Date }): Promise<bigint> {
      await db
        .insert(ssoLinks)
        .values({ tenantId: q.tenantId, claimValue: q.claimValue, userId: q.userId, createdAt: q.now })
        .onConflictDoNothing();
      const linked = await this.linkedUser(q);
      return linked ?? q.userId;
    },
  };
}

export type SsoRepo = ReturnType<typeof createSsoRepo>;
