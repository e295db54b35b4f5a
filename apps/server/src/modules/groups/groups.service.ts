import {
  allocateGroupNumber,
  deviceType,
  groupControlProblem,
  groupNameProblem,
  groupTypeOf,
  membersProblem,
  type ControlAction,
  type GatewaySyncResult,
  type GroupAddBody,
  type GroupCandidate,
  type GroupCandidatesParams,
  type GroupControlRequest,
  type GroupControlResult,
  type GroupDetail,
  type GroupMembersBody,
  type GroupUpdateBody,
  type GroupView,
} from '@lumigrid/contract';
import { DALI_LIMITS } from '@lumigrid/protocol';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { AppError, duplicateAs } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { radioAction } from '../devices/device-commands.ts';
import { mapMarker } from '../devices/devices.mappers.ts';
import type { DeviceRow } from '../devices/devices.repo.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import type { GatewayConfigSource } from '../gateways/gateway-context.ts';
import { denyAccess, found, toId, type AccessService } from '../access/access.ts';
import { mapGroupView } from './groups.mappers.ts';
import type { DevicesRepo, GroupMemberRow } from '../devices/devices.repo.ts';
import { isUniqueViolation, violatedConstraint } from '../../db/errors.ts';
import type { GroupRow, GroupsRepo } from './groups.repo.ts';
import type { ProjectAccess } from '../projects/project-access.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope'>;

/**
 * The device control action a group action names (the request carries it flat, see GroupControlRequestSchema);
 * undefined when the field its op needs is missing.
 */
function controlActionOf(action: GroupControlRequest['action']): ControlAction | undefined {
  switch (action.op) {
    case 'onOff':
      return action.on === undefined ? undefined : { op: action.op, on: action.on };
    case 'brightness':
      return action.percent === undefined ? undefined : { op: action.op, percent: action.percent };
    case 'cct':
      return action.kelvin === undefined ? undefined : { op: action.op, kelvin: action.kelvin };
    case 'rgb':
      return action.color === undefined ? undefined : { op: action.op, color: action.color };
  }
}

/** The gateway's large (broadcast) group number, which group numbers never take. */
function largeGroupNumber(info: unknown): number | null {
  const n = (info as { largeGroupNumber?: unknown } | null)?.largeGroupNumber;
  return typeof n === 'number' ? n : null;
}

/**
 * Groups (zones), spec section 7 "Zones and groups". A group lives on one gateway and one map; every change
 * raises the gateway's configuration version, so the sync banner offers it and a sync carries the group
 * table to the gateway (config.apply). Control is one group frame once the gateway runs the group, and one
 * unicast per member (drained by the gateway at its radio rate) until then.
 */
