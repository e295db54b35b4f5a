import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { deleteTenantRow, findTenantRow } from '../../db/tenant-rows.ts';
import { pushAppAccounts, pushApps, pushCategories, pushImages, pushNews, users } from '../../db/schema/index.ts';
import { likePattern } from '../projects/projects.repo.ts';

export type PushAppRow = typeof pushApps.$inferSelect & { accountIds: string[]; newsCount: number };
export type PushCategoryRow = typeof pushCategories.$inferSelect & { newsCount: number };
type NewsValues = Omit<typeof pushNews.$inferInsert, 'id' | 'tenantId' | 'createdAt'>;

const operator = alias(users, 'operator');
const reviewer = alias(users, 'reviewer');
const owner = alias(users, 'owner');

/** Bound accounts and news of an app, counted beside its row. */
const appExtras = {
  accountIds: sql<
    string[]
  >`coalesce((select array_agg(a.user_id::text order by a.user_id) from ${pushAppAccounts} a where a.app_id = ${pushApps}.id), '{}')`,
  newsCount: sql<number>`(select count(*)::int from ${pushNews} n where n.app_id = ${pushApps}.id)`,
};

/** A news item with the names lists show beside it. */
const newsColumns = {
  news: pushNews,
  appName: pushApps.name,
  packageName: pushApps.packageName,
  categoryName: pushCategories.name,
  operatorName: operator.name,
  reviewerName: reviewer.name,
  account: sql<string>`coalesce(${owner.company}, ${owner.name})`,
};
export type PushNewsRow = {
  news: typeof pushNews.$inferSelect;
  appName: string;
  packageName: string;
  categoryName: string;
  operatorName: string | null;
  reviewerName: string | null;
  account: string;
};

