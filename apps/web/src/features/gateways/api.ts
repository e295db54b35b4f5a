import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FirmwareCheck,
  FirmwareParams,
  FirmwareProgressView,
  Gateway,
  GatewayBindBody,
  GatewayBroadcast,
  GatewayDeviceList,
  GatewayListQuery,
  GatewayLonLatBody,
  GatewayLookup,
  GatewayMicrowaveBody,
  GatewayMicrowaveResult,
  GatewayPage,
  GatewayParamsBody,
  GatewayPlaceBody,
  GatewayRenameBody,
  GatewaySensorMode,
  GatewaySyncList,
  GatewaySyncResult,
  GatewayTime,
  ImportCheck,
  ImportResult,
  ReReport,
  SuperGatewayDevices,
} from '@lumigrid/contract';
import { api, type RequestOptions } from '../../api/client.ts';

const BASE = '/api4/gateway/v1';
const id = (value: string) => encodeURIComponent(value);

/** How often the header banner asks for the gateways not synced (a change elsewhere shows within this). */
export const SYNC_STATUS_POLL_MS = 30_000;
/** How often a running firmware update is polled. */
export const FIRMWARE_POLL_MS = 2_000;

/** How often the gateway list is refreshed while it is shown; changes arrive on /topic/gateway_status before that. */
export const LIST_POLL_MS = 60_000;
/** How often the banner's details table is refreshed while open (rows leave as gateways acknowledge). */
export const SYNC_DETAILS_POLL_MS = 3_000;
/** How often a gateway that is restarting or updating is looked at again. */
export const ACTIVITY_POLL_MS = 2_000;

const busy = (gateway: Pick<Gateway, 'activity'>) => gateway.activity !== 'idle';

/** One key factory for everything under gateways; every change invalidates `all`. */
export const gatewayKeys = {
  all: ['gateways'] as const,
  page: (query: GatewayListQuery) => [...gatewayKeys.all, 'page', query] as const,
  detail: (gatewayId: string) => [...gatewayKeys.all, 'detail', gatewayId] as const,
  syncStatus: () => [...gatewayKeys.all, 'syncStatus'] as const,
  bridges: (gatewayId: string, bridgeId: string) => [...gatewayKeys.all, 'bridges', gatewayId, bridgeId] as const,
  outmap: (mapId: string, gatewayId: string) => [...gatewayKeys.all, 'outmap', mapId, gatewayId] as const,
  firmware: (gatewayId: string) => [...gatewayKeys.all, 'firmware', gatewayId] as const,
};

type Silent = Pick<RequestOptions, 'silent'>;

// ---- plain calls (the hooks below wrap them); every path and answer is the contract's ----

