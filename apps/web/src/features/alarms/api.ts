import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  alarmEndpoints,
  type AlarmAckBody,
  type AlarmListBody,
  type AlarmSettings,
  type AlarmShelveBody,
  type AlarmUnshelveBody,
} from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';

/**
 * How often the banner and the list are read again without a notice: a shelving that ran out changes them
 * without any fault arriving, and a notice missed during a reconnect is made good.
 */
export const ALARMS_POLL_MS = 30_000;

/** One key factory for everything under alarms; every change invalidates `all`. */
export const alarmKeys = {
  all: ['alarms'] as const,
  summary: () => [...alarmKeys.all, 'summary'] as const,
  page: (body: AlarmListBody) => [...alarmKeys.all, 'page', body] as const,
  settings: (projectId: string) => [...alarmKeys.all, 'settings', projectId] as const,
};

/** The alarm calls (docs/alarms.md); paths and answers are the contract's. */
export const alarmApi = {
  summary: (signal?: AbortSignal) => call(alarmEndpoints.summary, {}, { signal }),
  page: (body: AlarmListBody, signal?: AbortSignal) => call(alarmEndpoints.page, { body }, { signal }),
  acknowledge: (body: AlarmAckBody) => call(alarmEndpoints.acknowledge, { body }),
  shelve: (body: AlarmShelveBody) => call(alarmEndpoints.shelve, { body }),
  unshelve: (body: AlarmUnshelveBody) => call(alarmEndpoints.unshelve, { body }),
  settings: (projectId: string, signal?: AbortSignal) => call(alarmEndpoints.settings, { query: { projectId } }, { signal }),
  saveSettings: (body: AlarmSettings) => call(alarmEndpoints.saveSettings, { body }),
};

export function useAlarmSummary() {
  return useQuery({
    queryKey: alarmKeys.summary(),
    queryFn: ({ signal }) => alarmApi.summary(signal),
    refetchInterval: ALARMS_POLL_MS,
  });
}

export const useAlarmPage = (body: AlarmListBody | undefined) =>
  useApiQuery(alarmKeys.page, alarmApi.page, body?.projectId ? body : undefined, {
    placeholderData: keepPreviousData,
    refetchInterval: ALARMS_POLL_MS,
  });

export const useAlarmSettings = (projectId: string | undefined) =>
  useApiQuery(alarmKeys.settings, alarmApi.settings, projectId || undefined);

const useAlarmChange = <A, R>(mutationFn: (arg: A) => Promise<R>) => useRefreshingMutation(mutationFn, [alarmKeys.all]);

export const useAcknowledgeAlarms = () => useAlarmChange(alarmApi.acknowledge);
export const useShelveAlarms = () => useAlarmChange(alarmApi.shelve);
export const useUnshelveAlarms = () => useAlarmChange(alarmApi.unshelve);
export const useSaveAlarmSettings = () => useAlarmChange(alarmApi.saveSettings);
