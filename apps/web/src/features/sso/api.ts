import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ssoEndpoints, type SsoFinishBody, type SsoSettingsBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';

/** One key factory for single sign-on; saving replaces the settings in the cache. */
export const ssoKeys = {
  all: ['sso'] as const,
  settings: () => [...ssoKeys.all, 'settings'] as const,
};

/** The account's single sign-on settings (the owner's); never the client secret. */
export function useSsoSettings() {
  return useQuery({ queryKey: ssoKeys.settings(), queryFn: ({ signal }) => call(ssoEndpoints.settings, {}, { signal }) });
}

export function useSaveSsoSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoSettingsBody) => call(ssoEndpoints.saveSettings, { body }),
    onSuccess: (saved) => client.setQueryData(ssoKeys.settings(), saved),
  });
}

/** Starts a sign-in at the provider of a domain: answers the address the browser goes to. */
export function useStartSso() {
  return useMutation({ mutationFn: (domain: string) => call(ssoEndpoints.start, { body: { domain } }) });
}

/** Hands the provider's answer to the server, which opens a session; a refusal is the callback page's to show. */
export function useFinishSso() {
  return useMutation({ mutationFn: (body: SsoFinishBody) => call(ssoEndpoints.finish, { body }, { silent: true }) });
}
