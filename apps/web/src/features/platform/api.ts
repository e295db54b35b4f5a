import { useQuery } from '@tanstack/react-query';
import { platformEndpoints, type RolloutCreateBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';

/** One key factory for the platform administrator's view; every rollout change invalidates `rollouts`. */
export const platformKeys = {
  all: ['platform'] as const,
  overview: () => [...platformKeys.all, 'overview'] as const,
  files: () => [...platformKeys.all, 'files'] as const,
  rollouts: () => [...platformKeys.all, 'rollouts'] as const,
  rollout: (id: string) => [...platformKeys.rollouts(), id] as const,
};

/** Tenants, their gateways, alarms and storage, and the fleet's firmware (platform administrator only). */
export function usePlatformOverview(enabled = true) {
  return useQuery({
    queryKey: platformKeys.overview(),
    queryFn: ({ signal }) => call(platformEndpoints.overview, {}, { signal }),
    enabled,
  });
}

export function useFirmwareFiles() {
  return useQuery({ queryKey: platformKeys.files(), queryFn: ({ signal }) => call(platformEndpoints.firmwareFiles, {}, { signal }) });
}

export function useRollouts() {
  return useQuery({ queryKey: platformKeys.rollouts(), queryFn: ({ signal }) => call(platformEndpoints.rollouts, {}, { signal }) });
}

/** One rollout with its gateways, while `id` is set. */
export function useRollout(id: string | undefined) {
  return useQuery({
    queryKey: platformKeys.rollout(id ?? ''),
    queryFn: ({ signal }) => call(platformEndpoints.rollout, { params: { id: id! } }, { signal }),
    enabled: id !== undefined,
  });
}

export const useStartRollout = () =>
  useRefreshingMutation((body: RolloutCreateBody) => call(platformEndpoints.startRollout, { body }), [platformKeys.all]);

/** Pause, resume or roll back a rollout. */
export function useRolloutAction() {
  const endpoints = {
    pause: platformEndpoints.pauseRollout,
    resume: platformEndpoints.resumeRollout,
    rollBack: platformEndpoints.rollBack,
  } as const;
  return useRefreshingMutation(
    ({ id, action }: { id: string; action: keyof typeof endpoints }) => call(endpoints[action], { params: { id }, body: {} }),
    [platformKeys.rollouts()],
  );
}