/** The queries of push-news management; each takes the tenant unless its name says AnyTenant. */
export function createPushRepo(db: Db) {
  const newsQuery = () =>
    db
      .select(newsColumns)
      .from(pushNews)
      .innerJoin(pushApps, eq(pushApps.id, pushNews.appId))
      .innerJoin(pushCategories, eq(pushCategories.id, pushNews.categoryId))
      .innerJoin(owner, eq(owner.id, pushNews.tenantId))
      .leftJoin(operator, eq(operator.id, pushNews.operatorId))
      .leftJoin(reviewer, eq(reviewer.id, pushNews.reviewerId));

  const mineNews = (tenantId: bigint, id: bigint) => and(eq(pushNews.tenantId, tenantId), eq(pushNews.id, id));

  return {
    /* ------------------------------------------------------------ pictures */

    async insertImage({ tenantId, file }: { tenantId: bigint; file: string }) {
      await db.insert(pushImages).values({ tenantId, file });
    },

    /** Whether the tenant uploaded the stored picture of this name. */
    async ownsImage({ tenantId, file }: { tenantId: bigint; file: string }): Promise<boolean> {
      const [row] = await db
        .select({ file: pushImages.file })
        .from(pushImages)
        .where(and(eq(pushImages.tenantId, tenantId), eq(pushImages.file, file)))
        .limit(1);
      return row !== undefined;
    },

    async deleteImage({ tenantId, file }: { tenantId: bigint; file: string }) {
      await db.delete(pushImages).where(and(eq(pushImages.tenantId, tenantId), eq(pushImages.file, file)));
    },

    /* ------------------------------------------------------------ apps */

    async appPage(q: { tenantId: bigint; text?: string; offset: number; limit: number }): Promise<{ total: number; rows: PushAppRow[] }> {
      const where = and(
        eq(pushApps.tenantId, q.tenantId),
        q.text ? or(ilike(pushApps.name, likePattern(q.text)), ilike(pushApps.packageName, likePattern(q.text))) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(pushApps).where(where);
      const rows = await db
        .select({ app: pushApps, ...appExtras })
        .from(pushApps)
        .where(where)
        .orderBy(desc(pushApps.id))
        .offset(q.offset)
        .limit(q.limit);
      return { total: total?.n ?? 0, rows: rows.map((r) => ({ ...r.app, accountIds: r.accountIds, newsCount: r.newsCount })) };
    },

    async findApp({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<PushAppRow | undefined> {
      const [row] = await db
        .select({ app: pushApps, ...appExtras })
        .from(pushApps)
        .where(and(eq(pushApps.tenantId, tenantId), eq(pushApps.id, id)));
      return row && { ...row.app, accountIds: row.accountIds, newsCount: row.newsCount };
    },

    /** Adds an app with its bound accounts; a package name already taken throws the unique violation. */
    async insertApp(values: { tenantId: bigint; name: string; icon: string | null; packageName: string; accountIds: bigint[] }) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(pushApps)
          .values({ tenantId: values.tenantId, name: values.name, icon: values.icon, packageName: values.packageName })
          .returning();
        if (values.accountIds.length)
          await tx.insert(pushAppAccounts).values(values.accountIds.map((userId) => ({ appId: row!.id, userId })));
        return row!;
      });
    },

    /** Changes an app of the tenant and replaces its bound accounts; undefined when it is not the tenant's. */
    async updateApp(values: {
      tenantId: bigint;
      id: bigint;
      name: string;
      icon: string | null;
      packageName: string;
      accountIds: bigint[];
    }) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(pushApps)
          .set({ name: values.name, icon: values.icon, packageName: values.packageName, updatedAt: new Date() })
          .where(and(eq(pushApps.tenantId, values.tenantId), eq(pushApps.id, values.id)))
          .returning();
        if (!row) return undefined;
        await tx.delete(pushAppAccounts).where(eq(pushAppAccounts.appId, row.id));
        if (values.accountIds.length)
          await tx.insert(pushAppAccounts).values(values.accountIds.map((userId) => ({ appId: row.id, userId })));
        return row;
      });
    },

    async removeApp({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<boolean> {
      return deleteTenantRow(db, pushApps, { tenantId, id });
    },

    /** Which of the ids are users of the tenant: the account itself and its sub-accounts, not deleted. */
    async tenantUserIds({ tenantId, ids }: { tenantId: bigint; ids: bigint[] }): Promise<bigint[]> {
      if (!ids.length) return [];
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, ids), or(eq(users.id, tenantId), eq(users.parentId, tenantId)), isNull(users.deletedAt)));
      return rows.map((r) => r.id);
    },

    /* ------------------------------------------------------------ categories */

    async categories({ tenantId }: { tenantId: bigint }): Promise<PushCategoryRow[]> {
      const rows = await db
        .select({
          category: pushCategories,
          newsCount: sql<number>`(select count(*)::int from ${pushNews} n where n.category_id = ${pushCategories}.id)`,
        })
        .from(pushCategories)
        .where(eq(pushCategories.tenantId, tenantId))
        .orderBy(asc(pushCategories.id));
      return rows.map((r) => ({ ...r.category, newsCount: r.newsCount }));
    },

    /**
     * Adds a category unless the tenant has `max` already, in one statement, so two at once cannot both pass
     * the count; undefined when the limit is reached. A duplicate name throws the unique violation.
     */
    async insertCategory({ tenantId, name, max }: { tenantId: bigint; name: string; max: number }) {
      const result = (await db.execute(sql`
        insert into ${pushCategories} (tenant_id, name)
        select ${tenantId}, ${name}
        where (select count(*) from ${pushCategories} where tenant_id = ${tenantId}) < ${max}
        returning id`)) as unknown as { rows: Array<{ id: string | number | bigint }> };
      const id = result.rows[0]?.id;
      if (id === undefined) return undefined;
      const [row] = await db
        .select()
        .from(pushCategories)
        .where(eq(pushCategories.id, BigInt(id)));
      return row;
    },

    async renameCategory({ tenantId, id, name }: { tenantId: bigint; id: bigint; name: string }) {
      const [row] = await db
        .update(pushCategories)
        .set({ name })
        .where(and(eq(pushCategories.tenantId, tenantId), eq(pushCategories.id, id)))
        .returning();
      return row;
    },

    async findCategory({ tenantId, id }: { tenantId: bigint; id: bigint }) {
      return findTenantRow(db, pushCategories, { tenantId, id });
    },

    async removeCategory({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<boolean> {
      return deleteTenantRow(db, pushCategories, { tenantId, id });
    },

    async newsCountOf(q: { appId: bigint } | { categoryId: bigint }): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(pushNews)
        .where('appId' in q ? eq(pushNews.appId, q.appId) : eq(pushNews.categoryId, q.categoryId));
      return row?.n ?? 0;
    },

    /* ------------------------------------------------------------ news */

    async newsPage(q: {
      tenantId: bigint;
      title?: string;
      state?: number;
      appId?: bigint;
      categoryId?: bigint;
      lang?: string;
      offset: number;
      limit: number;
    }): Promise<{ total: number; rows: PushNewsRow[] }> {
      const where = and(
        eq(pushNews.tenantId, q.tenantId),
        q.title ? ilike(pushNews.title, likePattern(q.title)) : undefined,
        q.state !== undefined ? stateIs(q.state) : undefined,
        q.appId !== undefined ? eq(pushNews.appId, q.appId) : undefined,
        q.categoryId !== undefined ? eq(pushNews.categoryId, q.categoryId) : undefined,
        q.lang ? eq(pushNews.lang, q.lang) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(pushNews).where(where);
      const rows = await newsQuery().where(where).orderBy(desc(pushNews.updatedAt), desc(pushNews.id)).offset(q.offset).limit(q.limit);
      return { total: total?.n ?? 0, rows };
    },

    async findNews({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<PushNewsRow | undefined> {
      const [row] = await newsQuery().where(mineNews(tenantId, id));
      return row;
    },

    async insertNews(values: NewsValues & { tenantId: bigint }): Promise<bigint> {
      const [row] = await db.insert(pushNews).values(values).returning({ id: pushNews.id });
      return row!.id;
    },

    /**
     * Changes a news item of the tenant while it is in one of the states given (checked in the same statement,
     * so a review landing meanwhile is not overwritten): 'state' when it is there but in another state.
     */
    async updateNews(q: {
      tenantId: bigint;
      id: bigint;
      fromStates: number[];
      set: Partial<NewsValues>;
    }): Promise<'ok' | 'state' | undefined> {
      const changed = await db
        .update(pushNews)
        .set({ ...q.set, updatedAt: new Date() })
        .where(and(mineNews(q.tenantId, q.id), statesIn(q.fromStates)))
        .returning({ id: pushNews.id });
      if (changed.length) return 'ok';
      const [exists] = await db.select({ id: pushNews.id }).from(pushNews).where(mineNews(q.tenantId, q.id));
      return exists ? 'state' : undefined;
    },

    async removeNews({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<boolean> {
      const gone = await db.delete(pushNews).where(mineNews(tenantId, id)).returning({ id: pushNews.id });
      return gone.length > 0;
    },

    /* ------------------------------------------------------------ review, across accounts */

    /** The review queue of every account: one state, pending oldest first, reviewed ones newest first. */
    async reviewPageAnyTenant(q: { state: number; offset: number; limit: number }): Promise<{ total: number; rows: PushNewsRow[] }> {
      const where = eq(pushNews.state, q.state);
      const [total] = await db.select({ n: count() }).from(pushNews).where(where);
      const order = q.state === 3 ? [asc(pushNews.submittedAt), asc(pushNews.id)] : [desc(pushNews.reviewedAt), desc(pushNews.id)];
      const rows = await newsQuery()
        .where(where)
        .orderBy(...order)
        .offset(q.offset)
        .limit(q.limit);
      return { total: total?.n ?? 0, rows };
    },

    /** A news item of any account that has been sent to review (drafts are their author's alone). */
    async reviewableAnyTenant({ id }: { id: bigint }): Promise<PushNewsRow | undefined> {
      const [row] = await newsQuery().where(and(eq(pushNews.id, id), inArray(pushNews.state, [2, 3, 4])));
      return row;
    },

    /** Moves a pending news item of any account to passed or failed; 'state' when it is not pending (any more). */
    async reviewAnyTenant(q: {
      id: bigint;
      to: number;
      reviewerId: bigint;
      reason: string | null;
      now: Date;
    }): Promise<'ok' | 'state' | undefined> {
      const changed = await db
        .update(pushNews)
        .set({ state: q.to, reviewerId: q.reviewerId, reason: q.reason, reviewedAt: q.now })
        .where(and(eq(pushNews.id, q.id), eq(pushNews.state, 3)))
        .returning({ id: pushNews.id });
      if (changed.length) return 'ok';
      const [exists] = await db
        .select({ id: pushNews.id })
        .from(pushNews)
        .where(and(eq(pushNews.id, q.id), ne(pushNews.state, 1)));
      return exists ? 'state' : undefined;
    },

    /* ------------------------------------------------------------ public, for the mobile apps */

    /** Passed news of an app (by package name) in one language: recommended first, then the newest review. */
    async publicPageAnyTenant(q: { packageName: string; lang: string; categoryId?: bigint; offset: number; limit: number }) {
      const where = and(
        eq(pushApps.packageName, q.packageName),
        eq(pushNews.lang, q.lang),
        eq(pushNews.state, 4),
        q.categoryId !== undefined ? eq(pushNews.categoryId, q.categoryId) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(pushNews).innerJoin(pushApps, eq(pushApps.id, pushNews.appId)).where(where);
      const rows = await newsQuery()
        .where(where)
        .orderBy(desc(pushNews.recommended), desc(pushNews.reviewedAt), desc(pushNews.id))
        .offset(q.offset)
        .limit(q.limit);
      return { total: total?.n ?? 0, rows };
    },

    /**
     * One passed news item of the app, counting the view in the same statement that finds it: news not passed,
     * or of another app, is neither found nor counted.
     */
    async viewPublicAnyTenant({ id, packageName }: { id: bigint; packageName: string }): Promise<PushNewsRow | undefined> {
      const counted = await db
        .update(pushNews)
        .set({ views: sql`${pushNews.views} + 1` })
        .where(
          and(
            eq(pushNews.id, id),
            eq(pushNews.state, 4),
            eq(pushNews.appId, sql`(select ${pushApps.id} from ${pushApps} where ${pushApps.packageName} = ${packageName})`),
          ),
        )
        .returning({ id: pushNews.id });
      if (!counted.length) return undefined;
      const [row] = await newsQuery().where(eq(pushNews.id, id));
      return row;
    },
  };
}

export type PushRepo = ReturnType<typeof createPushRepo>;

/** A state filter by the contract's reading: every code other than 2, 3 and 4 is a draft. */
function stateIs(state: number): SQL {
  return state === 1 ? sql`${pushNews.state} not in (2, 3, 4)` : eq(pushNews.state, state);
}

function statesIn(states: number[]): SQL | undefined {
  return or(...states.map(stateIs));
}
