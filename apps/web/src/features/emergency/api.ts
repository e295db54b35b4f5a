import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  emergencyEndpoints,
  type ComplianceListBody,
  type EmergencyDeviceRecordsBody,
  type EmergencyMap,
  type EmergencyReportBody,
  type EmergencyRunListBody,
  type EmergencyTaskAction,
  type EmergencyTaskDetail,
  type EmergencyTaskListBody,
  type EmergencyTaskSaveBody,
  type EmergencyTopicMessage,
  type LogBookAcknowledgeBody,
  type LogBookListBody,
  type LogBookRepairBody,
  type LogBookReportBody,
} from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { downloadFile } from '../../api/download.ts';

/**
 * How often lists with a run under way are read again. Lights report on the map's topic; the task list spans
 * maps, so it follows runs by reading itself again while one is running.
 */
export const EMERGENCY_RUNNING_POLL_MS = 3_000;

/** One key factory for the emergency screens; every change invalidates `all`. */
export const emergencyKeys = {
  all: ['emergency'] as const,
  tasks: (body: EmergencyTaskListBody) => [...emergencyKeys.all, 'tasks', body] as const,
  task: (id: string, runId: string) => [...emergencyKeys.all, 'task', id, runId] as const,
  tree: (projectId: string, taskId: string) => [...emergencyKeys.all, 'tree', projectId, taskId] as const,
  map: (mapId: string) => [...emergencyKeys.all, 'map', mapId] as const,
  runs: (body: EmergencyRunListBody) => [...emergencyKeys.all, 'runs', body] as const,
  run: (runId: string, page: number, pageSize: number) => [...emergencyKeys.all, 'run', runId, page, pageSize] as const,
  deviceRecords: (body: EmergencyDeviceRecordsBody) => [...emergencyKeys.all, 'device', body] as const,
  logBook: (body: LogBookListBody) => [...emergencyKeys.all, 'logBook', body] as const,
  compliance: (body: ComplianceListBody) => [...emergencyKeys.all, 'compliance', body] as const,
};

/** The emergency calls of spec section 7 "Emergency" and the log book and compliance calls; the contract's paths and answers. */
export const emergencyApi = {
  tasks: (body: EmergencyTaskListBody, signal?: AbortSignal) => call(emergencyEndpoints.tasks, { body }, { signal }),
  save: (body: EmergencyTaskSaveBody) => call(emergencyEndpoints.save, { body }),
  execute: ({ id, action }: { id: string; action: EmergencyTaskAction }) => call(emergencyEndpoints.execute, { params: { id, action } }),
  task: (id: string, runId: string, signal?: AbortSignal) => call(emergencyEndpoints.get, { params: { id, runId } }, { signal }),
  tree: (projectId: string, taskId: string, signal?: AbortSignal) =>
    call(emergencyEndpoints.tree, { params: { projectId, taskId } }, { signal }),
  map: (mapId: string, signal?: AbortSignal) => call(emergencyEndpoints.mapState, { params: { id: mapId } }, { signal }),
  runs: (body: EmergencyRunListBody, signal?: AbortSignal) => call(emergencyEndpoints.runs, { body }, { signal }),
  runDetails: (runId: string, page: number, pageSize: number, signal?: AbortSignal) =>
    call(emergencyEndpoints.runDetails, { body: { runId, page, pageSize } }, { signal }),
  deviceRecords: (body: EmergencyDeviceRecordsBody, signal?: AbortSignal) => call(emergencyEndpoints.deviceRecords, { body }, { signal }),
  logBook: (body: LogBookListBody, signal?: AbortSignal) => call(emergencyEndpoints.logBook, { body }, { signal }),
  compliance: (body: ComplianceListBody, signal?: AbortSignal) => call(emergencyEndpoints.compliance, { body }, { signal }),
  acknowledge: (body: LogBookAcknowledgeBody) => call(emergencyEndpoints.acknowledge, { body }),
  repair: (body: LogBookRepairBody) => call(emergencyEndpoints.repair, { body }),
  /** The test records workbook (headers in the caller's language). */
  report: (body: EmergencyReportBody, fallbackName: string) => downloadFile(emergencyEndpoints.report, { body }, fallbackName),
  logBookPdf: (body: LogBookReportBody, fallbackName: string) => downloadFile(emergencyEndpoints.logBookPdf, { body }, fallbackName),
  logBookExcel: (body: LogBookReportBody, fallbackName: string) => downloadFile(emergencyEndpoints.logBookExcel, { body }, fallbackName),
};

/** The task table; read again every few seconds while a task runs, so progress moves. */
export const useEmergencyTasks = (body: EmergencyTaskListBody | undefined) =>
  useApiQuery(emergencyKeys.tasks, emergencyApi.tasks, body?.projectId ? body : undefined, {
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((task) => task.status === 'running') ? EMERGENCY_RUNNING_POLL_MS : false),
  });

/** A task with its lights in a run ('0': the current or last). */
export function useEmergencyTask(id: string | undefined, runId = '0') {
  return useQuery({
    queryKey: emergencyKeys.task(id ?? '', runId),
    queryFn: ({ signal }) => emergencyApi.task(id!, runId, signal),
    enabled: Boolean(id),
    // The map's topic moves the lights; this catches what a missed message would leave behind (waves, the end).
    refetchInterval: (query) => (query.state.data?.run?.state === 'running' ? EMERGENCY_RUNNING_POLL_MS : false),
  });
}

/** The project > building > map > gateway > light tree of the task form. */
export function useEmergencyTree(projectId: string | undefined, taskId: string) {
  return useQuery({
    queryKey: emergencyKeys.tree(projectId ?? '', taskId),
    queryFn: ({ signal }) => emergencyApi.tree(projectId!, taskId, signal),
    enabled: Boolean(projectId),
  });
}

