import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeyEndpoints, type ApiKeyCreateBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';

/** One key factory for the API keys; every change invalidates `all`. */
export const apiKeyKeys = {
  all: ['apiKeys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

/** The keys of the account the caller may see, newest first, revoked ones included. */
export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => call(apiKeyEndpoints.list, {}, { signal }) });
}

/** Makes a key; its answer carries the secret, which the page shows once and keeps nowhere. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreateBody) => call(apiKeyEndpoints.create, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(apiKeyEndpoints.revoke, { body: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
