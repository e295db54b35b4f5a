import { isNotNull, sql } from 'drizzle-orm';
import { QueryBuilder, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';

/**
 * The bytes each account's rows of a table take (pg_column_size of whole rows), as a query of (key: the tenant,
 * n): the platform's "storage used" adds these up, and each core table's owner answers it for its own table.
 */
export function rowBytesByTenant<T extends PgTable & { tenantId: AnyPgColumn }>(table: T) {
  return new QueryBuilder()
    .select({ key: table.tenantId as T['tenantId'], n: sql<string>`coalesce(sum(pg_column_size(${table}.*)), 0)::bigint`.as('n') })
    .from(table as PgTable)
    .where(isNotNull(table.tenantId))
    .groupBy(table.tenantId);
}
