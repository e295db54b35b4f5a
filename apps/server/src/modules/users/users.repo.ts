import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.repo.ts';
import { likePattern } from '../projects/projects.repo.ts';

/** Which users a manager sees: those with one user_auth, and for an owner only its own account's sub-accounts. */
export interface ManagedScope {
  userAuth: number;
  parentId?: bigint;
}

function inScope(scope: ManagedScope): SQL {
  const base = and(eq(users.userAuth, scope.userAuth), isNull(users.deletedAt))!;
  return scope.parentId !== undefined ? and(base, eq(users.parentId, scope.parentId))! : base;
}

/** What deleting an account writes: it stays for the history, and its sign-in name, mail and phone are free again. */
const deletedAccount = (at: Date) => ({
  deletedAt: at,
  enabled: false,
  account: sql`${users.account} || '#deleted-' || ${users.id}`,
  mail: null,
  phone: null,
  updatedAt: at,
});

/** Queries of the account screens; deleted accounts are never listed or found. */
export function createUsersRepo(db: Db) {
  return {
    async page(q: { scope: ManagedScope; text?: string; offset: number; limit: number }): Promise<{ total: number; rows: UserRow[] }> {
      const pattern = q.text ? likePattern(q.text) : undefined;
      const where = and(
        inScope(q.scope),
        pattern
          ? or(
              ilike(users.account, pattern),
              ilike(users.name, pattern),
              ilike(users.mail, pattern),
              ilike(users.phone, pattern),
              ilike(users.company, pattern),
            )
          : undefined,
      );
      const [total] = await db.select({ n: count() }).from(users).where(where);
      const rows = await db.select().from(users).where(where).orderBy(desc(users.id)).offset(q.offset).limit(q.limit);
      return { total: total?.n ?? 0, rows };
    },

    async find(q: { scope: ManagedScope; id: bigint }): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(inScope(q.scope), eq(users.id, q.id)))
        .limit(1);
      return row;
    },

    /** Changes an account in the manager's scope; answers undefined when the e-mail or phone is taken. */
    async update(q: { scope: ManagedScope; id: bigint; set: Partial<typeof users.$inferInsert> }): Promise<UserRow | 'taken' | undefined> {
      try {
        const [row] = await db
          .update(users)
          .set({ ...q.set, updatedAt: sql`now()` })
          .where(and(inScope(q.scope), eq(users.id, q.id)))
          .returning();
        return row;
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /** Deletes the sub-accounts of a deleted account; answers their ids. */
    async softDeleteSubAccounts(q: { parentId: bigint; at: Date }): Promise<bigint[]> {
      const rows = await db
        .update(users)
        .set(deletedAccount(q.at))
        .where(and(eq(users.parentId, q.parentId), isNull(users.deletedAt)))
        .returning({ id: users.id });
      return rows.map((r) => r.id);
    },

    /** Marks an account deleted and frees its sign-in name, mail and phone for a new account. */
    async softDelete(q: { scope: ManagedScope; id: bigint; at: Date }): Promise<boolean> {
      const rows = await db
        .update(users)
        .set(deletedAccount(q.at))
        .where(and(inScope(q.scope), eq(users.id, q.id)))
        .returning({ id: users.id });
      return rows.length > 0;
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