export const gatewayApi = {
  page: (query: GatewayListQuery, signal?: AbortSignal) => api.get<GatewayPage>(`${BASE}/gateways`, { query: { ...query }, signal }),
  detail: (gatewayId: string, signal?: AbortSignal, options: Silent = {}) =>
    api.get<Gateway>(`${BASE}/detail/${id(gatewayId)}`, { signal, ...options }),
  lookup: (mac: string) => api.post<GatewayLookup>(`${BASE}/search_device_for_mac`, { mac }, { silent: true }),
  bind: (body: GatewayBindBody) => api.post<Gateway>(`${BASE}/move`, body),
  rename: (body: GatewayRenameBody) => api.post<Gateway>(`${BASE}/update_name`, body),
  changePlace: (body: GatewayPlaceBody) => api.post<Gateway>(`${BASE}/change_place`, body),
  setParams: (body: GatewayParamsBody) => api.post<Gateway>(`${BASE}/set_params`, body),
  setLonLat: (body: GatewayLonLatBody) => api.post<Gateway>(`${BASE}/set_lon_lat`, body),
  identify: (gatewayId: string) => api.get<null>(`${BASE}/tryme/${id(gatewayId)}`),
  restart: (gatewayId: string) => api.get<null>(`${BASE}/restart_gateway/${id(gatewayId)}`),
  readTime: (gatewayId: string) => api.get<GatewayTime>(`${BASE}/read_gateway_time/${id(gatewayId)}`),
  syncTime: (gatewayId: string) => api.get<GatewayTime>(`${BASE}/sync_gateway_systemtime/${id(gatewayId)}`),
  reReport: (gatewayId: string) => api.get<ReReport>(`${BASE}/re_report/${id(gatewayId)}`),
  refreshAll: (gatewayId: string) => api.get<Gateway>(`${BASE}/refresh_all/${id(gatewayId)}`),
  /** Opens the gateway's networks for joining for `durationS` seconds (0 closes them). */
  broadcast: (gatewayId: string, durationS: number) =>
    api.get<GatewayBroadcast>(`${BASE}/broadcast`, { query: { id: gatewayId, durationS } }),
  /** Every sensor of the gateway acts on its own (sensor mode independent). */
  sensorSelfOperation: (gatewayId: string) => api.get<GatewaySensorMode>(`${BASE}/sensor_self_oper/${id(gatewayId)}`),
  /** Every sensor of the gateway drives the synced linkage (sensor mode linkage). */
  sensorLinkage: (gatewayId: string) => api.get<GatewaySensorMode>(`${BASE}/sensor_sync_model/${id(gatewayId)}`),
  setMicrowave: (body: GatewayMicrowaveBody) => api.post<GatewayMicrowaveResult>(`${BASE}/set_mawa_params`, body),
  checkImport: (gatewayId: string) => api.get<ImportCheck>(`${BASE}/check/import/${id(gatewayId)}`),
  importDevices: (gatewayId: string) => api.get<ImportResult>(`${BASE}/import/${id(gatewayId)}`),
  outmap: (mapId: string, gatewayId: string, signal?: AbortSignal) =>
    api.get<GatewayDeviceList>(`${BASE}/devices/outmap/${id(mapId)}/${id(gatewayId)}`, { signal }),
  unbind: (gatewayId: string) => api.get<null>(`${BASE}/delete/${id(gatewayId)}`),
  /** Bridges of a super gateway with bridgeId '0', or the devices behind one bridge. */
  superDevices: (gatewayId: string, bridgeId: string, signal?: AbortSignal) =>
    api.get<SuperGatewayDevices>(`${BASE}/super_gateway_devices/${id(gatewayId)}/${id(bridgeId)}`, { signal }),
  unbindBridge: (gatewayId: string, bridgeId: string) => api.get<null>(`${BASE}/delete_bridge/${id(gatewayId)}/${id(bridgeId)}`),
  syncStatus: (signal?: AbortSignal) => api.get<GatewaySyncList>(`${BASE}/sync_status`, { signal, silent: true }),
  /** Answers when the gateway acknowledged (up to about 25 s); the caller shows the failure itself. */
  sync: (gatewayId: string) => api.get<GatewaySyncResult>(`${BASE}/sync/${id(gatewayId)}`, { silent: true }),
  checkVersion: ({ id: gatewayId, target }: FirmwareParams) =>
    api.get<FirmwareCheck>(`${BASE}/check_gateway_version/${id(gatewayId)}/${target}`),
  startUpdate: ({ id: gatewayId, target }: FirmwareParams) =>
    api.get<FirmwareProgressView>(`${BASE}/post_gateway_update/${id(gatewayId)}/${target}`),
  updateProgress: (gatewayId: string, signal?: AbortSignal) =>
    api.get<FirmwareProgressView>(`${BASE}/gateway_upgrade_progress/${id(gatewayId)}`, { signal, silent: true }),
};

// ---- queries ----

/** The gateway list: searched, filtered and paged on the server. */
export function useGatewayPage(query: GatewayListQuery) {
  return useQuery({
    queryKey: gatewayKeys.page(query),
    queryFn: ({ signal }) => gatewayApi.page(query, signal),
    placeholderData: keepPreviousData,
    // A gateway restarting or updating goes offline and comes back: follow it until it is idle again.
    // Otherwise presence arrives on the real-time topic; a slow look covers a missed message (reconnects).
    refetchInterval: (q) => (q.state.data?.list.some(busy) ? ACTIVITY_POLL_MS : LIST_POLL_MS),
  });
}

/** One gateway, kept fresh while something is under way (a restart, an update). */
export function useGatewayDetail(gatewayId: string | undefined) {
  return useQuery({
    queryKey: gatewayKeys.detail(gatewayId ?? ''),
    queryFn: ({ signal }) => gatewayApi.detail(gatewayId ?? '', signal),
    enabled: Boolean(gatewayId),
    refetchInterval: (q) => (q.state.data && busy(q.state.data) ? ACTIVITY_POLL_MS : false),
  });
}

