import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/** Queries on users. Sign-in names are matched on the account name, the e-mail or the phone. */
export function createAccountsRepo(db: Db) {
  return {
    async findByLogin(login: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(or(eq(users.account, login), eq(users.mail, login.toLowerCase()), eq(users.phone, login)))
        .limit(1);
      return row;
    },

    async findById(id: bigint): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Inserts a user; answers undefined when the account, mail or phone is already taken. */
    async insert(values: NewUserRow): Promise<UserRow | undefined> {
      const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async setPassword({ id, passwordHash }: { id: bigint; passwordHash: string }) {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, id));
    },

    /** Changes a user's own fields; answers 'taken' when the e-mail or phone belongs to another user. */
    async updateProfile({ id, set }: { id: bigint; set: Partial<NewUserRow> }): Promise<UserRow | 'taken' | undefined> {
      try {
        const [row] = await db
          .update(users)
          .set({ ...set, updatedAt: sql`now()` })
          .where(eq(users.id, id))
          .returning();
        return row;
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    async setLang({ id, lang }: { id: bigint; lang: string }) {
      await db
        .update(users)
        .set({ lang, updatedAt: sql`now()` })
        .where(eq(users.id, id));
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
