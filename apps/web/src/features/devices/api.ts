import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ControlAction,
  ControlManyRequest,
  DeviceMarker,
  DeviceMoveInBody,
  DevicePositionsBody,
  DeviceRenameBody,
  MapRemovedMessage,
  MapStoredMessage,
} from '@lumigrid/contract/browser';
import { deviceEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { gatewayApi, gatewayKeys, LIST_POLL_MS } from '../gateways/api.ts';

/** One key factory for the floor plan's device reads. */
/**
 * The one key root of the device resource: the plan's markers and panels and the list and configuration
 * screens all hang below it, so a change made on one screen leaves no other stale.
 */
export const deviceKeys = { all: ['devices'] as const };

export const deviceMapKeys = {
  all: [...deviceKeys.all, 'map'] as const,
  markers: (mapId: string) => [...deviceMapKeys.all, 'markers', mapId] as const,
  detail: (mapId: string, deviceId: string) => [...deviceMapKeys.all, 'detail', mapId, deviceId] as const,
};

// ---- plain calls; every path and answer is the contract's ----

export const deviceMapApi = {
  markers: (mapId: string, signal?: AbortSignal) => call(deviceEndpoints.markers, { query: { mapId } }, { signal }),
  detail: (mapId: string, deviceId: string, signal?: AbortSignal) =>
    call(deviceEndpoints.detail, { params: { mapId, id: deviceId } }, { signal }),
  /** Silent: the panel says what went wrong next to the control that failed. */
  control: (deviceId: string, action: ControlAction) => call(deviceEndpoints.control, { body: { id: deviceId, action } }, { silent: true }),
  identify: (deviceId: string) => call(deviceEndpoints.identify, { body: { id: deviceId } }, { silent: true }),
  rename: (body: DeviceRenameBody) => call(deviceEndpoints.rename, { body }),
  moveIn: (body: DeviceMoveInBody) => call(deviceEndpoints.moveIn, { body }),
  positions: (body: DevicePositionsBody) => call(deviceEndpoints.positions, { body }),
  moveOut: (ids: string[]) => call(deviceEndpoints.moveOut, { body: { ids } }),
  /** A plan selection: the server sends one command per gateway and says how each gateway took it. */
  controlMany: (body: ControlManyRequest) => call(deviceEndpoints.controlMany, { body }),
  panelLockAccounts: (deviceId: string) => call(deviceEndpoints.panelLockAccounts, { body: { id: deviceId } }),
};

/**
 * What one page heard on a map's topic: the devices whose markers reached it, and for each read of the markers on
 * its way, the markers (null: gone) heard meanwhile. The database may answer a read before a report it published
 * is written (a marker goes out first), so what was heard meanwhile is laid over the answer, or the read would
 * undo a marker already shown.
 */
interface MapHeard {
  markers: Set<string>;
  duringReads: Set<Map<string, DeviceMarker | null>>;
}
const heardByClient = new WeakMap<QueryClient, Map<string, MapHeard>>();

function heardOn(client: QueryClient, mapId: string): MapHeard {
  let maps = heardByClient.get(client);
  if (!maps) heardByClient.set(client, (maps = new Map()));
  let heard = maps.get(mapId);
  if (!heard) maps.set(mapId, (heard = { markers: new Set(), duringReads: new Set() }));
  return heard;
}

const isPlaced = (marker: DeviceMarker | null | undefined): marker is DeviceMarker => !!marker && marker.x !== null && marker.y !== null;

/** Reads a map's markers, with what its topic said while the read was on its way laid over the answer. */
export async function readMarkers(client: QueryClient, mapId: string, signal?: AbortSignal): Promise<DeviceMarker[]> {
  const meanwhile = new Map<string, DeviceMarker | null>();
  const { duringReads } = heardOn(client, mapId);
  duringReads.add(meanwhile);
  try {
    const read = await deviceMapApi.markers(mapId, signal);
    const answered = new Set(read.map((m) => m.id));
    const kept = read.flatMap((m) => {
      if (!meanwhile.has(m.id)) return [m];
      const heard = meanwhile.get(m.id);
      return isPlaced(heard) ? [heard] : [];
    });
    for (const [id, heard] of meanwhile) if (!answered.has(id) && isPlaced(heard)) kept.push(heard);
    return kept;
  } finally {
    duringReads.delete(meanwhile);
  }
}

/** The markers of a map. Changes arrive on the map's real-time topic (applyMapMessage), so there is no polling. */
export function useMapMarkers(mapId: string | undefined) {
  const client = useQueryClient();
  return useQuery({
    queryKey: deviceMapKeys.markers(mapId ?? ''),
    queryFn: ({ signal }) => readMarkers(client, mapId ?? '', signal),
    enabled: Boolean(mapId),
    staleTime: 30_000,
  });
}

/**
 * The gateways bound to a map, drawn on its plan and heading its outmap lists; presence has no topic of its
 * own, so the list is looked at again as the gateway list does. Nothing is asked before a map is chosen.
 */
export function useMapGateways(mapId: string | undefined) {
  const query = { mapId: mapId ?? '', pageSize: 200 };
  return useQuery({
    queryKey: gatewayKeys.page(query),
    queryFn: ({ signal }) => gatewayApi.page(query, signal),
    enabled: Boolean(mapId),
    refetchInterval: LIST_POLL_MS,
  });
}

export function useDeviceDetail(mapId: string | undefined, deviceId: string | undefined) {
  return useQuery({
    queryKey: deviceMapKeys.detail(mapId ?? '', deviceId ?? ''),
    queryFn: ({ signal }) => deviceMapApi.detail(mapId ?? '', deviceId ?? '', signal),
    enabled: Boolean(mapId && deviceId),
    // Telemetry arrives on its own schedule, not with the state reports the map topic carries.
    refetchInterval: LIST_POLL_MS,
  });
}

/**
 * A marker published on /topic/map/{mapId}: it replaces the one with its id (or joins the map), and a marker
 * without a position leaves the map. The device's detail is read again, since its state changed.
 */
export function applyMarker(client: QueryClient, mapId: string, marker: DeviceMarker): void {
  const heard = heardOn(client, mapId);
  heard.markers.add(marker.id);
  for (const meanwhile of heard.duringReads) meanwhile.set(marker.id, marker);
  client.setQueryData<DeviceMarker[]>(deviceMapKeys.markers(mapId), (old) => {
    if (!old) return old;
    const rest = old.filter((m) => m.id !== marker.id);
    if (marker.x === null || marker.y === null) return rest;
    const index = old.findIndex((m) => m.id === marker.id);
    if (index < 0) return [...old, marker];
    const next = old.slice();
    next[index] = marker;
    return next;
  });
  void client.invalidateQueries({ queryKey: deviceMapKeys.detail(mapId, marker.id) });
}

/** Whether a real-time payload is a marker (the topic carries nothing else, but the socket is untyped). */
export function isMarker(payload: unknown): payload is DeviceMarker {
  if (!payload || typeof payload !== 'object') return false;
  const p = payload as Record<string, unknown>;
  return typeof p.id === 'string' && typeof p.type === 'number' && typeof p.status === 'string' && typeof p.display === 'string';
}

/** Whether a real-time payload says devices left the map ({removed: [ids]}). */
export function isRemoved(payload: unknown): payload is MapRemovedMessage {
  if (!payload || typeof payload !== 'object') return false;
  const removed = (payload as Record<string, unknown>).removed;
  return Array.isArray(removed) && removed.every((id) => typeof id === 'string');
}

/** Devices that left the map (moved out, moved to another map, deleted): their markers go. */
export function applyRemoved(client: QueryClient, mapId: string, message: MapRemovedMessage): void {
  const gone = new Set(message.removed);
  for (const meanwhile of heardOn(client, mapId).duringReads) for (const id of gone) meanwhile.set(id, null);
  client.setQueryData<DeviceMarker[]>(deviceMapKeys.markers(mapId), (old) => (old ? old.filter((m) => !gone.has(m.id)) : old));
  // The outmap lists may have gained them.
  void client.invalidateQueries({ queryKey: gatewayKeys.all });
}

/** Whether a real-time payload says devices' reported states are stored ({stored: [ids]}). */
export function isStored(payload: unknown): payload is MapStoredMessage {
  if (!payload || typeof payload !== 'object') return false;
  const stored = (payload as Record<string, unknown>).stored;
  return Array.isArray(stored) && stored.every((id) => typeof id === 'string');
}

/**
 * Devices' reports are stored. A device whose marker this page never heard was reported before the page
 * subscribed, and a read made before the report was written missed it: the markers are read again.
 */
export function applyStored(client: QueryClient, mapId: string, message: MapStoredMessage): void {
  const heard = heardOn(client, mapId);
  const unheard = message.stored.filter((id) => !heard.markers.has(id));
  if (unheard.length === 0) return;
  for (const id of unheard) heard.markers.add(id);
  void client.invalidateQueries({ queryKey: deviceMapKeys.markers(mapId) });
}

/**
 * Everything /topic/map/{mapId} carries: a marker replaces or joins, a removal drops, a device stored unheard
 * reads the markers again; anything else is ignored.
 */
export function applyMapMessage(client: QueryClient, mapId: string, payload: unknown): void {
  if (isMarker(payload)) applyMarker(client, mapId, payload);
  else if (isRemoved(payload)) applyRemoved(client, mapId, payload);
  else if (isStored(payload)) applyStored(client, mapId, payload);
}

export function useDeviceControl() {
  return useMutation({
    mutationFn: ({ id: deviceId, action }: { id: string; action: ControlAction }) => deviceMapApi.control(deviceId, action),
  });
}

/** Controlling a selection changes nothing in the cloud: the lights' reports do, on the map's topic. */
export function useControlMany() {
  return useMutation({ mutationFn: deviceMapApi.controlMany });
}

export function useIdentifyDevice() {
  return useMutation({ mutationFn: deviceMapApi.identify });
}

/** Placement changes answer the map's markers: they replace the cache, and outmap lists are read again. */
function usePlacement<T extends { mapId: string }>(call: (body: T) => Promise<DeviceMarker[]>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (markers, body) => {
      client.setQueryData(deviceMapKeys.markers(body.mapId), markers);
      // Everything else about devices is read again: other maps, panels, the list and configuration screens.
      const fresh = deviceMapKeys.markers(body.mapId);
      void client.invalidateQueries({
        queryKey: deviceKeys.all,
        predicate: (q) => fresh.some((part, i) => q.queryKey[i] !== part),
      });
      void client.invalidateQueries({ queryKey: gatewayKeys.all });
    },
  });
}

