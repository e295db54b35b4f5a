import { useQuery } from '@tanstack/react-query';
import type { HostConfig } from '@lumigrid/contract/browser';
import { parseJson } from '../../api/big-json.ts';
import { hostConfigUrl, sanitiseHostConfig } from './branding.ts';

export const brandingKeys = {
  all: ['branding'] as const,
  hostConfig: (hostname: string) => [...brandingKeys.all, 'host-config', hostname] as const,
};

/** The host file is optional; give up quickly and fall back rather than hold the login page. */
const HOST_CONFIG_TIMEOUT_MS = 8_000;

/** Fetches the host file; undefined (never an error) when it is missing, slow or malformed. */
export async function fetchHostConfig(hostname: string): Promise<HostConfig | null> {
  try {
    const response = await fetch(hostConfigUrl(hostname), {
      headers: { Accept: 'application/json, text/plain' },
      signal: AbortSignal.timeout(HOST_CONFIG_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    return sanitiseHostConfig(parseJson(await response.text())) ?? null;
  } catch {
    return null;
  }
}

export function useHostConfig(hostname: string) {
  return useQuery({
    queryKey: brandingKeys.hostConfig(hostname),
    queryFn: () => fetchHostConfig(hostname),
    staleTime: Infinity,
    retry: false,
  });
}
