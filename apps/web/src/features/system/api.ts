import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { outboxEndpoints, systemEndpoints, type PageQuery } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';

export const systemKeys = {
  all: ['system'] as const,
  info: () => [...systemKeys.all, 'info'] as const,
  outbox: (query: Required<PageQuery>) => [...systemKeys.all, 'outbox', query] as const,
};

/** Mode, version and company of this installation; public. */
export function useSystemInfo() {
  return useQuery({
    queryKey: systemKeys.info(),
    // Silent: before sign-in a missing server must not greet the user with an error toast.
    queryFn: ({ signal }) => call(systemEndpoints.info, {}, { silent: true, signal }),
    staleTime: Infinity,
    retry: 1,
  });
}

/** One page of the outbox (platform administrator only). */
export function useOutbox(query: Required<PageQuery>) {
  return useQuery({
    queryKey: systemKeys.outbox(query),
    queryFn: ({ signal }) => call(outboxEndpoints.list, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}
