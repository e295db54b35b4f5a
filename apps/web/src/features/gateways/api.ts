import { useMemo } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type {
  FirmwareParams,
  Gateway,
  GatewayBindBody,
  GatewayListQuery,
  GatewayLonLatBody,
  GatewayMicrowaveBody,
  GatewayParamsBody,
  GatewayPlaceBody,
  GatewayPositionBody,
  GatewayRenameBody,
} from '@lumigrid/contract/browser';
import { gatewayEndpoints } from '@lumigrid/contract/browser';
import { call, type RequestOptions } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { projectKeys } from '../projects/api.ts';

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
  page: (query: GatewayListQuery, signal?: AbortSignal) => call(gatewayEndpoints.list, { query: { ...query } }, { signal }),
  detail: (gatewayId: string, signal?: AbortSignal, options: Silent = {}) =>
    call(gatewayEndpoints.detail, { params: { id: gatewayId } }, { signal, ...options }),
  lookup: (mac: string) => call(gatewayEndpoints.lookup, { body: { mac } }, { silent: true }),
  bind: (body: GatewayBindBody) => call(gatewayEndpoints.bind, { body }),
  rename: (body: GatewayRenameBody) => call(gatewayEndpoints.rename, { body }),
  changePlace: (body: GatewayPlaceBody) => call(gatewayEndpoints.changePlace, { body }),
  position: (body: GatewayPositionBody) => call(gatewayEndpoints.position, { body }),
  setParams: (body: GatewayParamsBody) => call(gatewayEndpoints.setParams, { body }),
  setLonLat: (body: GatewayLonLatBody) => call(gatewayEndpoints.setLonLat, { body }),
  identify: (gatewayId: string) => call(gatewayEndpoints.identify, { params: { id: gatewayId } }),
  restart: (gatewayId: string) => call(gatewayEndpoints.restart, { params: { id: gatewayId } }),
  readTime: (gatewayId: string) => call(gatewayEndpoints.readTime, { params: { id: gatewayId } }),
  syncTime: (gatewayId: string) => call(gatewayEndpoints.syncTime, { params: { id: gatewayId } }),
  reReport: (gatewayId: string) => call(gatewayEndpoints.reReport, { params: { id: gatewayId } }),
  refreshAll: (gatewayId: string) => call(gatewayEndpoints.refreshAll, { params: { id: gatewayId } }),
  /** Opens the gateway's networks for joining for `durationS` seconds (0 closes them). */
  broadcast: (gatewayId: string, durationS: number) => call(gatewayEndpoints.broadcast, { query: { id: gatewayId, durationS } }),
  /** Every sensor of the gateway acts on its own (sensor mode independent). */
  sensorSelfOperation: (gatewayId: string) => call(gatewayEndpoints.sensorsIndependent, { params: { id: gatewayId } }),
  /** Every sensor of the gateway drives the synced linkage (sensor mode linkage). */
  sensorLinkage: (gatewayId: string) => call(gatewayEndpoints.sensorsLinkage, { params: { id: gatewayId } }),
  setMicrowave: (body: GatewayMicrowaveBody) => call(gatewayEndpoints.setMicrowaveParams, { body }),
  checkImport: (gatewayId: string) => call(gatewayEndpoints.checkImport, { params: { id: gatewayId } }),
  importDevices: (gatewayId: string) => call(gatewayEndpoints.importDevices, { params: { id: gatewayId } }),
  outmap: (mapId: string, gatewayId: string, signal?: AbortSignal) =>
    call(gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId } }, { signal }),
  unbind: (gatewayId: string) => call(gatewayEndpoints.unbind, { params: { id: gatewayId } }),
  /** Bridges of a super gateway with bridgeId '0', or the devices behind one bridge. */
  superDevices: (gatewayId: string, bridgeId: string, signal?: AbortSignal) =>
    call(gatewayEndpoints.superGatewayDevices, { params: { id: gatewayId, bridgeId } }, { signal }),
  unbindBridge: (gatewayId: string, bridgeId: string) => call(gatewayEndpoints.unbindBridge, { params: { id: gatewayId, bridgeId } }),
  syncStatus: (signal?: AbortSignal) => call(gatewayEndpoints.syncStatus, {}, { signal, silent: true }),
  /** Answers when the gateway acknowledged (up to about 25 s); the caller shows the failure itself. */
  sync: (gatewayId: string) => call(gatewayEndpoints.sync, { params: { id: gatewayId } }, { silent: true }),
  checkVersion: ({ id: gatewayId, target }: FirmwareParams) => call(gatewayEndpoints.checkVersion, { params: { id: gatewayId, target } }),
  startUpdate: ({ id: gatewayId, target }: FirmwareParams) => call(gatewayEndpoints.startUpdate, { params: { id: gatewayId, target } }),
  updateProgress: (gatewayId: string, signal?: AbortSignal) =>
    call(gatewayEndpoints.updateProgress, { params: { id: gatewayId } }, { signal, silent: true }),
};

