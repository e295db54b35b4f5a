import { and, count, desc, eq } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import { users } from './schema/index.ts';

/** A table of things a user of an account made for integrations (API keys, webhook endpoints). */
type UserMadeTable = PgTable & { id: PgColumn; tenantId: PgColumn; userId: PgColumn; createdAt: PgColumn };

/**
 * The queries such a table answers alike: adding one, counting the account's against its limit, and listing or
 * finding them as the account's screens show them, `listed` (which names its maker as `users.name`) newest first.
 */
export function userMadeRows<Table extends UserMadeTable, ListRow>(db: Db, table: Table, listed: SelectedFields) {
  const withMaker = () =>
    db
      .select(listed)
      .from(table as PgTable)
      .innerJoin(users, eq(users.id, table.userId));
  return {
    async insert(row: Omit<Table['$inferInsert'], 'id'>): Promise<bigint> {
      const [inserted] = await db
        .insert(table)
        .values(row as Table['$inferInsert'])
        .returning({ id: table.id });
      return inserted!.id as bigint;
    },

    async countInTenant(q: { tenantId: bigint }): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(table as PgTable)
        .where(eq(table.tenantId, q.tenantId));
      return row?.n ?? 0;
    },

    /** The account's rows (one user's when `userId` is given), newest first. */
    async list(q: { tenantId: bigint; userId?: bigint }): Promise<ListRow[]> {
      const rows = await withMaker()
        .where(and(eq(table.tenantId, q.tenantId), q.userId === undefined ? undefined : eq(table.userId, q.userId)))
        .orderBy(desc(table.createdAt), desc(table.id));
      return rows as ListRow[];
    },

    async findInTenant(q: { tenantId: bigint; id: bigint }): Promise<ListRow | undefined> {
      const [row] = await withMaker().where(and(eq(table.tenantId, q.tenantId), eq(table.id, q.id)));
      return row as ListRow | undefined;
    },
  };
}
