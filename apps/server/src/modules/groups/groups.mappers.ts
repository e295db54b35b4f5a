import { groupDisplay, type DeviceMarker, type GroupView } from '@lumigrid/contract';
import type { GroupRow } from './groups.repo.ts';

/**
 * A group as the group screen shows it. Its state comes from its members' markers (groupDisplay): a group
 * with offline members says so. A member behind a gateway that is not online is already offline in its
 * marker (devices.mappers.ts currentState), as on every other view.
 */
export function mapGroupView(row: GroupRow, members: DeviceMarker[]): GroupView {
  const { group, gateway } = row;
  const state = groupDisplay(members.map((m) => m.display));
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
