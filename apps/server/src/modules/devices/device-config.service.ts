import {
  takesLightAction,
  type ControlManyRequest,
  type ControlManyResult,
  canBatchChange,
  deviceType,
  paramRules,
  validateParams,
  type BroadControlRequest,
  type BroadControlResult,
  type Device,
  type DeviceBatchTypeBody,
  type DeviceBatchTypeResult,
  type DeviceDeleteBody,
  type DeviceDeleteResult,
  type DeviceListBody,
  type DevicePage,
  type DeviceParams,
  type DeviceParamsBody,
  type DeviceParamsRead,
  type DeviceReport,
  type DeviceReportBody,
  type SensorOnOffBody,
  type TemperatureParams,
  type TemperatureReading,
  type PanelLockAccounts,
} from '@lumigrid/contract';
import type { CommandName, CommandParams, CommandResult, DeviceKind, DeviceParamValues } from '@lumigrid/protocol';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { groupBy } from '../../lib/group-by.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { denyAccess, toId, visibleMapIds } from '../access/access.ts';

import { mapDevice, parseControlAction } from './devices.mappers.ts';
import type { DevicesRepo, DeviceRow } from './devices.repo.ts';
import { radioAction } from './device-commands.ts';
import { assertMay } from '../../http/authority.ts';
import { paging } from '../../lib/paging.ts';
import type { ProjectAccess } from '../projects/project-access.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope'>;

/** Which parameters each narrow call may set (spec section 7: set_motion_params, set_daylight_params, set_stairs_mode). */
const NARROW_CALLS = {
  motion: { sensor: 'motion', fields: null },
  daylight: { sensor: 'daylight', fields: null },
  stairs: { sensor: 'motion', fields: ['stairsMode', 'stairsHoldTime'] },
} as const;
export type ParamsCall = 'any' | keyof typeof NARROW_CALLS;

/**
 * Raises the configuration version of gateways whose groups lost a member or that ran a linkage of a sensor
 * that left its map, and pushes the change to them (the gateways domain answers).
 */
export interface GatewayConfigVersions {
  configChanged(q: { tenantId: bigint; gatewayIds: bigint[] }): Promise<void>;
  pushConfig(q: { tenantId: bigint; gatewayIds: bigint[] }): void;
}

/**
 * Device configuration and administration (spec section 7 "Devices" and "Device types"): the device list,
 * parameters read from and written to the device through its gateway, sensor on/off, broadcast control,
 * deletion from the map or the gateway, batch type change, network address refresh, temperatures.
 * Parameters live on the device (docs/decisions.md, "Device parameters live on the device").
 */
