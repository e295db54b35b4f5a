import {
  levelToPercent,
  microwaveProblem,
  percentToLevel,
  DEVICE_TYPE_CODES,
  SYNC_STATUS,
  type DeviceKindName,
  type FirmwareCheck,
  type FirmwareParams,
  type FirmwareProgressView,
  type Gateway,
  type GatewayBindBody,
  type GatewayBroadcast,
  type GatewayBroadcastQuery,
  type GatewayDevice,
  type GatewayListQuery,
  type GatewayLonLatBody,
  type GatewayLookup,
  type GatewayMicrowaveBody,
  type GatewayMicrowaveResult,
  type GatewayPage,
  type GatewayParamsBody,
  type GatewayPlaceBody,
  type GatewayRenameBody,
  type GatewaySensorMode,
  type GatewaySyncList,
  type GatewaySyncResult,
  type GatewayTime,
  type ImportCheck,
  type ImportResult,
  type ReReport,
  type SuperGatewayDevices,
} from '@lumigrid/contract';
import {
  EMPTY_GATEWAY_CONFIG,
  normaliseMac,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type GatewayConfig,
  type GatewayParams,
  type MicrowaveParams,
  type SensorMode,
} from '@lumigrid/protocol';
import { AppError } from '../../http/app-error.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../http/auth.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { SendOptions } from '../../gateway-link/command-bus.ts';
import type { GatewayFleet } from './gateway-fleet.ts';
import type { Clock } from '../../lib/clock.ts';
import { assertCoordinate, cleanName, toId } from '../projects/access.ts';
import type { FirmwareCatalogue } from './firmware-catalogue.ts';
import { compareVersions } from './firmware-catalogue.ts';
import { firmwareOfRow, mapBridge, mapDevice, mapFirmware, mapGateway, mapSyncItem } from './gateways.mappers.ts';
import type { GatewayRow, GatewaysRepo } from './gateways.repo.ts';
import { assertMay } from '../../http/authority.ts';
import { paging } from '../../lib/paging.ts';
import type { ProjectAccess } from '../projects/project-access.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth'>;

/** What the service needs of the gateway link; absent when the server runs without one (commands answer 100101). */
export type GatewayLinkPort = Pick<GatewayLink, 'bus' | 'firmware' | 'clearState'>;

/** How long broadcast opens the networks when the caller does not say (seconds). */
const DEFAULT_PERMIT_JOIN_S = 60;

/** Device names are 1-25 characters (spec section 5). */
const DEVICE_NAME_MAX = 25;
/** A sync answers within the 30 s request timeout of spec section 7; a slower gateway answers 100109. */
const SYNC_WAIT_MS = 25_000;

const KIND_LABEL: Record<DeviceKindName, string> = {
  'light-single': 'Light',
  'light-cct': 'CCT light',
  'light-rgb': 'RGB light',
  'light-dimmer': 'Dimmer',
  curtain: 'Curtain',
  'switch-1': 'Switch 1ch',
  'switch-2': 'Switch 2ch',
  'switch-3': 'Switch 3ch',
  'switch-4': 'Switch 4ch',
  'sensor-motion': 'Motion sensor',
  'sensor-daylight': 'Daylight sensor',
  'sensor-temperature': 'Temp sensor',
  'sensor-cct': 'CCT sensor',
  'panel-scene6': 'Scene panel',
  'panel-smart': 'Smart panel',
  bridge: 'Bridge',
  'bridge-wisun': 'Wi-SUN bridge',
  emergency: 'Emergency light',
  'emergency-dimmable': 'Emergency dimmer',
  'super-gateway': 'Super gateway',
};

/** The MAC in its topic form, or 100001 for something that is not one (the schema has checked the shape). */
function cleanMac(value: string): string {
  const mac = normaliseMac(value);
  if (!mac) throw new AppError(100001, 'mac');
  return mac;
}

/** A default device name: its kind and the end of its address, within 25 characters. */
function defaultDeviceName(kind: DeviceKindName, addr: string): string {
  return `${KIND_LABEL[kind]} ${addr.slice(-4).toUpperCase()}`.slice(0, DEVICE_NAME_MAX);
}

/**
 * Gateway management (spec section 7 "Gateways" and the sync helpers): binding from the pool, the gateway's
 * place and settings, commands through the command bus, device import, configuration sync and firmware.
 * Every call checks the caller's authority, then reaches only the caller's tenant's rows.
 */