export function createGroupsService(deps: {
  repo: GroupsRepo;
  /** The member devices and their states: the devices domain owns their rows. */
  devices: Pick<DevicesRepo, 'inGroups' | 'groupFacts' | 'groupCandidates'>;
  /** The map rows of ids the route has checked (the projects domain loads them). */
  maps: Pick<ProjectAccess, 'requireMap'>;
  /** Which objects the caller may touch, for the ids met inside the rules. */
  access: Pick<AccessService, 'requireOne'>;
  gateways: Pick<GatewaysService, 'configChanged' | 'sync'>;
  /** The gateway link; undefined when the server runs without one (commands answer 100101). */
  link: Pick<GatewayLink, 'bus'> | undefined;
  /** Overrides the command's own reply timeout (tests). */
  commandTimeoutMs?: number;
}) {
  const { repo } = deps;

  const { requireMap } = deps.maps;

  // The route has checked the ids its endpoint declares (contract objects); these load the rows under the account.
  const requireGroup = async (auth: Caller, id: string | bigint): Promise<GroupRow> =>
    found(await repo.find({ tenantId: auth.tenantId, id: typeof id === 'bigint' ? id : toId(id) }));

  const requireGateway = async (auth: Caller, id: string) => found(await repo.gateway({ tenantId: auth.tenantId, id: toId(id) }));

  /** The name trimmed, checked (100001, 100011) and free on the map (110007). */
  async function checkedName(mapId: bigint, raw: string, exceptId?: bigint): Promise<string> {
    const name = raw.trim();
    const problem = groupNameProblem(name);
    if (problem) throw new AppError(problem);
    if (await repo.nameTaken({ mapId, name, exceptId })) throw new AppError(110007);
    return name;
  }

  /** Member ids that are the tenant's and pass the group rules; answers them with the group type. */
  async function checkedMembers(auth: Caller, group: { gatewayId: bigint; mapId: bigint; id?: bigint }, rawIds: readonly string[]) {
    const ids = [...new Set(rawIds.map(toId))];
    const facts = await deps.devices.groupFacts({ tenantId: auth.tenantId, ids, exceptGroupId: group.id });
    if (facts.length !== ids.length) denyAccess();
    const problem = membersProblem(
      { gatewayId: String(group.gatewayId), mapId: String(group.mapId) },
      facts.map((f) => ({
        type: f.type,
        gatewayId: String(f.gatewayId),
        mapId: f.mapId === null ? null : String(f.mapId),
        otherGroups: Number(f.otherGroups),
      })),
    );
    if (problem) throw new AppError(problem);
    // A DALI bus maps the gateway's groups onto its 16 DALI groups (docs/protocol.md, "DALI").
    if (
      (await repo.daliBusGroups({ tenantId: auth.tenantId, deviceIds: ids, exceptGroupId: group.id })).some((n) => n >= DALI_LIMITS.groups)
    )
      throw new AppError(100603);
    return { ids, type: groupTypeOf(facts.map((f) => f.type)) };
  }

  /** Raises the gateway's configuration version; when the members changed, the group remembers that version. */
  async function changed(auth: Caller, group: { id: bigint; gatewayId: bigint }, membersChanged: boolean) {
    await deps.gateways.configChanged({ tenantId: auth.tenantId, gatewayIds: [group.gatewayId] });
    if (membersChanged) {
      const version = await repo.configVersion({ tenantId: auth.tenantId, gatewayId: group.gatewayId });
      await repo.setMemberVersion({ tenantId: auth.tenantId, id: group.id, version });
    }
  }

  async function views(auth: Caller, rows: GroupRow[]): Promise<Array<GroupView & { memberRows: GroupMemberRow[] }>> {
    const members = await deps.devices.inGroups({ tenantId: auth.tenantId, groupIds: rows.map((r) => r.group.id) });
    return rows.map((row) => {
      const memberRows = members.filter((m) => m.groupId === row.group.id);
      return {
        ...mapGroupView(
          row,
          memberRows.map((m) => mapMarker(m as DeviceRow)),
        ),
        memberRows,
      };
    });
  }

  async function view(auth: Caller, id: bigint): Promise<GroupView> {
    const [one] = await views(auth, [await requireGroup(auth, id)]);
    const { memberRows: _unused, ...rest } = one!;
    return rest;
  }

  const strip = (list: Array<GroupView & { memberRows: GroupMemberRow[] }>): GroupView[] =>
    list.map(({ memberRows: _unused, ...rest }) => rest);

  const callOptions = () => (deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : undefined);

  return {
    /** POST zone/v1/list/{mapId}: the groups of a map with their truthful state. */
    async list(auth: Caller, mapId: string): Promise<GroupView[]> {
      const map = await requireMap(auth, mapId);
      return strip(await views(auth, await repo.onMap({ tenantId: auth.tenantId, mapId: map.id })));
    },

    /** POST zone/v1/groups_for_gateway_id/{gatewayId}: the groups a gateway runs, by group number. */
    async forGateway(auth: Caller, gatewayId: string): Promise<GroupView[]> {
      const gateway = await requireGateway(auth, gatewayId);
      return strip(await views(auth, await repo.onGateway({ tenantId: auth.tenantId, gatewayId: gateway.id })));
    },

    /** POST zone/v1/get/{id}: one group with its members as markers. */
    async get(auth: Caller, id: string): Promise<GroupDetail> {
      const row = await requireGroup(auth, id);
      const [one] = await views(auth, [row]);
      const { memberRows, ...rest } = one!;
      return { ...rest, members: memberRows.map((m) => mapMarker(m as DeviceRow)) };
    },

    /** POST zone/v1/add: a new group on a map and gateway, with the lowest free group number of that gateway. */
    async add(auth: Caller, body: GroupAddBody): Promise<GroupView> {
      const map = await requireMap(auth, body.mapId);
      const gateway = await requireGateway(auth, body.gatewayId);
      const name = await checkedName(map.id, body.name);
      const members = await checkedMembers(auth, { gatewayId: gateway.id, mapId: map.id }, body.deviceIds);
      await repo.dropStale({ gatewayId: gateway.id, tenantId: auth.tenantId });
      // Two editors may take the same number at once: the unique index refuses the second, which tries again.
      for (let attempt = 0; ; attempt++) {
        const number = allocateGroupNumber(await repo.usedNumbers({ gatewayId: gateway.id }), largeGroupNumber(gateway.info));
        if (number === undefined) throw new AppError(100214);
        try {
          const id = await repo.insert({
            tenantId: auth.tenantId,
            gatewayId: gateway.id,
            mapId: map.id,
            name,
            number,
            type: members.type,
            memberIds: members.ids,
          });
          await changed(auth, { id, gatewayId: gateway.id }, true);
          return view(auth, id);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          if (violatedConstraint(error) === 'groups_map_name_key') throw new AppError(110007);
          if (attempt >= 3) throw new AppError(100214);
        }
      }
    },

    /** POST zone/v1/update: rename (1-21) and/or replace the members. */
    async update(auth: Caller, body: GroupUpdateBody): Promise<GroupView> {
      const row = await requireGroup(auth, body.id);
      const { group } = row;
      const name = body.name === undefined ? undefined : await checkedName(group.mapId, body.name, group.id);
      const members = body.deviceIds === undefined ? undefined : await checkedMembers(auth, group, body.deviceIds);
      const before = members ? await repo.memberIds({ groupId: group.id }) : [];
      const membersChanged =
        members !== undefined && (before.length !== members.ids.length || members.ids.some((id) => !before.includes(id)));
      if (name === undefined && !membersChanged) return view(auth, group.id);
      await duplicateAs(110007, async () => {
        await repo.update({
          tenantId: auth.tenantId,
          id: group.id,
          name,
          type: members?.type,
          memberIds: membersChanged ? members!.ids : undefined,
        });
      });
      await changed(auth, group, membersChanged);
      return view(auth, group.id);
    },

    /** POST zone/v1/succeed_device: adds and removes members; the result passes the same rules as a new group. */
    async changeMembers(auth: Caller, body: GroupMembersBody): Promise<GroupView> {
      const row = await requireGroup(auth, body.id);
      const { group } = row;
      const before = await repo.memberIds({ groupId: group.id });
      // Members taken off the group's map since (move_out, moved to another map) leave it with this change.
      const stillHere = new Set(
        (await deps.devices.groupFacts({ tenantId: auth.tenantId, ids: before })).filter((f) => f.mapId === group.mapId).map((f) => f.id),
      );
      const remove = new Set((body.remove ?? []).map(toId));
      const after = [...new Set([...before.filter((id) => stillHere.has(id)), ...(body.add ?? []).map(toId)])].filter(
        (id) => !remove.has(id),
      );
      const members = await checkedMembers(auth, group, after.map(String));
      const membersChanged = before.length !== members.ids.length || members.ids.some((id) => !before.includes(id));
      if (!membersChanged) return view(auth, group.id);
      await repo.update({ tenantId: auth.tenantId, id: group.id, type: members.type, memberIds: members.ids });
      await changed(auth, group, true);
      return view(auth, group.id);
    },

    /** POST zone/v1/delete/{id}: the group goes; its gateway drops it at the next sync. */
    async remove(auth: Caller, id: string): Promise<null> {
      const { group } = await requireGroup(auth, id);
      await repo.remove({ tenantId: auth.tenantId, id: group.id });
      await deps.gateways.configChanged({ tenantId: auth.tenantId, gatewayIds: [group.gatewayId] });
      return null;
    },

    /**
     * POST zone/v1/del_group_succeed/{id}: deletes the group and syncs its gateway at once, answering when the
     * gateway acknowledged a table without it. The deletion stands when the gateway cannot be reached; the
     * answer is then the sync's failure code and the sync banner keeps offering the gateway.
     */
    async removeAndSync(auth: Caller, id: string): Promise<GatewaySyncResult> {
      const { group } = await requireGroup(auth, id);
      await repo.remove({ tenantId: auth.tenantId, id: group.id });
      await deps.gateways.configChanged({ tenantId: auth.tenantId, gatewayIds: [group.gatewayId] });
      return deps.gateways.sync(auth, String(group.gatewayId));
    },

    /** GET zone/v1/add_group_devices/{mapId}/{gatewayId}/{groupId}/{type}: what the member picker offers. */
    async candidates(auth: Caller, p: GroupCandidatesParams): Promise<GroupCandidate[]> {
      const map = await requireMap(auth, p.mapId);
      const gateway = await requireGateway(auth, p.gatewayId);
      let memberIds: bigint[] = [];
      if (p.groupId !== '0') {
        const { group } = await requireGroup(auth, await deps.access.requireOne(auth, 'read', 'group', p.groupId));
        if (group.mapId !== map.id || group.gatewayId !== gateway.id) throw new AppError(270010);
        memberIds = await repo.memberIds({ groupId: group.id });
      }
      const rows = await deps.devices.groupCandidates({
        tenantId: auth.tenantId,
        mapId: map.id,
        gatewayId: gateway.id,
        type: p.type || undefined,
      });
      return rows.map((r) => {
        const member = memberIds.includes(r.device.id);
        const t = deviceType(r.device.type);
        const problem = !t || t.grouping === 'none' ? 100201 : !member && r.groups >= 16 ? 100212 : null;
        return { ...mapMarker(r as unknown as DeviceRow), member, groups: Number(r.groups), problem };
      });
    },

    /** POST zone/v1/control: one action for the whole group. */
    async control(auth: Caller, body: GroupControlRequest): Promise<GroupControlResult> {
      const row = await requireGroup(auth, body.id);
      const members = await deps.devices.inGroups({ tenantId: auth.tenantId, groupIds: [row.group.id] });
      const problem = groupControlProblem(
        members.map((m) => m.device.type),
        body.action.op,
      );
      if (problem) throw new AppError(problem);
      const wanted = controlActionOf(body.action);
      if (!wanted) throw new AppError(100001, 'action');
      const action = radioAction(wanted);
      const link = deps.link;
      if (!link) throw new AppError(100101);
      const { group, gateway } = row;
      const online = members.filter((m) => m.reported?.online !== false).length;
      if (group.memberVersion > 0 && gateway.syncedVersion >= group.memberVersion) {
        await link.bus.call(gateway.mac, 'group.control', { group: group.number, action }, callOptions());
        return { mode: 'group', frames: 1, targets: online };
      }
      // The gateway does not run this member list yet: it sends one unicast per member at its radio rate.
      const addrs = members.filter((m) => m.device.gatewayId === group.gatewayId).map((m) => m.device.addr);
      if (addrs.length === 0) return { mode: 'unicast', frames: 0, targets: 0 };
      const result = await link.bus.call(gateway.mac, 'devices.control', { addrs, action }, callOptions());
      return { mode: 'unicast', frames: result.queued, targets: result.queued };
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;

/** The group table a gateway should run: the groups domain's part of the configuration a sync sends. */
export function groupConfigSource(repo: Pick<GroupsRepo, 'table'>): GatewayConfigSource {
  return async (q) => ({ groups: await repo.table(q) });
}
