import { skipToken, useQuery, type DefaultError, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';

/** What a data hook adds to a read: the last answer shown while the next loads, polling, staleness. */
export type ApiQueryOptions<R> = Pick<UseQueryOptions<R, DefaultError, R, QueryKey>, 'placeholderData' | 'refetchInterval' | 'staleTime'>;

/** The key of a read that waits for its input; nothing is ever read under it. */
export const WAITING_KEY = ['waiting'] as const;

/**
 * One read of the API: `key` (from the domain's key factory) and `read` take the same input, so a data hook
 * names the two and what it adds. An undefined input waits, reading nothing, until the screen has one.
 */
export function useApiQuery<I, R>(
  key: (input: I) => QueryKey,
  read: (input: I, signal: AbortSignal) => Promise<R>,
  input: I | undefined,
  options: ApiQueryOptions<R> = {},
) {
  return useQuery({
    ...options,
    queryKey: input === undefined ? WAITING_KEY : key(input),
    queryFn: input === undefined ? skipToken : ({ signal }) => read(input, signal),
  });
}
