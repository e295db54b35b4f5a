import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { AlertStatisticsBody, DeviceStateBody } from '@lumigrid/contract/browser';
import { alertEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { ALERTS_POLL_MS, alertKeys } from './api.ts';

/** The id projectStatus takes for the whole account. */
export const WHOLE_ACCOUNT = '0';

/** Keys of the statistics screen, under `alertKeys.all` so handling or deleting alerts refreshes them too. */
export const statisticsKeys = {
  statistics: (body: AlertStatisticsBody) => [...alertKeys.all, 'statistics', body] as const,
  deviceState: (body: DeviceStateBody) => [...alertKeys.all, 'deviceState', body] as const,
  projectStatus: (projectId: string) => [...alertKeys.all, 'projectStatus', projectId] as const,
  buildingStatus: (projectId: string, buildId: string) => [...alertKeys.all, 'buildingStatus', projectId, buildId] as const,
};

export const statisticsApi = {
  statistics: (body: AlertStatisticsBody, signal?: AbortSignal) => call(alertEndpoints.statistics, { body }, { signal }),
  deviceState: (body: DeviceStateBody, signal?: AbortSignal) => call(alertEndpoints.deviceState, { body }, { signal }),
  projectStatus: (projectId: string, signal?: AbortSignal) => call(alertEndpoints.projectStatus, { params: { id: projectId } }, { signal }),
  buildingStatus: (projectId: string, buildId: string, signal?: AbortSignal) =>
    call(alertEndpoints.buildingStatus, { params: { id: projectId, buildId } }, { signal }),
};

/** Fault statistics of a place over a time range; waits for a place (undefined). */
export const useAlertStatistics = (body: AlertStatisticsBody | undefined) =>
  useApiQuery(statisticsKeys.statistics, statisticsApi.statistics, body, {
    placeholderData: keepPreviousData,
    refetchInterval: ALERTS_POLL_MS,
  });

/** How the devices of a place stand now; waits for a place (undefined). */
export const useDeviceState = (body: DeviceStateBody | undefined) =>
  useApiQuery(statisticsKeys.deviceState, statisticsApi.deviceState, body, {
    placeholderData: keepPreviousData,
    refetchInterval: ALERTS_POLL_MS,
  });

/** A level the tree has just read on expanding is not read again as it starts being kept fresh. */
const TREE_STALE_MS = 5_000;

/** The account's projects (WHOLE_ACCOUNT) or a project's sub-projects and buildings, each counted. */
export const projectStatusQuery = (projectId: string) => ({
  queryKey: statisticsKeys.projectStatus(projectId),
  queryFn: ({ signal }: { signal: AbortSignal }) => statisticsApi.projectStatus(projectId, signal),
  staleTime: TREE_STALE_MS,
});

/** A building's maps, each counted. */
export const buildingStatusQuery = (projectId: string, buildId: string) => ({
  queryKey: statisticsKeys.buildingStatus(projectId, buildId),
  queryFn: ({ signal }: { signal: AbortSignal }) => statisticsApi.buildingStatus(projectId, buildId, signal),
  staleTime: TREE_STALE_MS,
});

/** The status of every project and building the place tree has opened, kept fresh as the counts change. */
export function useStatusTree(openedProjects: readonly string[], openedBuildings: ReadonlyArray<{ projectId: string; buildId: string }>) {
  const account = useQuery({ ...projectStatusQuery(WHOLE_ACCOUNT), refetchInterval: ALERTS_POLL_MS });
  const projects = useQueries({
    queries: openedProjects.map((id) => ({ ...projectStatusQuery(id), refetchInterval: ALERTS_POLL_MS })),
  });
  const buildings = useQueries({
    queries: openedBuildings.map(({ projectId, buildId }) => ({
      ...buildingStatusQuery(projectId, buildId),
      refetchInterval: ALERTS_POLL_MS,
    })),
  });
  return { account, projects, buildings };
}