export function createDeviceConfigService(deps: {
  repo: DevicesRepo;
  /** Which maps the caller may touch (the projects domain's check). */
  access: Pick<ProjectAccess, 'requireMap'>;
  /** The gateway link; undefined when the server runs without one (commands answer 100101). */
  link: Pick<GatewayLink, 'bus'> | undefined;
  /** Raises gateways' configuration versions when a deleted device leaves the groups they run. */
  gateways?: GatewayConfigVersions;
  /** Overrides the command's own reply timeout (tests). */
  commandTimeoutMs?: number;
  /** Told about deleted devices and the maps they were on (the map topics drop their markers). */
  onRemoved?: (removed: Array<{ id: bigint; mapId: bigint | null }>) => void;
}) {
  const { repo } = deps;

  /**
   * Deletes devices in the cloud. The gateways whose groups lost a member must sync again; those that ran a
   * deleted sensor's linkage are sent their configuration without it, as any linkage change is.
   */
  async function forget(auth: Caller, rows: DeviceRow[], ids: bigint[]) {
    if (ids.length === 0) return;
    const grouped = new Set((await repo.groupsOf({ tenantId: auth.tenantId, deviceIds: ids })).map((m) => m.deviceId));
    const unlinked = await repo.remove({ tenantId: auth.tenantId, ids });
    deps.onRemoved?.(rows.filter((r) => ids.includes(r.device.id)).map((r) => ({ id: r.device.id, mapId: r.device.mapId })));
    const gatewayIds = [...new Set([...rows.filter((r) => grouped.has(r.device.id)).map((r) => r.device.gatewayId), ...unlinked])];
    if (gatewayIds.length > 0) await deps.gateways?.configChanged({ tenantId: auth.tenantId, gatewayIds });
    if (unlinked.length > 0) deps.gateways?.pushConfig({ tenantId: auth.tenantId, gatewayIds: unlinked });
  }

  async function requireDevice(auth: Caller, id: string): Promise<DeviceRow> {
    const row = await repo.find({ tenantId: auth.tenantId, id: toId(id), mapIds: visibleMapIds(auth) });
    if (!row) denyAccess();
    return row;
  }

  async function requireOwned(
    auth: Caller,
    table: 'project' | 'building' | 'gateway' | 'group',
    id: string | undefined,
  ): Promise<bigint | undefined> {
    if (id === undefined) return undefined;
    const parsed = toId(id);
    const scope = auth.scope && { projectIds: [...auth.scope.projectIds], mapIds: [...auth.scope.mapIds] };
    if (!(await repo.owns({ tenantId: auth.tenantId, table, id: parsed, scope }))) denyAccess();
    return parsed;
  }

  const { requireMap } = deps.access;

  /** Sends a command and answers its result, or throws the localised code for what the user was doing. */
  async function command<N extends CommandName>(mac: string, name: N, params: CommandParams<N>): Promise<CommandResult<N>> {
    const link = deps.link;
    if (!link) throw new AppError(100101);
    const outcome = await link.bus.send(mac, name, params, deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : undefined);
    if (outcome.state === 'succeeded') return outcome.result;
    throw new AppError(outcome.errorCode);
  }

  function paramsAnswer(row: DeviceRow, params: DeviceParams): DeviceParamsRead {
    return { id: String(row.device.id), type: row.device.type, params };
  }

  function assertNarrowCall(row: DeviceRow, call: ParamsCall, params?: Readonly<Record<string, unknown>>) {
    if (call === 'any') return;
    const narrow = NARROW_CALLS[call];
    if (deviceType(row.device.type)?.sensor !== narrow.sensor) throw new AppError(100209);
    const allowed: readonly string[] | null = narrow.fields;
    const stray = allowed && Object.keys(params ?? {}).find((f) => !allowed.includes(f));
    if (stray) throw new AppError(100209, stray);
  }

  /**
   * Every device the list filters take, in id order: a place or group of another account answers 110011.
   * The display state is worked out from the reported state, so it (and the fault) filter here.
   */
  async function matching(auth: Caller, body: DeviceReportBody): Promise<Device[]> {
    const filters = {
      tenantId: auth.tenantId,
      mapIds: visibleMapIds(auth),
      projectId: await requireOwned(auth, 'project', body.projectId),
      buildId: await requireOwned(auth, 'building', body.buildId),
      gatewayId: await requireOwned(auth, 'gateway', body.gatewayId),
      groupId: await requireOwned(auth, 'group', body.groupId),
      mapId: body.mapId === undefined ? undefined : (await requireMap(auth, body.mapId)).id,
      ...(body.type === undefined ? {} : { type: body.type }),
      ...(body.name?.trim() ? { text: body.name.trim() } : {}),
    };
    return (await repo.list(filters))
      .map(mapDevice)
      .filter((d) => (body.display === undefined || d.display === body.display) && (body.fault === undefined || d.fault === body.fault));
  }

  return {
    matching,

    /** POST device/v1/list: the filtered, paged device list and status view (/device/list). */
    async list(auth: Caller, body: DeviceListBody): Promise<DevicePage> {
      const all = await matching(auth, body);
      const { offset, limit } = paging(body);
      return { total: all.length, list: all.slice(offset, offset + limit) };
    },

    /** POST device/v1/read_params (and get_daylight_params): what the device runs now, read through its gateway. */
    async readParams(auth: Caller, id: string, call: ParamsCall = 'any'): Promise<DeviceParamsRead> {
      const row = await requireDevice(auth, id);
      assertNarrowCall(row, call);
      if (Object.keys(paramRules(row.device.type) ?? {}).length === 0) throw new AppError(100209);
      const { params } = await command(row.mac, 'device.params.get', { addr: row.device.addr });
      return paramsAnswer(row, params);
    },

    /**
     * POST device/v1/set_device_params and its narrow kin: every field is checked against the spec's table
     * for the device's type before anything travels; the gateway's reply is what the device now runs.
     */
    async setParams(auth: Caller, body: DeviceParamsBody, call: ParamsCall = 'any'): Promise<DeviceParamsRead> {
      assertMay(auth, 'write');
      const row = await requireDevice(auth, body.id);
      assertNarrowCall(row, call, body.params);
      if (Object.keys(body.params).length === 0) throw new AppError(100001, 'params');
      const [problem] = validateParams(row.device.type, body.params);
      if (problem) throw new AppError(problem.code, problem.field);
      // validateParams has checked every value's shape and range.
      const { params } = await command(row.mac, 'device.params.set', { addr: row.device.addr, params: body.params as DeviceParamValues });
      return paramsAnswer(row, params);
    },

    /** POST device/v1/control_sensor_onoff: a sensor stops or resumes sensing. */
    async sensorOnOff(auth: Caller, body: SensorOnOffBody): Promise<null> {
      assertMay(auth, 'control');
      const row = await requireDevice(auth, body.id);
      if (!deviceType(row.device.type)?.sensor) throw new AppError(100209);
      await command(row.mac, 'device.sensor', { addr: row.device.addr, on: body.on });
      return null;
    },

    /** POST device/v1/broad_control: one broadcast to every device of a gateway. */
    async broadControl(auth: Caller, body: BroadControlRequest): Promise<BroadControlResult> {
      assertMay(auth, 'control');
      const wanted = parseControlAction(body.action);
      if (!wanted) throw new AppError(100001, 'action');
      // A broadcast reaches lights of every kind; it is an action any dimmable RGB/CCT light understands.
      if (wanted.op === 'curtain' || wanted.op === 'position' || wanted.op === 'channel') throw new AppError(100209);
      const gatewayId = await requireOwned(auth, 'gateway', body.gatewayId);
      const [any] = await repo.list({ tenantId: auth.tenantId, gatewayId });
      if (!any) throw new AppError(110009);
      return command(any.mac, 'devices.broadcast', { action: radioAction(wanted) });
    },

    /**
     * POST device/v1/control_many: a selection from the floor plan. Each gateway gets one devices.control
     * with its selected lights that can take the action, as a group before its sync; a gateway that fails
     * answers its code in its row and does not hold back the others.
     */
    async controlMany(auth: Caller, body: ControlManyRequest): Promise<ControlManyResult> {
      assertMay(auth, 'control');
      const wanted = parseControlAction(body.action);
      if (!wanted) throw new AppError(100001, 'action');
      if (wanted.op === 'curtain' || wanted.op === 'position' || wanted.op === 'channel') throw new AppError(100209);
      const op = wanted.op;
      const ids = [...new Set(body.ids.map(toId))];
      const rows = await repo.byIds({ tenantId: auth.tenantId, ids, mapIds: visibleMapIds(auth) });
      if (rows.length !== ids.length) denyAccess();
      const able = rows.filter((row) => takesLightAction(row.device.type, op));
      if (able.length === 0) throw new AppError(100209);
      const action = radioAction(wanted);
      const byGateway = groupBy(able, (row) => row.device.gatewayId);
      const gateways = await Promise.all(
        [...byGateway.values()].map(async (members) => {
          const { device, mac, gatewayName } = members[0]!;
          const part = { gatewayId: String(device.gatewayId), gatewayName, targets: members.length };
          try {
            const { queued } = await command(mac, 'devices.control', { addrs: members.map((m) => m.device.addr), action });
            return { ...part, queued, code: 0 };
          } catch (error) {
            if (error instanceof AppError) return { ...part, queued: 0, code: error.code };
            throw error;
          }
        }),
      );
      return { gateways };
    },

    /**
     * POST device/v1/delete. From the map only: the cloud forgets the device and the gateway keeps it (an
     * import finds it again). From the gateway as well: each device is told to leave first; those whose
     * gateway fails or stays silent remain, and the answer is 100205 ("device deletion failed, confirm to
     * continue"), which the user confirms with `force` or del_device_succeed. A bridge with devices behind it
     * that are not deleted with it answers 260021.
     */
    async remove(auth: Caller, body: DeviceDeleteBody): Promise<DeviceDeleteResult> {
      assertMay(auth, 'write');
      const ids = [...new Set(body.ids.map(toId))];
      const rows = await repo.byIds({ tenantId: auth.tenantId, ids, mapIds: visibleMapIds(auth) });
      if (rows.length !== ids.length) denyAccess();
      const behind = await repo.behindBridges({ tenantId: auth.tenantId, bridgeIds: ids });
      if (behind.some((id) => !ids.includes(id))) throw new AppError(260021);
      if (!body.fromGateway || body.force) {
        await forget(auth, rows, ids);
        return { deleted: ids.map(String) };
      }
      // Devices behind a bridge leave with it: only the others are told.
      const told = rows.filter((r) => r.device.bridgeId === null || !ids.includes(r.device.bridgeId));
      const outcomes = await Promise.all(
        told.map(async (r) => {
          try {
            await command(r.mac, 'device.remove', { addr: r.device.addr });
            return true;
          } catch (error) {
            if (error instanceof AppError) return false;
            throw error;
          }
        }),
      );
      const failed = new Set(told.filter((_, i) => !outcomes[i]).map((r) => r.device.id));
      const gone = ids.filter((id) => {
        const row = rows.find((r) => r.device.id === id)!;
        return !failed.has(id) && !(row.device.bridgeId !== null && failed.has(row.device.bridgeId));
      });
      await forget(auth, rows, gone);
      if (gone.length !== ids.length) throw new AppError(100205);
      return { deleted: gone.map(String) };
    },

    /** POST device/v1/del_device_succeed/{gatewayId}/{id}: the user confirmed; the cloud forgets the device. */
    async removeConfirmed(auth: Caller, gatewayId: string, id: string): Promise<DeviceDeleteResult> {
      assertMay(auth, 'write');
      const row = await requireDevice(auth, id);
      if (row.device.gatewayId !== toId(gatewayId)) denyAccess();
      const behind = await repo.behindBridges({ tenantId: auth.tenantId, bridgeIds: [row.device.id] });
      if (behind.length > 0) throw new AppError(260021);
      await forget(auth, [row], [row.device.id]);
      return { deleted: [String(row.device.id)] };
    },

    /**
     * POST device/v1/batch_alter_devices: lights that joined as the wrong kind become another batch-changeable
     * type. Each gateway is told first (it drives the device by its kind); the cloud follows its answer.
     */
    async batchType(auth: Caller, body: DeviceBatchTypeBody): Promise<DeviceBatchTypeResult> {
      assertMay(auth, 'write');
      const ids = [...new Set(body.ids.map(toId))];
      const rows = await repo.byIds({ tenantId: auth.tenantId, ids, mapIds: visibleMapIds(auth) });
      if (rows.length !== ids.length) denyAccess();
      const target = deviceType(body.type);
      if (!target) throw new AppError(100208);
      if (!target.kind || rows.some((r) => !canBatchChange(r.device.type, body.type))) throw new AppError(100207);
      const byGateway = new Map<string, DeviceRow[]>();
      for (const r of rows) byGateway.set(r.mac, [...(byGateway.get(r.mac) ?? []), r]);
      for (const [mac, members] of byGateway) {
        await command(mac, 'device.setKind', { addrs: members.map((r) => r.device.addr), kind: target.kind as DeviceKind });
      }
      await repo.changeType({ tenantId: auth.tenantId, ids, type: body.type, kind: target.kind });
      return { count: ids.length };
    },

    /** POST device/v1/update_device_nwk: the network address, firmware and part number as the gateway knows them now. */
    async refreshNetwork(auth: Caller, id: string): Promise<Device> {
      assertMay(auth, 'write');
      const row = await requireDevice(auth, id);
      const { devices } = await command(row.mac, 'devices.list', {});
      const joined = devices.find((d) => d.addr === row.device.addr);
      if (!joined) throw new AppError(100108);
      await repo.updateNetwork({
        tenantId: auth.tenantId,
        id: row.device.id,
        networkAddress: joined.networkAddress,
        firmware: joined.firmware,
        model: joined.model,
      });
      return mapDevice(await requireDevice(auth, id));
    },

    /** GET device/v1/input_status/{id}: one device's current state as last reported (a cheap poll). */
    async inputStatus(auth: Caller, id: string): Promise<Device> {
      return mapDevice(await requireDevice(auth, id));
    },

    /** GET device/v1/get_all_temperature/{mapId}/{gatewayId}: the temperature sensors of a map and their last reading. */
    async temperatures(auth: Caller, params: TemperatureParams): Promise<TemperatureReading[]> {
      const map = await requireMap(auth, params.mapId);
      const gatewayId = params.gatewayId === '0' ? undefined : await requireOwned(auth, 'gateway', params.gatewayId);
      const rows = await repo.onMapOfGateway({ tenantId: auth.tenantId, mapId: map.id, ...(gatewayId === undefined ? {} : { gatewayId }) });
      return rows
        .filter((r) => deviceType(r.device.type)?.sensor === 'temperature')
        .map((r) => {
          const state = r.reported?.state as DeviceReport | undefined;
          return {
            id: String(r.device.id),
            name: r.device.name,
            gatewayId: String(r.device.gatewayId),
            temperature: state?.temperature ?? null,
            online: r.reported?.online ?? false,
            lastUpdate: r.reported ? r.reported.receivedAt.toISOString() : null, // server arrival time, not the gateway's clock
          };
        });
    },

    /** POST device/v1/read_panel_lock_accounts: the accounts a panel keeps that may unlock it, read through its gateway. */
    async panelLockAccounts(auth: Caller, id: string): Promise<PanelLockAccounts> {
      const row = await requireDevice(auth, id);
      if (!deviceType(row.device.type)?.panel) throw new AppError(100209);
      const answer = await command(row.mac, 'panel.lockAccounts', { addr: row.device.addr });
      return { id: String(row.device.id), locked: answer.locked, accounts: answer.accounts };
    },
  };
}
export type DeviceConfigService = ReturnType<typeof createDeviceConfigService>;
