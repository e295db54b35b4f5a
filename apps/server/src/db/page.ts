import type { PgSelect } from 'drizzle-orm/pg-core';

/** Which rows of a list one page holds. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/**
 * One page of a list: first how many rows the whole list holds (`total`, e.g. drizzle's `db.$count`), then the
 * page's rows of `query` (a dynamic select, as drizzle documents for paging).
 */
export async function readPage<Query extends PgSelect>(
  total: number | PromiseLike<number>,
  query: Query,
  page: PageWindow,
): Promise<{ total: number; rows: Awaited<Query> }> {
  const counted = await total;
  const rows = await query.offset(page.offset).limit(page.limit);
  return { total: counted, rows };
}
