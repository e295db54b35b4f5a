import { useMemo } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { deviceType, mapDestination, type Device, type DeviceListBody, type GroupView } from '@lumigrid/contract/browser';
import { useRealtime } from '../../app/realtime-provider.tsx';
import { deviceConfigApi, deviceConfigKeys } from '../device-config/api.ts';
import type { PanelControls } from '../devices/device-controls.ts';
import { groupApi, groupKeys } from '../groups/api.ts';
import { throttle } from '../groups/group-state.ts';
import type { EditorMember } from './editor-state.ts';
import { captureAction, deviceControls, groupControls } from './members.ts';

/** The device list of one map as the member picker reads it: its largest page (a scene holds 10-20 per gateway). */
export const mapDevicesQuery = (mapId: string): DeviceListBody => ({ mapId, page: 1, pageSize: 200 });

/** Devices a scene can give an action to: lights, switches, curtains (not sensors, panels or bridges). */
export function isSceneDevice(type: number): boolean {
  const info = deviceType(type);
  return Boolean(info && (info.lighting || info.channels > 0 || info.curtain));
}

export interface MapCatalog {
  devices: ReadonlyMap<string, Device>;
  groups: ReadonlyMap<string, GroupView>;
  /** Every query has answered once. */
  ready: boolean;
  /** What a member's target editor offers; a group whose members are not known yet offers on/off. */
  controlsOf(member: Pick<EditorMember, 'type' | 'id' | 'deviceType'>): PanelControls;
  /** Reads every map again and answers each member's action as it reports now (undefined: nothing reported). */
  capture(members: readonly EditorMember[]): Promise<Map<string, ReturnType<typeof captureAction>>>;
}

/**
 * The devices and groups of the maps a scene editor needs (the members' maps and the picker's), with their
 * reported states. Reports arrive on each map's real-time topic and refresh the lists.
 */
export function useMapCatalog(mapIds: readonly string[], watchMapId: string | undefined): MapCatalog {
  const client = useQueryClient();
  const deviceQueries = useQueries({
    queries: mapIds.map((mapId) => ({
      queryKey: deviceConfigKeys.list(mapDevicesQuery(mapId)),
      queryFn: ({ signal }: { signal: AbortSignal }) => deviceConfigApi.list(mapDevicesQuery(mapId), signal),
    })),
  });
  const groupQueries = useQueries({
    queries: mapIds.map((mapId) => ({
      queryKey: groupKeys.map(mapId),
      queryFn: ({ signal }: { signal: AbortSignal }) => groupApi.list(mapId, signal),
    })),
  });

  const refresh = useMemo(
    () =>
      throttle(() => {
        if (!watchMapId) return;
        void client.invalidateQueries({ queryKey: deviceConfigKeys.list(mapDevicesQuery(watchMapId)) });
        void client.invalidateQueries({ queryKey: groupKeys.map(watchMapId) });
      }, 500),
    [client, watchMapId],
  );
  useRealtime(watchMapId ? mapDestination(watchMapId) : undefined, refresh, refresh);

  const stamp = [...deviceQueries, ...groupQueries].map((q) => q.dataUpdatedAt).join();
  return useMemo(() => {
    const build = (deviceLists: Array<Device[] | undefined>, groupLists: Array<GroupView[] | undefined>) => {
      const devices = new Map(deviceLists.flatMap((list) => list ?? []).map((d) => [d.id, d]));
      const groups = new Map(groupLists.flatMap((list) => list ?? []).map((g) => [g.id, g]));
      const controlsOf = (member: Pick<EditorMember, 'type' | 'id' | 'deviceType'>) => {
        if (member.type === 'device') return deviceControls(member.deviceType ?? devices.get(member.id)?.type ?? -1);
        const group = groups.get(member.id);
        const types = (group?.deviceIds ?? []).flatMap((id) => {
          const device = devices.get(id);
          return device ? [device.type] : [];
        });
        return groupControls(types);
      };
      return { devices, groups, controlsOf };
    };
    const current = build(
      deviceQueries.map((q) => q.data?.list),
      groupQueries.map((q) => q.data),
    );
    return {
      ...current,
      ready: [...deviceQueries, ...groupQueries].every((q) => q.data !== undefined || q.isError),
      capture: async (members) => {
        const fresh = build(
          (await Promise.all(deviceQueries.map((q) => q.refetch()))).map((r) => r.data?.list),
          (await Promise.all(groupQueries.map((q) => q.refetch()))).map((r) => r.data),
        );
        return new Map(
          members.map((member) => {
            const reporting =
              member.type === 'device'
                ? [fresh.devices.get(member.id)].filter((d) => d !== undefined)
                : (fresh.groups.get(member.id)?.deviceIds ?? []).flatMap((id) => {
                    const device = fresh.devices.get(id);
                    return device ? [device] : [];
                  });
            return [`${member.type}:${member.id}`, captureAction(fresh.controlsOf(member), reporting)];
          }),
        );
      },
    };
    // The queries' data is what changes; `stamp` says when.
  }, [stamp, mapIds.join()]);
}
