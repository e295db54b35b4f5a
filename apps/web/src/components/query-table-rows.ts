/** What a table needs of a list query: its answer (a page with `list`, or a plain array) and whether it is reading. */
interface ListQuery<T> {
  data?: { list: T[] } | T[];
  isFetching: boolean;
}

/**
 * A table's rows and spinner from a list query. The spinner shows only until the first answer: a refetch (a
 * notice, a poll) keeps the rows on screen instead of blanking them.
 */
export function queryTableRows<T>(query: ListQuery<T>): { dataSource: T[]; loading: boolean } {
  const { data } = query;
  return { dataSource: Array.isArray(data) ? data : (data?.list ?? []), loading: query.isFetching && !data };
}
