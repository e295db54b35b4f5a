import {
  controlProblem,
  deviceNameProblem,
  joinChannelNames,
  mapDestination,
  splitChannelNames,
  type Device,
  type DeviceControlRequest,
  type DeviceListBody,
  type DeviceReportBody,
  type DevicePage,
  type DeviceMarker,
  type MapRemovedMessage,
  type DeviceMoveInBody,
  type DeviceMoveOutBody,
  type DevicePositionsBody,
  type DeviceRenameBody,
} from '@lumigrid/contract';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { AppError } from '../../http/app-error.ts';
import { groupBy } from '../../lib/group-by.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import { denyAccess, toId, visibleMapIds } from '../access/access.ts';
import type { GatewayConfigVersions } from './device-config.service.ts';
import { radioAction } from './device-commands.ts';
import { createDeviceConfigService } from './device-config.service.ts';
import type { TelemetryRepo } from '../device-reports/telemetry.repo.ts';
import { mapDevice, mapMarker, parseControlAction, withTelemetry } from './devices.mappers.ts';
import type { DevicesRepo, DeviceRow } from './devices.repo.ts';
import { assertMay } from '../../http/authority.ts';
import type { ProjectAccess } from '../projects/project-access.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope'>;

/** Each device's library type, burning hours and remaining life (the library domain's lifeOf). */
export type DeviceLifeSource = (
  tenantId: bigint,
  deviceIds: bigint[],
) => Promise<Map<string, { libraryTypeName: string | null; usedHours: number | null; remainingLifeHours: number | null }>>;

