import { useQuery } from '@tanstack/react-query';
import { apiKeyEndpoints, type ApiKeyCreateBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';

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
export const useCreateApiKey = () =>
  useRefreshingMutation((body: ApiKeyCreateBody) => call(apiKeyEndpoints.create, { body }), [apiKeyKeys.all]);

export const useRevokeApiKey = () =>
  useRefreshingMutation((id: string) => call(apiKeyEndpoints.revoke, { body: { id } }), [apiKeyKeys.all]);