export function createGatewaysService(deps: {
  repo: GatewaysRepo;
  /** Which projects, buildings and maps the caller may touch (the projects domain's check). */
  access: ProjectAccess;
  /** The gateway link, once started (buildApp starts it after the routes); undefined without one. */
  link: () => GatewayLinkPort | undefined;
  firmware: FirmwareCatalogue;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'error'>;
  /** Overrides every command's reply timeout (tests); the protocol's per-command timeouts otherwise. */
  commandTimeoutMs?: number;
  /** The configuration a gateway should run (its group table); the domains that own each part provide it. */
  configFor?: (q: { tenantId: bigint; gatewayId: bigint }) => Promise<GatewayConfig>;
  /** Tells the link-facing half (and so the real-time publisher) about a sync status the service stored. */
  fleet: Pick<GatewayFleet, 'statusChanged'>;
}) {
  const { repo, clock } = deps;
  const { requireMap } = deps.access;
  const configFor = deps.configFor ?? (async () => EMPTY_GATEWAY_CONFIG);
  const { statusChanged } = deps.fleet;

  async function requireGateway(auth: Caller, id: string | bigint): Promise<GatewayRow> {
    const row = await repo.find({ tenantId: auth.tenantId, id: typeof id === 'bigint' ? id : toId(id) });
    if (!row) throw new AppError(110011);
    return row;
  }

  function view(row: GatewayRow): Gateway {
    // The row holds the update when the link keeps updates in the database (every node sees it); else this node's memory.
    return mapGateway(row, firmwareOfRow(row) ?? deps.link()?.firmware.progress(row.mac));
  }

  async function reload(auth: Caller, id: bigint): Promise<Gateway> {
    return view(await requireGateway(auth, id));
  }

  /** Sends a command and answers its result, or throws the localised code (100101 without a link). */
  async function command<N extends CommandName>(
    row: GatewayRow,
    name: N,
    params: CommandParams<N>,
    options?: SendOptions,
  ): Promise<CommandResult<N>> {
    const link = deps.link();
    if (!link) throw new AppError(100101);
    return link.bus.call(row.mac, name, params, { ...(deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : {}), ...options });
  }

  return {
    /** GET gateway/v1/gateways */
    async list(auth: Caller, q: GatewayListQuery): Promise<GatewayPage> {
      // A project, building or map of another account simply matches nothing of this tenant; say so instead.
      if (q.mapId !== undefined) await requireMap(auth, q.mapId);
      if (q.projectId !== undefined) await deps.access.requireProject(auth, q.projectId);
      if (q.buildId !== undefined) await deps.access.requireBuilding(auth, q.buildId);
      const { total, list } = await repo.list({
        tenantId: auth.tenantId,
        projectId: q.projectId === undefined ? undefined : toId(q.projectId),
        buildId: q.buildId === undefined ? undefined : toId(q.buildId),
        mapId: q.mapId === undefined ? undefined : toId(q.mapId),
        text: q.name?.trim() || undefined,
        online: q.online,
        ...paging(q),
      });
      return { total, list: list.map(view) };
    },

    /** GET gateway/v1/detail/{id} */
    async detail(auth: Caller, id: string): Promise<Gateway> {
      return view(await requireGateway(auth, id));
    },

    /** POST gateway/v1/search_device_for_mac: what binding this MAC would do. */
    async lookup(auth: Caller, mac: string): Promise<GatewayLookup> {
      const bare = cleanMac(mac);
      const row = await repo.findByMacAnyTenant({ mac: bare });
      if (!row) return { mac: bare, state: 'unknown', online: false, superGateway: false, gateway: null };
      if (row.tenantId === null) return { mac: bare, state: 'pool', online: row.online, superGateway: row.superGateway, gateway: null };
      if (row.tenantId !== auth.tenantId) return { mac: bare, state: 'other', online: false, superGateway: false, gateway: null };
      return { mac: bare, state: 'yours', online: row.online, superGateway: row.superGateway, gateway: await reload(auth, row.id) };
    },

    /**
     * POST gateway/v1/move: binds a gateway from the pool to a map by MAC. A gateway bound to another account
     * answers 110011; one never provisioned answers 100110 (it could never connect). Binding one already
     * bound to this account moves it to the map.
     */
    async bind(auth: Caller, body: GatewayBindBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const mac = cleanMac(body.mac);
      const map = await requireMap(auth, body.mapId);
      const name = body.name === undefined ? mac : cleanName(body.name);
      const row = await repo.findByMacAnyTenant({ mac });
      if (!row) throw new AppError(100110);
      if (row.tenantId === auth.tenantId) {
        await repo.changePlace({ tenantId: auth.tenantId, id: row.id, mapId: map.id, at: clock.now() });
        if (body.name !== undefined) await repo.update({ tenantId: auth.tenantId, id: row.id, set: { name }, at: clock.now() });
        return reload(auth, row.id);
      }
      if (row.tenantId !== null) throw new AppError(110011);
      if (!(await repo.bindFromPool({ tenantId: auth.tenantId, id: row.id, mapId: map.id, name, at: clock.now() })))
        throw new AppError(110011);
      return reload(auth, row.id);
    },

    /** POST gateway/v1/update_name */
    async rename(auth: Caller, body: GatewayRenameBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, body.id);
      await repo.update({ tenantId: auth.tenantId, id: row.id, set: { name: cleanName(body.name) }, at: clock.now() });
      return reload(auth, row.id);
    },

    /** POST gateway/v1/change_place: the gateway and its placed devices go to another map of the account. */
    async changePlace(auth: Caller, body: GatewayPlaceBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, body.id);
      const map = await requireMap(auth, body.mapId);
      await repo.changePlace({ tenantId: auth.tenantId, id: row.id, mapId: map.id, at: clock.now() });
      return reload(auth, row.id);
    },

    /** POST gateway/v1/set_params: the gateway must confirm; what it confirms is stored. */
    async setParams(auth: Caller, body: GatewayParamsBody): Promise<Gateway> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, body.id);
      const { id: _id, ...wanted } = body;
      if (Object.keys(wanted).length === 0) throw new AppError(100001, 'no parameter given');
      const { params } = await command(row, 'params.set', { params: wanted as GatewayParams });
      await repo.update({
        tenantId: auth.tenantId,
        id: row.id,
        set: {
          timezone: params.timezone ?? row.timezone,
          reportIntervalS: params.reportIntervalS ?? row.reportIntervalS,
          sensorMode: params.sensorMode ?? row.sensorMode,
          ...(row.info
            ? {
                info: {
                  ...row.info,
                  channel: params.channel ?? row.info.channel,
                  largeGroupNumber: params.largeGroupNumber ?? row.info.largeGroupNumber,
                },
              }
            : {}),
        },
        at: clock.now(),
      });
      return reload(auth, row.id);
    },

    /** POST gateway/v1/set_lon_lat: sent to the gateway (sunrise and sunset), stored when it confirms. */
    async setLonLat(auth: Caller, body: GatewayLonLatBody): Promise<Gateway> {
      assertMay(auth, 'write');
      assertCoordinate(body.longitude);
      assertCoordinate(body.latitude);
      const row = await requireGateway(auth, body.id);
      await command(row, 'params.set', { params: { longitude: body.longitude, latitude: body.latitude } });
      await repo.update({
        tenantId: auth.tenantId,
        id: row.id,
        set: { longitude: body.longitude, latitude: body.latitude },
        at: clock.now(),
      });
      return reload(auth, row.id);
    },

    /** GET gateway/v1/tryme/{id}: the gateway blinks so an installer can find it. */
    async identify(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'control');
      await command(await requireGateway(auth, id), 'gateway.identify', {});
    },

    /** GET gateway/v1/restart_gateway/{id}: answers once the gateway accepted; it then goes offline and comes back. */
    async restart(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'control');
      await command(await requireGateway(auth, id), 'gateway.restart', {});
    },

    /** GET gateway/v1/read_gateway_time/{id} */
    async readTime(auth: Caller, id: string): Promise<GatewayTime> {
      const row = await requireGateway(auth, id);
      const result = await command(row, 'time.get', {});
      const cloud = clock.now().getTime();
      return {
        gatewayTime: new Date(result.time).toISOString(),
        cloudTime: new Date(cloud).toISOString(),
        driftMs: Math.round(result.time - cloud),
        timezone: result.timezone ?? row.timezone,
      };
    },

    /** GET gateway/v1/sync_gateway_systemtime/{id}: sets the gateway clock to the cloud's. */
    async syncTime(auth: Caller, id: string): Promise<GatewayTime> {
      assertMay(auth, 'control');
      const row = await requireGateway(auth, id);
      const sent = clock.now().getTime();
      const result = await command(row, 'time.set', { time: sent, ...(row.timezone ? { timezone: row.timezone } : {}) });
      const cloud = clock.now().getTime();
      return {
        gatewayTime: new Date(result.time).toISOString(),
        cloudTime: new Date(cloud).toISOString(),
        driftMs: Math.round(result.time - cloud),
        timezone: row.timezone,
      };
    },

    /** GET gateway/v1/re_report/{id}: every device's state again, on up/report. */
    async reReport(auth: Caller, id: string): Promise<ReReport> {
      assertMay(auth, 'control');
      return command(await requireGateway(auth, id), 'devices.report', {});
    },

    /** GET gateway/v1/refresh_all/{id}: the gateway's fields read afresh, and every device re-reported. */
    async refreshAll(auth: Caller, id: string): Promise<Gateway> {
      assertMay(auth, 'control');
      const row = await requireGateway(auth, id);
      const info = await command(row, 'gateway.info', {});
      await repo.update({ tenantId: auth.tenantId, id: row.id, set: { info }, at: clock.now() });
      await command(row, 'devices.report', {});
      return reload(auth, row.id);
    },

    /**
     * GET gateway/v1/broadcast?id=&durationS=: opens the gateway's networks for joining (a Zigbee permit-join
     * broadcast) so new devices pair; check/import and import then take them in. 0 closes the networks.
     */
    async broadcast(auth: Caller, q: GatewayBroadcastQuery): Promise<GatewayBroadcast> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, q.id);
      const durationS = q.durationS ?? DEFAULT_PERMIT_JOIN_S;
      await command(row, 'devices.permitJoin', { durationS });
      const openUntil = durationS > 0 ? new Date(clock.now().getTime() + durationS * 1000).toISOString() : null;
      return { id: String(row.id), durationS, openUntil };
    },

    /**
     * GET gateway/v1/sensor_self_oper/{id} (mode independent) and sensor_sync_model/{id} (mode linkage): every
     * sensor of the gateway acts on its own, or drives the linkage of the configuration the gateway runs. The
     * mode is stored as the gateway's sensorMode once the gateway confirms it.
     */
    async setSensorMode(auth: Caller, id: string, mode: SensorMode): Promise<GatewaySensorMode> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const result = await command(row, 'sensors.mode', { mode });
      await repo.update({ tenantId: auth.tenantId, id: row.id, set: { sensorMode: result.mode }, at: clock.now() });
      return { id: String(row.id), mode: result.mode, count: result.count };
    },

    /**
     * POST gateway/v1/set_mawa_params: writes hold time, daylight threshold, detection and standby brightness
     * to every microwave motion sensor of the gateway in one command. Each field is checked against its row of
     * spec section 5 first; a bad one answers its own message and nothing is sent.
     */
    async setMicrowaveParams(auth: Caller, body: GatewayMicrowaveBody): Promise<GatewayMicrowaveResult> {
      assertMay(auth, 'write');
      const { id, holdTime, lux, brightness, standbyBrightness } = body;
      if ([holdTime, lux, brightness, standbyBrightness].every((v) => v === undefined)) throw new AppError(100001, 'no parameter given');
      const problem =
        microwaveProblem('holdTime', holdTime) ??
        microwaveProblem('lux', lux) ??
        microwaveProblem('brightness', brightness) ??
        microwaveProblem('standbyBrightness', standbyBrightness);
      if (problem) throw new AppError(problem);
      const row = await requireGateway(auth, id);
      const params: MicrowaveParams = {
        ...(holdTime !== undefined ? { holdS: holdTime } : {}),
        ...(lux !== undefined ? { luxAbove: lux } : {}),
        ...(brightness !== undefined ? { level: percentToLevel(brightness) } : {}),
        ...(standbyBrightness !== undefined ? { standbyLevel: percentToLevel(standbyBrightness) } : {}),
      };
      const result = await command(row, 'sensors.microwave', { params });
      return {
        id: String(row.id),
        count: result.count,
        holdTime: result.params.holdS ?? null,
        lux: result.params.luxAbove ?? null,
        brightness: result.params.level === undefined ? null : levelToPercent(result.params.level),
        standbyBrightness: result.params.standbyLevel === undefined ? null : levelToPercent(result.params.standbyLevel),
      };
    },

    /** GET gateway/v1/check/import/{id}: the devices that joined the gateway, and which are new. */
    async checkImport(auth: Caller, id: string): Promise<ImportCheck> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const { devices } = await command(row, 'devices.list', {});
      const known = new Set((await repo.devicesOf({ tenantId: auth.tenantId, gatewayId: row.id })).map((d) => d.addr));
      const list = devices.map((d) => ({
        addr: d.addr.toUpperCase(),
        kind: d.kind,
        type: DEVICE_TYPE_CODES[d.kind],
        networkAddress: d.networkAddress,
        model: d.model,
        firmware: d.firmware,
        bridge: d.bridge?.toUpperCase() ?? null,
        imported: known.has(d.addr.toUpperCase()),
      }));
      return { total: list.length, fresh: list.filter((d) => !d.imported).length, list };
    },

    /** GET gateway/v1/import/{id}: adds the joined devices the cloud does not hold; they start outside any map. */
    async importDevices(auth: Caller, id: string): Promise<ImportResult> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const { devices } = await command(row, 'devices.list', {});
      // Bridges first, so the devices behind them find their bridge row in the same import.
      const ordered = [...devices].sort((a, b) => Number(b.kind.startsWith('bridge')) - Number(a.kind.startsWith('bridge')));
      const added = await repo.importDevices({
        tenantId: auth.tenantId,
        gatewayId: row.id,
        at: clock.now(),
        list: ordered.map((d) => ({
          addr: d.addr.toUpperCase(),
          networkAddress: d.networkAddress,
          kind: d.kind,
          type: DEVICE_TYPE_CODES[d.kind],
          name: defaultDeviceName(d.kind, d.addr),
          model: d.model,
          firmware: d.firmware,
          bridgeAddr: d.bridge,
        })),
      });
      const total = (await repo.devicesOf({ tenantId: auth.tenantId, gatewayId: row.id })).length;
      return { imported: added.length, total, list: added.map(mapDevice) };
    },

    /** GET gateway/v1/devices/outmap/{mapId}/{gatewayId}: the gateway's devices not placed on a map. */
    async outmapDevices(auth: Caller, mapId: string, gatewayId: string): Promise<GatewayDevice[]> {
      await requireMap(auth, mapId);
      const row = await requireGateway(auth, gatewayId);
      return (await repo.devicesOf({ tenantId: auth.tenantId, gatewayId: row.id, outmapOnly: true })).map(mapDevice);
    },

    /**
     * GET gateway/v1/delete/{id}: unbinds the gateway; refused (260013) while any of its devices is on a
     * map. Its other devices are removed, and it goes back to the pool with its credentials.
     */
    async unbind(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const outcome = await repo.unbind({ tenantId: auth.tenantId, id: row.id, at: clock.now() });
      if (outcome === 'missing') throw new AppError(110011);
      if (outcome === 'linked') throw new AppError(260013);
    },

    /** GET gateway/v1/super_gateway_devices/{id}/{bridgeId} */
    async superGatewayDevices(auth: Caller, id: string, bridgeId: string): Promise<SuperGatewayDevices> {
      const row = await requireGateway(auth, id);
      const bridges = await repo.bridgesOf({ tenantId: auth.tenantId, gatewayId: row.id });
      let devices: GatewayDevice[] = [];
      if (bridgeId !== '0') {
        const bridge = bridges.find((b) => b.id === toId(bridgeId));
        if (!bridge) throw new AppError(110011);
        devices = (await repo.devicesOf({ tenantId: auth.tenantId, gatewayId: row.id, bridgeId: bridge.id })).map(mapDevice);
      }
      return { name: row.name, bridgeQuantity: bridges.length, bridges: bridges.map(mapBridge), devices };
    },

    /** GET gateway/v1/delete_bridge/{id}/{bridgeId}: refused (260021) while the bridge or a device behind it is on a map. */
    async unbindBridge(auth: Caller, id: string, bridgeId: string): Promise<void> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, id);
      const outcome = await repo.unbindBridge({ tenantId: auth.tenantId, gatewayId: row.id, bridgeId: toId(bridgeId) });
      if (outcome === 'missing') throw new AppError(110011);
      if (outcome === 'linked') throw new AppError(260021);
    },

    /** GET gateway/v1/sync_status: the gateways whose configuration is not synced. */
    async syncStatus(auth: Caller): Promise<GatewaySyncList> {
      return (await repo.notSynced({ tenantId: auth.tenantId })).map(mapSyncItem);
    },

    /**
     * GET gateway/v1/sync/{id}: sends the configuration with its version on down/config and answers when the
     * gateway acknowledged it (status 3). A refusal answers 100107, silence 100109; the status is then 4.
     */
    async sync(auth: Caller, id: string): Promise<GatewaySyncResult> {
      assertMay(auth, 'control');
      const row = await requireGateway(auth, id);
      const link = deps.link();
      if (!link) throw new AppError(100101);
      const version = row.configVersion;
      const config = await configFor({ tenantId: auth.tenantId, gatewayId: row.id });
      await repo.setSyncStatus({ tenantId: auth.tenantId, id: row.id, status: SYNC_STATUS.syncing, version });
      statusChanged(row.mac, { kind: 'sync', syncStatus: SYNC_STATUS.syncing });
      const outcome = await link.bus.send(
        row.mac,
        'config.apply',
        { version, config },
        { timeoutMs: deps.commandTimeoutMs ?? SYNC_WAIT_MS },
      );
      if (outcome.state !== 'succeeded') {
        await repo.setSyncStatus({ tenantId: auth.tenantId, id: row.id, status: SYNC_STATUS.failed, version });
        // The reply may be lost while the gateway's own state already reports the version: that is a sync.
        const now = await requireGateway(auth, row.id);
        statusChanged(row.mac, { kind: 'sync', syncStatus: now.syncStatus });
        if (now.syncStatus === SYNC_STATUS.synced && now.syncedVersion === version) {
          return { id: String(row.id), status: now.syncStatus, version };
        }
        throw new AppError(outcome.errorCode);
      }
      await repo.acknowledge({ tenantId: auth.tenantId, id: row.id, version: outcome.result.version, at: clock.now() });
      const after = await requireGateway(auth, row.id);
      statusChanged(row.mac, { kind: 'sync', syncStatus: after.syncStatus });
      return { id: String(row.id), status: after.syncStatus, version: outcome.result.version };
    },

    /** GET gateway/v1/check_gateway_version/{id}/{target} */
    async checkVersion(auth: Caller, p: FirmwareParams): Promise<FirmwareCheck> {
      const row = await requireGateway(auth, p.id);
      const file = deps.firmware.latest(p.target);
      if (!file) throw new AppError(260007);
      const current = row.info?.versions[p.target] ?? '';
      return {
        target: p.target,
        current,
        latest: file.version,
        state: current !== '' && compareVersions(file.version, current) <= 0 ? 'latest' : 'available',
      };
    },

    /** GET gateway/v1/post_gateway_update/{id}/{target}: starts the update; follow it with gateway_upgrade_progress. */
    async startUpdate(auth: Caller, p: FirmwareParams): Promise<FirmwareProgressView> {
      assertMay(auth, 'write');
      const row = await requireGateway(auth, p.id);
      const file = deps.firmware.latest(p.target);
      if (!file) throw new AppError(260007);
      const link = deps.link();
      if (!link) throw new AppError(100101);
      const outcome = await link.firmware.start(row.mac, {
        target: p.target,
        version: file.version,
        url: file.url,
        ...(file.size !== undefined ? { size: file.size } : {}),
        ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
      });
      if (outcome.state !== 'succeeded') throw new AppError(outcome.errorCode);
      const after = await requireGateway(auth, row.id);
      return mapFirmware(firmwareOfRow(after) ?? link.firmware.progress(row.mac));
    },

    /** GET gateway/v1/gateway_upgrade_progress/{id} */
    async updateProgress(auth: Caller, id: string): Promise<FirmwareProgressView> {
      const row = await requireGateway(auth, id);
      return mapFirmware(firmwareOfRow(row) ?? deps.link()?.firmware.progress(row.mac));
    },

    /** Raises the configuration version of gateways whose configuration changed (groups, scenes, ... call it). */
    async configChanged(q: { tenantId: bigint; gatewayIds: bigint[] }): Promise<void> {
      await repo.raiseConfigVersion({ tenantId: q.tenantId, ids: q.gatewayIds, at: clock.now() });
    },
  };
}
export type GatewaysService = ReturnType<typeof createGatewaysService>;
