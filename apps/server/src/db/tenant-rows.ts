import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/** A table of tenants' own numbered rows (`tenantRowKeys`). */
type TenantRowTable = PgTable & { id: PgColumn; tenantId: PgColumn };

/** The row of the tenant with this id: the tenant filter every repo applies, so another tenant's id finds nothing. */
const tenantRow = (table: TenantRowTable, q: { tenantId: bigint; id: bigint }) => and(eq(table.tenantId, q.tenantId), eq(table.id, q.id));

/** A row of the tenant by id; undefined when the id is not one of the tenant's. */
export async function findTenantRow<Table extends TenantRowTable>(
  db: Db,
  table: Table,
  q: { tenantId: bigint; id: bigint },
): Promise<Table['$inferSelect'] | undefined> {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(tenantRow(table, q))
    .limit(1);
  return row as Table['$inferSelect'] | undefined;
}

/** Deletes a row of the tenant by id; answers whether one went. */
export async function deleteTenantRow(db: Db, table: TenantRowTable, q: { tenantId: bigint; id: bigint }): Promise<boolean> {
  const gone = await db.delete(table).where(tenantRow(table, q)).returning({ id: table.id });
  return gone.length > 0;
}

/** A table of tenants' rows that keep the time of their last change. */
type EditedTenantRowTable = TenantRowTable & { updatedAt: PgColumn };

/**
 * Inserts the tenant's row when `id` is absent, else replaces the fields of the tenant's row with that id and
 * stamps its change; answers the id. Writers of a row and its members call it inside their transaction.
 */
export async function saveTenantRow<Table extends EditedTenantRowTable>(
  db: Db,
  table: Table,
  q: { id?: bigint; values: Table['$inferInsert'] & { tenantId: bigint } },
): Promise<bigint> {
  if (q.id === undefined) {
    const [row] = await db
      .insert(table as PgTable)
      .values(q.values)
      .returning({ id: table.id });
    return row!.id as bigint;
  }
  await db
    .update(table as PgTable)
    .set({ ...q.values, updatedAt: new Date() })
    .where(tenantRow(table, { tenantId: q.values.tenantId, id: q.id }));
  return q.id;
}