/** Device reads, naming, placement and control (spec section 7 "Devices"). */
export function createDevicesService(deps: {
  repo: DevicesRepo;
  /** Which maps the caller may touch (the projects domain's check). */
  access: Pick<ProjectAccess, 'requireMap'>;
  /** The gateway link; undefined when the server runs without one (commands answer 100101). */
  link: Pick<GatewayLink, 'bus'> | undefined;
  realtime: Pick<RealtimeHub, 'publish'>;
  /** Raises gateways' configuration versions when a deleted device leaves their groups or a sensor its linkage. */
  gateways?: GatewayConfigVersions;
  /** Overrides the command's own reply timeout (tests). */
  commandTimeoutMs?: number;
  /** The last telemetry sample of each device (device_telemetry), laid over detail and list rows. */
  telemetry?: Pick<TelemetryRepo, 'ofDevices'>;
  /** Library type and remaining life, laid over detail and list rows. */
  life?: DeviceLifeSource;
}) {
  const { repo } = deps;
  const { requireMap } = deps.access;

  async function requireDevice(auth: Caller, id: string): Promise<DeviceRow> {
    const row = await repo.find({ tenantId: auth.tenantId, id: toId(id), mapIds: visibleMapIds(auth) });
    if (!row) denyAccess();
    return row;
  }

  /** Every id must be the tenant's; duplicates count once. */
  async function requireDevices(auth: Caller, ids: readonly string[]): Promise<bigint[]> {
    const unique = [...new Set(ids.map(toId))];
    if ((await repo.countOwned({ tenantId: auth.tenantId, ids: unique, mapIds: visibleMapIds(auth) })) !== unique.length) denyAccess();
    return unique;
  }

  /**
   * Tells the map's topic where devices were just placed, so everyone watching the plan sees an editor's drag
   * or drop live; answers the map's markers unchanged.
   */
  function publishPlaced(mapId: bigint, markers: DeviceMarker[], moved: ReadonlyArray<{ id: string }>): DeviceMarker[] {
    const ids = new Set(moved.map((d) => String(toId(d.id))));
    for (const marker of markers) if (ids.has(marker.id)) deps.realtime.publish(mapDestination(mapId), marker);
    return markers;
  }

  /** Tells each map the devices left that they are gone (moved out, moved to another map, deleted). */
  function publishRemoved(left: ReadonlyArray<{ id: bigint; mapId: bigint | null }>, except?: bigint) {
    const byMap = new Map<bigint, string[]>();
    for (const { id, mapId } of left) {
      if (mapId === null || mapId === except) continue;
      const ids = byMap.get(mapId) ?? [];
      ids.push(String(id));
      byMap.set(mapId, ids);
    }
    for (const [mapId, removed] of byMap) deps.realtime.publish(mapDestination(mapId), { removed } satisfies MapRemovedMessage);
  }

  /** The devices with their groups and last telemetry sample, for devices the caller was already allowed to read. */
  async function withGroupsAndTelemetry(tenantId: bigint, devices: Device[]): Promise<Device[]> {
    const deviceIds = devices.map((d) => BigInt(d.id));
    const memberships = groupBy(await repo.groupsOf({ tenantId, deviceIds }), (m) => String(m.deviceId));
    for (const device of devices) {
      const mine = memberships.get(device.id) ?? [];
      device.groupIds = mine.map((m) => String(m.groupId));
      device.groupNames = mine.map((m) => m.name);
    }
    const lives = await deps.life?.(tenantId, deviceIds);
    for (const device of devices) Object.assign(device, lives?.get(device.id));
    const samples = await deps.telemetry?.ofDevices(tenantId, deviceIds);
    return samples ? devices.map((d) => withTelemetry(d, samples.get(d.id))) : devices;
  }

  const config = createDeviceConfigService({ ...deps, onRemoved: publishRemoved });
  return {
    ...config,

    /** POST device/v1/list: the list and status view, each row with its groups and last telemetry sample. */
    async list(auth: Caller, body: DeviceListBody): Promise<DevicePage> {
      const page = await config.list(auth, body);
      return { ...page, list: await withGroupsAndTelemetry(auth.tenantId, page.list) };
    },

    /** Every device the list filters take, with its groups and last telemetry sample: the status reports. */
    async report(auth: Caller, body: DeviceReportBody): Promise<Device[]> {
      return withGroupsAndTelemetry(auth.tenantId, await config.matching(auth, body));
    },

    /** GET device/v1/state?mapId=: the markers of a map. */
    async markers(auth: Caller, mapId: string): Promise<DeviceMarker[]> {
      const map = await requireMap(auth, mapId);
      return (await repo.onMap({ tenantId: auth.tenantId, mapId: map.id })).map(mapMarker);
    },

    /** GET device/v1/details/{mapId}/{id}: 270010 when the device is not on that map. */
    async detail(auth: Caller, mapId: string, id: string): Promise<Device> {
      const map = await requireMap(auth, mapId);
      const row = await requireDevice(auth, id);
      if (row.device.mapId !== map.id) throw new AppError(270010);
      const [device] = await withGroupsAndTelemetry(auth.tenantId, [mapDevice(row)]);
      return device!;
    },

    /** POST device/v1/update_name: 1-25 characters, a switch's channel names joined by the delimiter. */
    async rename(auth: Caller, body: DeviceRenameBody): Promise<Device> {
      assertMay(auth, 'write');
      const row = await requireDevice(auth, body.id);
      const name = joinChannelNames(splitChannelNames(body.name).map((part) => part.trim()));
      const problem = deviceNameProblem(row.device.type, name);
      if (problem) throw new AppError(problem);
      await repo.rename({ tenantId: auth.tenantId, id: row.device.id, name });
      return mapDevice(await requireDevice(auth, body.id));
    },

    /** POST device/v1/move_in: outmap devices, or devices of another map, placed on this one. */
    async moveIn(auth: Caller, body: DeviceMoveInBody): Promise<DeviceMarker[]> {
      assertMay(auth, 'write');
      const map = await requireMap(auth, body.mapId);
      const ids = await requireDevices(
        auth,
        body.devices.map((d) => d.id),
      );
      const before = await repo.mapsOf({ tenantId: auth.tenantId, ids });
      await repo.place({
        tenantId: auth.tenantId,
        mapId: map.id,
        placements: body.devices.map((d) => ({ id: toId(d.id), x: d.x, y: d.y })),
      });
      publishRemoved(before, map.id);
      return publishPlaced(map.id, (await repo.onMap({ tenantId: auth.tenantId, mapId: map.id })).map(mapMarker), body.devices);
    },

    /** PUT device/v1/move: new positions of devices already on the map; 270010 for one that is not. */
    async positions(auth: Caller, body: DevicePositionsBody): Promise<DeviceMarker[]> {
      assertMay(auth, 'write');
      const map = await requireMap(auth, body.mapId);
      const ids = await requireDevices(
        auth,
        body.devices.map((d) => d.id),
      );
      if ((await repo.idsOnMap({ tenantId: auth.tenantId, mapId: map.id, ids })).length !== ids.length) throw new AppError(270010);
      await repo.place({
        tenantId: auth.tenantId,
        mapId: map.id,
        placements: body.devices.map((d) => ({ id: toId(d.id), x: d.x, y: d.y })),
      });
      return publishPlaced(map.id, (await repo.onMap({ tenantId: auth.tenantId, mapId: map.id })).map(mapMarker), body.devices);
    },

    /**
     * POST device/v1/move_out: the devices become outmap. A sensor's linkage goes with it (a sensor on no map
     * may have none, 310014), and its gateway is sent its configuration without it.
     */
    async moveOut(auth: Caller, body: DeviceMoveOutBody): Promise<null> {
      assertMay(auth, 'write');
      const ids = await requireDevices(auth, body.ids);
      const before = await repo.mapsOf({ tenantId: auth.tenantId, ids });
      const unlinked = await repo.unplace({ tenantId: auth.tenantId, ids });
      publishRemoved(before);
      if (unlinked.length > 0) {
        await deps.gateways?.configChanged({ tenantId: auth.tenantId, gatewayIds: unlinked });
        deps.gateways?.pushConfig({ tenantId: auth.tenantId, gatewayIds: unlinked });
      }
      return null;
    },

    /**
     * POST device/v1/control: sent to the gateway as device.control and answered when the gateway confirms.
     * Nothing is written here: the state changes when the gateway reports it (the placement index sends it to the map topics).
     */
    async control(auth: Caller, body: DeviceControlRequest): Promise<null> {
      assertMay(auth, 'control');
      const wanted = parseControlAction(body.action);
      if (!wanted) throw new AppError(100001, 'action');
      const row = await requireDevice(auth, body.id);
      const problem = controlProblem(row.device.type, wanted);
      if (problem) throw new AppError(problem);
      const action = radioAction(wanted);
      const link = deps.link;
      if (!link) throw new AppError(100101);
      await link.bus.call(
        row.mac,
        'device.control',
        { addr: row.device.addr, action },
        deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : undefined,
      );
      return null;
    },

    /** POST device/v1/try_me: the device blinks (device.identify); no state changes. */
    async identify(auth: Caller, id: string): Promise<null> {
      assertMay(auth, 'control');
      const row = await requireDevice(auth, id);
      const link = deps.link;
      if (!link) throw new AppError(100101);
      await link.bus.call(
        row.mac,
        'device.identify',
        { addr: row.device.addr },
        deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : undefined,
      );
      return null;
    },

    /** Whether the caller may watch a map's topic: the map must be the caller's account's. */
    async canSeeMap(auth: Caller, mapId: string): Promise<boolean> {
      if (!/^[0-9]{1,19}$/.test(mapId)) return false;
      const id = BigInt(mapId);
      if (id < 1n || id > 2n ** 63n - 1n) return false;
      try {
        await requireMap(auth, id);
        return true;
      } catch (error) {
        if (error instanceof AppError) return false;
        throw error;
      }
    },
  };
}
export type DevicesService = ReturnType<typeof createDevicesService>;
