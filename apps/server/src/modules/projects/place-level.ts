import { and, count, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';

/** A level of the place tree (projects, buildings, maps): rows of an account, one of them the account's default. */
type PlaceLevel = PgTable & { id: PgColumn; tenantId: PgColumn; isDefault: PgColumn; updatedAt: PgColumn };

/** A level whose rows nest in rows of the same level (projects, buildings). */
type NestingPlaceLevel = PlaceLevel & { parentId: PgColumn };

/** The queries every level of the place tree answers alike. */
export function placeLevelQueries<Level extends PlaceLevel>(db: Db, level: Level) {
  const ofTenant = (q: { tenantId: bigint; id: bigint }) => and(eq(level.tenantId, q.tenantId), eq(level.id, q.id));
  return {
    /** The account's default row: made with the account, and never deleted. */
    async findDefault({ tenantId }: { tenantId: bigint }): Promise<Level['$inferSelect'] | undefined> {
      const [row] = await db
        .select()
        .from(level as PgTable)
        .where(and(eq(level.tenantId, tenantId), eq(level.isDefault, true)))
        .limit(1);
      return row as Level['$inferSelect'] | undefined;
    },

    /** Changes a row of the account and marks when; answers whether the row was found. */
    async update(q: { tenantId: bigint; id: bigint; set: Partial<Level['$inferInsert']> }): Promise<boolean> {
      const [row] = await db
        .update(level)
        .set({ ...q.set, updatedAt: sql`now()` } as PgUpdateSetSource<Level>)
        .where(ofTenant(q))
        .returning({ id: level.id });
      return row !== undefined;
    },

    /** Deletes a row of the account that is not its default; answers whether a row went. */
    async deleteUnlessDefault(q: { tenantId: bigint; id: bigint }): Promise<boolean> {
      const rows = await db
        .delete(level)
        .where(and(ofTenant(q), eq(level.isDefault, false)))
        .returning({ id: level.id });
      return rows.length === 1;
    },
  };
}

/** How many rows sit directly under a row of a nesting level. */
export async function countChildren(db: Db, level: NestingPlaceLevel, q: { tenantId: bigint; id: bigint }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(level as PgTable)
    .where(and(eq(level.tenantId, q.tenantId), eq(level.parentId, q.id)));
  return row?.n ?? 0;
}
