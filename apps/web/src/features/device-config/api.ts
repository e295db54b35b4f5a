import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BroadControlResult,
  Device,
  DeviceBatchTypeBody,
  DeviceBatchTypeResult,
  DeviceDeleteBody,
  DeviceDeleteResult,
  DeviceListBody,
  DevicePage,
  DeviceParamsBody,
  DeviceParamsRead,
  DeviceTypeRow,
  SensorOnOffBody,
} from '@lumigrid/contract';
import { api } from '../../api/client.ts';

const BASE = '/api4/device/v1';
const id = (value: string) => encodeURIComponent(value);

/** How often the list and status view refresh while shown (reports change the status). */
export const DEVICE_LIST_POLL_MS = 15_000;

/** One key factory for the device list, the detail and the type table; every change invalidates `all`. */
export const deviceConfigKeys = {
  all: ['device-config'] as const,
  list: (body: DeviceListBody) => [...deviceConfigKeys.all, 'list', body] as const,
  device: (deviceId: string) => [...deviceConfigKeys.all, 'device', deviceId] as const,
  types: () => [...deviceConfigKeys.all, 'types'] as const,
};

/** The plain calls; every path and answer is the contract's. */
export const deviceConfigApi = {
  list: (body: DeviceListBody, signal?: AbortSignal) => api.post<DevicePage>(`${BASE}/list`, body, { signal }),
  device: (deviceId: string, signal?: AbortSignal) => api.get<Device>(`${BASE}/input_status/${id(deviceId)}`, { signal }),
  types: (signal?: AbortSignal) => api.get<DeviceTypeRow[]>('/api4/type/v1/list', { signal }),
  readParams: (deviceId: string) => api.post<DeviceParamsRead>(`${BASE}/read_params`, { id: deviceId }),
  setParams: (body: DeviceParamsBody) => api.post<DeviceParamsRead>(`${BASE}/set_device_params`, body),
  sensorOnOff: (body: SensorOnOffBody) => api.post<null>(`${BASE}/control_sensor_onoff`, body),
  broadcast: (gatewayId: string, on: boolean) =>
    api.post<BroadControlResult>(`${BASE}/broad_control`, { gatewayId, action: { op: 'onOff', on } }),
  /** Silent: the deletion-failed answer (100205) leads to a confirmation, not a toast. */
  remove: (body: DeviceDeleteBody) => api.post<DeviceDeleteResult>(`${BASE}/delete`, body, { silent: true }),
  removeConfirmed: (gatewayId: string, deviceId: string) =>
    api.post<DeviceDeleteResult>(`${BASE}/del_device_succeed/${id(gatewayId)}/${id(deviceId)}`, {}),
  batchType: (body: DeviceBatchTypeBody) => api.post<DeviceBatchTypeResult>(`${BASE}/batch_alter_devices`, body),
  refreshNetwork: (deviceId: string) => api.post<Device>(`${BASE}/update_device_nwk`, { id: deviceId }),
};

export function useDeviceList(body: DeviceListBody) {
  return useQuery({
    queryKey: deviceConfigKeys.list(body),
    queryFn: ({ signal }) => deviceConfigApi.list(body, signal),
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_POLL_MS,
  });
}

export function useDevice(deviceId: string | undefined) {
  return useQuery({
    queryKey: deviceConfigKeys.device(deviceId ?? ''),
    queryFn: ({ signal }) => deviceConfigApi.device(deviceId ?? '', signal),
    enabled: Boolean(deviceId),
  });
}

/** The type code table changes only with a new server: fetched once. */
export function useDeviceTypes() {
  return useQuery({ queryKey: deviceConfigKeys.types(), queryFn: ({ signal }) => deviceConfigApi.types(signal), staleTime: Infinity });
}

function useInvalidating<A, R>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: deviceConfigKeys.all }) });
}

/** Reading talks to the device through the gateway, so it is a deliberate action, not a cached query. */
export const useReadParams = () => useMutation({ mutationFn: deviceConfigApi.readParams });
export const useSetParams = () => useMutation({ mutationFn: deviceConfigApi.setParams });
export const useSensorOnOff = () => useMutation({ mutationFn: deviceConfigApi.sensorOnOff });
export const useDeleteDevices = () => useInvalidating(deviceConfigApi.remove);
export const useConfirmDeletion = () =>
  useInvalidating((a: { gatewayId: string; deviceId: string }) => deviceConfigApi.removeConfirmed(a.gatewayId, a.deviceId));
export const useBatchType = () => useInvalidating(deviceConfigApi.batchType);
export const useRefreshNetwork = () => useInvalidating(deviceConfigApi.refreshNetwork);
