import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type {
  DeviceBatchTypeBody,
  DeviceDeleteBody,
  DeviceListBody,
  DeviceParamsBody,
  DeviceReportBody,
  DeviceStateBody,
  SensorOnOffBody,
} from '@lumigrid/contract/browser';
import { alertEndpoints, deviceEndpoints, libraryEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { downloadFile } from '../../api/download.ts';
import { deviceKeys } from '../devices/api.ts';

/** How often the list and status view refresh while shown (reports change the status). */
export const DEVICE_LIST_POLL_MS = 15_000;

/** One key factory for the device list, the detail and the type table; every change invalidates `all`. */
export const deviceConfigKeys = {
  all: [...deviceKeys.all, 'config'] as const,
  list: (body: DeviceListBody) => [...deviceConfigKeys.all, 'list', body] as const,
  status: (body: DeviceListBody) => [...deviceConfigKeys.all, 'status', body] as const,
  state: (body: DeviceStateBody) => [...deviceConfigKeys.all, 'state', body] as const,
  device: (deviceId: string) => [...deviceConfigKeys.all, 'device', deviceId] as const,
  types: () => [...deviceConfigKeys.all, 'types'] as const,
};

/** The plain calls; every path and answer is the contract's. */
export const deviceConfigApi = {
  list: (body: DeviceListBody, signal?: AbortSignal) => call(deviceEndpoints.list, { body }, { signal }),
  status: (body: DeviceListBody, signal?: AbortSignal) => call(alertEndpoints.deviceStatus, { body }, { signal }),
  state: (body: DeviceStateBody, signal?: AbortSignal) => call(alertEndpoints.deviceState, { body }, { signal }),
  /** Saves the status list as the server writes it (headers in the caller's language). */
  statusReport: (body: DeviceReportBody, fallbackName: string) => downloadFile(alertEndpoints.statusReport, { body }, fallbackName),
  device: (deviceId: string, signal?: AbortSignal) => call(deviceEndpoints.inputStatus, { params: { id: deviceId } }, { signal }),
  types: (signal?: AbortSignal) => call(libraryEndpoints.typeTable, {}, { signal }),
  readParams: (deviceId: string) => call(deviceEndpoints.readParams, { body: { id: deviceId } }),
  setParams: (body: DeviceParamsBody) => call(deviceEndpoints.setParams, { body }),
  sensorOnOff: (body: SensorOnOffBody) => call(deviceEndpoints.sensorOnOff, { body }),
  broadcast: (gatewayId: string, on: boolean) => call(deviceEndpoints.broadControl, { body: { gatewayId, action: { op: 'onOff', on } } }),
  /** Silent: the deletion-failed answer (100205) leads to a confirmation, not a toast. */
  remove: (body: DeviceDeleteBody) => call(deviceEndpoints.remove, { body }, { silent: true }),
  removeConfirmed: (gatewayId: string, deviceId: string) =>
    call(deviceEndpoints.removeConfirmed, { params: { gatewayId, id: deviceId }, body: {} }),
  batchType: (body: DeviceBatchTypeBody) => call(deviceEndpoints.batchType, { body }),
  refreshNetwork: (deviceId: string) => call(deviceEndpoints.refreshNetwork, { body: { id: deviceId } }),
};

export const useDeviceList = (body: DeviceListBody, enabled = true) =>
  useApiQuery(deviceConfigKeys.list, deviceConfigApi.list, enabled ? body : undefined, {
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_POLL_MS,
  });

/** The status view's page: the list's filters and answer, plus the fault filter. */
export const useDeviceStatusPage = (body: DeviceListBody, enabled: boolean) =>
  useApiQuery(deviceConfigKeys.status, deviceConfigApi.status, enabled ? body : undefined, {
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_POLL_MS,
  });

/** How the devices of a place stand now, read as often as the status view it heads. */
export const useDeviceState = (body: DeviceStateBody) =>
  useApiQuery(deviceConfigKeys.state, deviceConfigApi.state, body, {
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_POLL_MS,
  });

export const useDevice = (deviceId: string | undefined) =>
  useApiQuery(deviceConfigKeys.device, deviceConfigApi.device, deviceId || undefined);

/** The type code table changes only with a new server: fetched once. */
export function useDeviceTypes() {
  return useQuery({ queryKey: deviceConfigKeys.types(), queryFn: ({ signal }) => deviceConfigApi.types(signal), staleTime: Infinity });
}

const useInvalidating = <A, R>(fn: (arg: A) => Promise<R>) => useRefreshingMutation(fn, [deviceKeys.all]);

/** Reading talks to the device through the gateway, so it is a deliberate action, not a cached query. */
export const useReadParams = () => useMutation({ mutationFn: deviceConfigApi.readParams });
export const useSetParams = () => useMutation({ mutationFn: deviceConfigApi.setParams });
export const useSensorOnOff = () => useMutation({ mutationFn: deviceConfigApi.sensorOnOff });
export const useDeleteDevices = () => useInvalidating(deviceConfigApi.remove);
export const useConfirmDeletion = () =>
  useInvalidating((a: { gatewayId: string; deviceId: string }) => deviceConfigApi.removeConfirmed(a.gatewayId, a.deviceId));
export const useBatchType = () => useInvalidating(deviceConfigApi.batchType);
export const useRefreshNetwork = () => useInvalidating(deviceConfigApi.refreshNetwork);