export const useEmergencyMap = (mapId: string | undefined) => useApiQuery(emergencyKeys.map, emergencyApi.map, mapId || undefined);

export const useEmergencyRuns = (body: EmergencyRunListBody | undefined) =>
  useApiQuery(emergencyKeys.runs, emergencyApi.runs, body, {
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((run) => run.state === 'running') ? EMERGENCY_RUNNING_POLL_MS : false),
  });

export function useEmergencyRunDetails(runId: string | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: emergencyKeys.run(runId ?? '', page, pageSize),
    queryFn: ({ signal }) => emergencyApi.runDetails(runId!, page, pageSize, signal),
    enabled: Boolean(runId),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((record) => record.passed === null) ? EMERGENCY_RUNNING_POLL_MS : false),
  });
}

export const useEmergencyDeviceRecords = (body: EmergencyDeviceRecordsBody | undefined) =>
  useApiQuery(emergencyKeys.deviceRecords, emergencyApi.deviceRecords, body, { placeholderData: keepPreviousData });

export const useLogBook = (body: LogBookListBody | undefined) =>
  useApiQuery(emergencyKeys.logBook, emergencyApi.logBook, body, { placeholderData: keepPreviousData });

export const useCompliance = (body: ComplianceListBody | undefined) =>
  useApiQuery(emergencyKeys.compliance, emergencyApi.compliance, body, { placeholderData: keepPreviousData });

const useEmergencyChange = <A, R>(mutationFn: (arg: A) => Promise<R>) => useRefreshingMutation(mutationFn, [emergencyKeys.all]);

export const useSaveEmergencyTask = () => useEmergencyChange(emergencyApi.save);
export const useExecuteEmergencyTask = () => useEmergencyChange(emergencyApi.execute);
export const useAcknowledgeFailure = () => useEmergencyChange(emergencyApi.acknowledge);
export const useRecordRepair = () => useEmergencyChange(emergencyApi.repair);

/**
 * Applies one message of `/topic/emergency/{mapId}` to what the screens hold: a `light` moves its marker on the
 * map and its row in every cached task detail; a `run` replaces the run in the task details it belongs to and
 * has the task lists read again (status, progress and result live there).
 */
export function applyEmergencyMessage(client: QueryClient, mapId: string, payload: unknown): void {
  const message = payload as EmergencyTopicMessage | undefined;
  if (!message || typeof message !== 'object') return;
  if (message.kind === 'light') {
    client.setQueryData<EmergencyMap>(emergencyKeys.map(mapId), (map) =>
      map
        ? {
            ...map,
            lights: map.lights.map((light) =>
              light.deviceId === message.deviceId
                ? {
                    ...light,
                    state: message.state,
                    category: message.category,
                    battery: message.battery ?? light.battery,
                    online: message.online,
                  }
                : light,
            ),
          }
        : map,
    );
    client.setQueriesData<EmergencyTaskDetail>({ queryKey: [...emergencyKeys.all, 'task'] }, (detail) => {
      if (!detail || !detail.devices.some((d) => d.deviceId === message.deviceId)) return detail;
      const inThisRun = message.runId !== null && message.runId === detail.run?.id;
      return {
        ...detail,
        devices: detail.devices.map((device) =>
          device.deviceId === message.deviceId
            ? {
                ...device,
                state: message.state,
                battery: message.battery ?? device.battery,
                online: message.online,
                ...(inThisRun ? { progress: message.progress ?? device.progress, result: message.result ?? device.result } : {}),
              }
            : device,
        ),
      };
    });
    return;
  }
  if (message.kind === 'run') {
    const run = message.run;
    client.setQueriesData<EmergencyTaskDetail>({ queryKey: [...emergencyKeys.all, 'task'] }, (detail) =>
      detail && detail.task.id === run.taskId && (!detail.run || detail.run.id === run.id || run.state === 'running')
        ? { ...detail, run }
        : detail,
    );
    // A run that started or ended changes the task's status and its lights' results: read them again.
    if (run.state !== 'running' || run.progress === 0) void client.invalidateQueries({ queryKey: [...emergencyKeys.all, 'task'] });
    if (run.state !== 'running') void refreshLastTests(client, mapId);
    void client.invalidateQueries({ queryKey: [...emergencyKeys.all, 'tasks'] });
    void client.invalidateQueries({ queryKey: [...emergencyKeys.all, 'runs'] });
  }
}

/**
 * An ended run gives the map's lights new last tests and overdue flags. Only those are taken from a fresh read: the
 * live state stays as the topic last gave it, since the stored state follows device reports and may still say
 * "testing" until the gateway's next report.
 */
async function refreshLastTests(client: QueryClient, mapId: string): Promise<void> {
  if (!client.getQueryData(emergencyKeys.map(mapId))) return;
  const fresh = await emergencyApi.map(mapId).catch(() => undefined);
  if (!fresh) return;
  const byId = new Map(fresh.lights.map((light) => [light.deviceId, light]));
  client.setQueryData<EmergencyMap>(emergencyKeys.map(mapId), (map) =>
    map
      ? {
          ...map,
          lights: map.lights.map((light) => {
            const now = byId.get(light.deviceId);
            return now
              ? {
                  ...light,
                  lastFunctionTest: now.lastFunctionTest,
                  lastLifeTest: now.lastLifeTest,
                  functionOverdue: now.functionOverdue,
                  lifeOverdue: now.lifeOverdue,
                }
              : light;
          }),
        }
      : map,
  );
}
