import { useMutation, useQuery } from '@tanstack/react-query';
import type { GroupAddBody, GroupControlRequest, GroupMembersBody, GroupUpdateBody } from '@lumigrid/contract/browser';
import { groupEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/api-query.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';
import { gatewayKeys } from '../gateways/api.ts';

/** One key factory for everything under groups; every change invalidates `all`. */
export const groupKeys = {
  all: ['groups'] as const,
  map: (mapId: string) => [...groupKeys.all, 'map', mapId] as const,
  detail: (groupId: string) => [...groupKeys.all, 'detail', groupId] as const,
  candidates: (mapId: string, gatewayId: string, groupId: string) => [...groupKeys.all, 'candidates', mapId, gatewayId, groupId] as const,
};

/** The zone calls of spec section 7; paths and answers are the contract's. */
export const groupApi = {
  list: (mapId: string, signal?: AbortSignal) => call(groupEndpoints.list, { params: { id: mapId }, body: {} }, { signal }),
  get: (groupId: string, signal?: AbortSignal) => call(groupEndpoints.get, { params: { id: groupId }, body: {} }, { signal }),
  forGateway: (gatewayId: string, signal?: AbortSignal) =>
    call(groupEndpoints.forGateway, { params: { id: gatewayId }, body: {} }, { signal }),
  add: (body: GroupAddBody) => call(groupEndpoints.add, { body }),
  update: (body: GroupUpdateBody) => call(groupEndpoints.update, { body }),
  members: (body: GroupMembersBody) => call(groupEndpoints.changeMembers, { body }),
  remove: (groupId: string) => call(groupEndpoints.remove, { params: { id: groupId }, body: {} }),
  removeAndSync: (groupId: string) => call(groupEndpoints.removeAndSync, { params: { id: groupId }, body: {} }),
  /** The devices of a map on a gateway that the member picker offers; groupId '0' for a new group. */
  candidates: (mapId: string, gatewayId: string, groupId: string, signal?: AbortSignal) =>
    call(groupEndpoints.candidates, { params: { mapId, gatewayId, groupId, type: 0 } }, { signal }),
  control: (body: GroupControlRequest) => call(groupEndpoints.control, { body }),
};

/** How often the groups of the shown map are looked at again; member reports also refresh them at once. */
export const GROUPS_POLL_MS = 15_000;

export const useMapGroups = (mapId: string | undefined) =>
  useApiQuery(groupKeys.map, groupApi.list, mapId || undefined, { refetchInterval: GROUPS_POLL_MS });

export const useGroup = (groupId: string | undefined) => useApiQuery(groupKeys.detail, groupApi.get, groupId || undefined);

export function useGroupCandidates(mapId: string | undefined, gatewayId: string | undefined, groupId = '0') {
  return useQuery({
    queryKey: groupKeys.candidates(mapId ?? '', gatewayId ?? '', groupId),
    queryFn: ({ signal }) => groupApi.candidates(mapId ?? '', gatewayId ?? '', groupId, signal),
    enabled: Boolean(mapId && gatewayId),
  });
}

/**
 * A group change: afterwards the groups and the sync banner are read again, since every change raises the
 * gateway's configuration version.
 */
const useGroupChange = <A, R>(change: (arg: A) => Promise<R>) => useRefreshingMutation(change, [groupKeys.all, gatewayKeys.syncStatus()]);

export const useAddGroup = () => useGroupChange(groupApi.add);
export const useUpdateGroup = () => useGroupChange(groupApi.update);
export const useGroupMembers = () => useGroupChange(groupApi.members);
export const useDeleteGroup = () => useGroupChange(groupApi.remove);
export const useDeleteGroupAndSync = () => useGroupChange(groupApi.removeAndSync);

/** Group control changes nothing in the cloud: the members' reports do, and they refresh the groups. */
export function useControlGroup() {
  return useMutation({ mutationFn: groupApi.control });
}
