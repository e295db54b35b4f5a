import { groupDisplay, type DeviceMarker, type DisplayState, type GroupView } from '@lumigrid/contract';
import type { GroupRow } from './groups.repo.ts';

/**
 * A group as the group screen shows it. Its state comes from its members' reported states (groupDisplay):
 * a group with offline members says so, and while its gateway is offline every member counts as offline,
 * since none of them can be reached.
 */
export function mapGroupView(row: GroupRow, members: DeviceMarker[]): GroupView {
  const { group, gateway } = row;
  const states: DisplayState[] = members.map((m) => (gateway.online ? m.display : 'offline'));
  const state = groupDisplay(states);
  return {
    id: String(group.id),
    gatewayId: String(group.gatewayId),
    mapId: String(group.mapId),
    name: group.name,
    number: group.number,
    type: group.type,
    deviceIds: members.map((m) => m.id),
    offlineCount: state.offline,
    failureCount: state.failure,
    display: state.display,
    gatewayName: gateway.name,
    gatewayOnline: gateway.online,
    onGateway: group.memberVersion > 0 && gateway.syncedVersion >= group.memberVersion,
    createdAt: group.createdAt.toISOString(),
  };
}
