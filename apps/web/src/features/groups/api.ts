import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GatewaySyncResult,
  GroupAddBody,
  GroupCandidateList,
  GroupControlRequest,
  GroupControlResult,
  GroupDetail,
  GroupMembersBody,
  GroupUpdateBody,
  GroupView,
  GroupViewList,
} from '@lumigrid/contract';
import { api } from '../../api/client.ts';
import { gatewayKeys } from '../gateways/api.ts';

const BASE = '/api4/zone/v1';
const id = (value: string) => encodeURIComponent(value);

/** One key factory for everything under groups; every change invalidates `all`. */
export const groupKeys = {
  all: ['groups'] as const,
  map: (mapId: string) => [...groupKeys.all, 'map', mapId] as const,
  detail: (groupId: string) => [...groupKeys.all, 'detail', groupId] as const,
  candidates: (mapId: string, gatewayId: string, groupId: string) => [...groupKeys.all, 'candidates', mapId, gatewayId, groupId] as const,
};

/** The zone calls of spec section 7; paths and answers are the contract's. */
export const groupApi = {
  list: (mapId: string, signal?: AbortSignal) => api.post<GroupViewList>(`${BASE}/list/${id(mapId)}`, {}, { signal }),
  get: (groupId: string, signal?: AbortSignal) => api.post<GroupDetail>(`${BASE}/get/${id(groupId)}`, {}, { signal }),
  forGateway: (gatewayId: string, signal?: AbortSignal) =>
    api.post<GroupViewList>(`${BASE}/groups_for_gateway_id/${id(gatewayId)}`, {}, { signal }),
  add: (body: GroupAddBody) => api.post<GroupView>(`${BASE}/add`, body),
  update: (body: GroupUpdateBody) => api.post<GroupView>(`${BASE}/update`, body),
  members: (body: GroupMembersBody) => api.post<GroupView>(`${BASE}/succeed_device`, body),
  remove: (groupId: string) => api.post<null>(`${BASE}/delete/${id(groupId)}`, {}),
  removeAndSync: (groupId: string) => api.post<GatewaySyncResult>(`${BASE}/del_group_succeed/${id(groupId)}`, {}),
  /** The devices of a map on a gateway that the member picker offers; groupId '0' for a new group. */
  candidates: (mapId: string, gatewayId: string, groupId: string, signal?: AbortSignal) =>
    api.get<GroupCandidateList>(`${BASE}/add_group_devices/${id(mapId)}/${id(gatewayId)}/${id(groupId)}/0`, { signal }),
  control: (body: GroupControlRequest) => api.post<GroupControlResult>(`${BASE}/control`, body),
};

/** How often the groups of the shown map are looked at again; member reports also refresh them at once. */
export const GROUPS_POLL_MS = 15_000;

export function useMapGroups(mapId: string | undefined) {
  return useQuery({
    queryKey: groupKeys.map(mapId ?? ''),
    queryFn: ({ signal }) => groupApi.list(mapId ?? '', signal),
    enabled: Boolean(mapId),
    refetchInterval: GROUPS_POLL_MS,
  });
}

export function useGroup(groupId: string | undefined) {
  return useQuery({
    queryKey: groupKeys.detail(groupId ?? ''),
    queryFn: ({ signal }) => groupApi.get(groupId ?? '', signal),
    enabled: Boolean(groupId),
  });
}

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
function useGroupChange<A, R>(call: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: groupKeys.all }),
        client.invalidateQueries({ queryKey: gatewayKeys.syncStatus() }),
      ]);
    },
  });
}

export const useAddGroup = () => useGroupChange(groupApi.add);
export const useUpdateGroup = () => useGroupChange(groupApi.update);
export const useGroupMembers = () => useGroupChange(groupApi.members);
export const useDeleteGroup = () => useGroupChange(groupApi.remove);
export const useDeleteGroupAndSync = () => useGroupChange(groupApi.removeAndSync);

/** Group control changes nothing in the cloud: the members' reports do, and they refresh the groups. */
export function useControlGroup() {
  return useMutation({ mutationFn: groupApi.control });
}