/** The gateways not synced, for the header banner: polled, and refreshed after every gateway change. */
export function useSyncStatus(pollMs: number | false = SYNC_STATUS_POLL_MS) {
  return useQuery({
    queryKey: gatewayKeys.syncStatus(),
    queryFn: ({ signal }) => gatewayApi.syncStatus(signal),
    refetchInterval: pollMs,
  });
}

export function useSuperGatewayDevices(gatewayId: string | undefined, bridgeId = '0') {
  return useQuery({
    queryKey: gatewayKeys.bridges(gatewayId ?? '', bridgeId),
    queryFn: ({ signal }) => gatewayApi.superDevices(gatewayId ?? '', bridgeId, signal),
    enabled: Boolean(gatewayId),
  });
}

export function useOutmapDevices(mapId: string | undefined, gatewayId: string | undefined) {
  return useQuery({
    queryKey: gatewayKeys.outmap(mapId ?? '', gatewayId ?? ''),
    queryFn: ({ signal }) => gatewayApi.outmap(mapId ?? '', gatewayId ?? '', signal),
    enabled: Boolean(mapId && gatewayId),
  });
}

/** Firmware progress of a gateway, polled while `pollMs` is set. */
export function useFirmwareProgress(gatewayId: string | undefined, pollMs: number | false) {
  return useQuery({
    queryKey: gatewayKeys.firmware(gatewayId ?? ''),
    queryFn: ({ signal }) => gatewayApi.updateProgress(gatewayId ?? '', signal),
    enabled: Boolean(gatewayId),
    refetchInterval: pollMs,
  });
}

// ---- mutations: every one refreshes the whole gateways cache (list, detail, banner) ----

function useGatewayMutation<TVars, TResult>(mutationFn: (vars: TVars) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => client.invalidateQueries({ queryKey: gatewayKeys.all }),
  });
}

export const useBindGateway = () => useGatewayMutation(gatewayApi.bind);
export const useRenameGateway = () => useGatewayMutation(gatewayApi.rename);
export const useChangeGatewayPlace = () => useGatewayMutation(gatewayApi.changePlace);
export const useSetGatewayParams = () => useGatewayMutation(gatewayApi.setParams);
export const useSetGatewayLonLat = () => useGatewayMutation(gatewayApi.setLonLat);
export const useIdentifyGateway = () => useGatewayMutation(gatewayApi.identify);
export const useRestartGateway = () => useGatewayMutation(gatewayApi.restart);
export const useReadGatewayTime = () => useMutation({ mutationFn: gatewayApi.readTime });
export const useSyncGatewayTime = () => useGatewayMutation(gatewayApi.syncTime);
export const useReReport = () => useGatewayMutation(gatewayApi.reReport);
export const useRefreshGateway = () => useGatewayMutation(gatewayApi.refreshAll);
export const useOpenNetwork = () =>
  useGatewayMutation((vars: { gatewayId: string; durationS: number }) => gatewayApi.broadcast(vars.gatewayId, vars.durationS));
export const useSensorMode = () =>
  useGatewayMutation((vars: { gatewayId: string; mode: 'independent' | 'linkage' }) =>
    vars.mode === 'independent' ? gatewayApi.sensorSelfOperation(vars.gatewayId) : gatewayApi.sensorLinkage(vars.gatewayId),
  );
export const useSetMicrowave = () => useGatewayMutation(gatewayApi.setMicrowave);
export const useCheckImport = () => useMutation({ mutationFn: gatewayApi.checkImport });
export const useImportDevices = () => useGatewayMutation(gatewayApi.importDevices);
export const useUnbindGateway = () => useGatewayMutation(gatewayApi.unbind);
export const useUnbindBridge = () =>
  useGatewayMutation((vars: { gatewayId: string; bridgeId: string }) => gatewayApi.unbindBridge(vars.gatewayId, vars.bridgeId));
export const useSyncGateway = () => useGatewayMutation(gatewayApi.sync);
export const useCheckFirmware = () => useMutation({ mutationFn: gatewayApi.checkVersion });
export const useStartFirmwareUpdate = () => useGatewayMutation(gatewayApi.startUpdate);