export const useMoveDevicesIn = () => usePlacement(deviceMapApi.moveIn);
export const useDevicePositions = () => usePlacement(deviceMapApi.positions);

export function useMoveDevicesOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deviceMapApi.moveOut,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: deviceKeys.all });
      void client.invalidateQueries({ queryKey: gatewayKeys.all });
    },
  });
}

export function useRenameDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deviceMapApi.rename,
    onSuccess: (device) => {
      if (device.mapId) {
        client.setQueryData<DeviceMarker[]>(deviceMapKeys.markers(device.mapId), (old) =>
          old?.map((m) => (m.id === device.id ? { ...m, name: device.name } : m)),
        );
        client.setQueryData(deviceMapKeys.detail(device.mapId, device.id), device);
      }
      // The list and configuration screens show the name too.
      void client.invalidateQueries({ queryKey: deviceKeys.all, predicate: (q) => q.queryKey[1] !== deviceMapKeys.all[1] });
      void client.invalidateQueries({ queryKey: gatewayKeys.all });
    },
  });
}

/** Who may unlock a panel, read from the panel when asked (never cached: it is read through the gateway). */
export function usePanelLockAccounts(deviceId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['panelLock', deviceId ?? ''],
    queryFn: () => deviceMapApi.panelLockAccounts(deviceId ?? ''),
    enabled: enabled && Boolean(deviceId),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