// ---- queries ----

/** The gateway list: searched, filtered and paged on the server. */
export const useGatewayPage = (query: GatewayListQuery) =>
  useApiQuery(gatewayKeys.page, gatewayApi.page, query, {
    placeholderData: keepPreviousData,
    // A gateway restarting or updating goes offline and comes back: follow it until it is idle again.
    // Otherwise presence arrives on the real-time topic; a slow look covers a missed message (reconnects).
    refetchInterval: (q) => (q.state.data?.list.some(busy) ? ACTIVITY_POLL_MS : LIST_POLL_MS),
  });

/** One gateway, kept fresh while something is under way (a restart, an update). */
/** Every gateway of the account in one page (the list's largest), for pickers and lookups. */
export const ALL_GATEWAYS: GatewayListQuery = { page: 1, pageSize: 200 };

/** The map each gateway is bound to, by gateway id: where its devices that are on no map wait to be placed. */
export function useGatewayMapNames(): ReadonlyMap<string, string> {
  const gateways = useGatewayPage(ALL_GATEWAYS);
  return useMemo(() => new Map((gateways.data?.list ?? []).map((g) => [g.id, g.mapName])), [gateways.data]);
}

export const useGatewayDetail = (gatewayId: string | undefined) =>
  useApiQuery(gatewayKeys.detail, gatewayApi.detail, gatewayId || undefined, {
    refetchInterval: (q) => (q.state.data && busy(q.state.data) ? ACTIVITY_POLL_MS : false),
  });

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
export const useFirmwareProgress = (gatewayId: string | undefined, pollMs: number | false) =>
  useApiQuery(gatewayKeys.firmware, gatewayApi.updateProgress, gatewayId || undefined, { refetchInterval: pollMs });

// ---- mutations: every one refreshes the whole gateways cache (list, detail, banner) ----

/** `movesSiteZone`: the call can change which zone most of a project's gateways keep, the site's zone in the tree. */
const useGatewayMutation = <TVars, TResult>(mutationFn: (vars: TVars) => Promise<TResult>, movesSiteZone = false) =>
  useRefreshingMutation(mutationFn, movesSiteZone ? [gatewayKeys.all, projectKeys.all] : [gatewayKeys.all]);

export const useBindGateway = () => useGatewayMutation(gatewayApi.bind, true);
export const useRenameGateway = () => useGatewayMutation(gatewayApi.rename);
export const useChangeGatewayPlace = () => useGatewayMutation(gatewayApi.changePlace, true);
export const useGatewayPosition = () => useGatewayMutation(gatewayApi.position);
export const useSetGatewayParams = () => useGatewayMutation(gatewayApi.setParams, true);
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
export const useUnbindGateway = () => useGatewayMutation(gatewayApi.unbind, true);
export const useUnbindBridge = () =>
  useGatewayMutation((vars: { gatewayId: string; bridgeId: string }) => gatewayApi.unbindBridge(vars.gatewayId, vars.bridgeId));
export const useSyncGateway = () => useGatewayMutation(gatewayApi.sync);
export const useCheckFirmware = () => useMutation({ mutationFn: gatewayApi.checkVersion });
export const useStartFirmwareUpdate = () => useGatewayMutation(gatewayApi.startUpdate);
