import type { BridgeView, FirmwareProgressView, Gateway, GatewayDevice, GatewaySyncItem } from '@lumigrid/contract';
import type { FirmwareProgress } from '../../gateway-link/firmware-tracker.ts';
import type { DeviceRecord } from '../devices/devices.repo.ts';
import type { GatewayRecord, GatewayRow } from './gateways.repo.ts';

const idOrNull = (id: bigint | null) => (id === null ? null : String(id));
const NO_VERSIONS = { gateway: '', zigbee: '', zigbee2: '', zigbee3: '', wisun: '', plc: '' };

/** What the gateway is doing: updating while a firmware update runs, restarting while it is away after a restart. */
export function activityOf(row: Pick<GatewayRow, 'online' | 'offlineReason'>, firmware: FirmwareProgress | undefined): Gateway['activity'] {
  if (firmware && firmware.result === undefined) return 'updating';
  if (!row.online && row.offlineReason === 'restart') return 'restarting';
  return 'idle';
}

/** Online, offline, or unknown while the link has lost its broker (the link stores reason `unknown`). */
export function presenceOfRow(row: Pick<GatewayRow, 'online' | 'offlineReason'>): Gateway['presence'] {
  if (row.online) return 'online';
  return row.offlineReason === 'unknown' ? 'unknown' : 'offline';
}

/** The firmware update kept in the gateway's row (fw_* columns), or undefined when none was ever started. */
export function firmwareOfRow(row: GatewayRecord): FirmwareProgress | undefined {
  if (!row.fwUpdateId || !row.fwTarget || !row.fwStartedAt) return undefined;
  return {
    mac: row.mac,
    update: row.fwUpdateId,
    target: row.fwTarget as FirmwareProgress['target'],
    version: row.fwVersion ?? '',
    stage: (row.fwStage ?? 'requested') as FirmwareProgress['stage'],
    progress: row.fwResult === 1 ? 100 : row.fwProgress,
    startedAt: row.fwStartedAt.getTime(),
    result: row.fwResult === 1 || row.fwResult === 2 || row.fwResult === 3 ? row.fwResult : undefined,
  };
}

export function mapGateway(row: GatewayRow, firmware: FirmwareProgress | undefined): Gateway {
  const info = row.info;
  return {
    id: String(row.id),
    name: row.name,
    mac: row.mac,
    ip: info?.ip ?? '',
    networkAddress: info?.networkAddress ?? '',
    panId: info?.panId ?? '',
    channel: info?.channel ?? null,
    versions: info ? { ...info.versions } : { ...NO_VERSIONS },
    largeGroupNumber: info?.largeGroupNumber ?? null,
    model: info?.model ?? '',
    superGateway: row.superGateway,
    bridgeQuantity: row.bridgeQuantity,
    deviceCount: row.deviceCount,
    online: row.online,
    presence: presenceOfRow(row),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    activity: activityOf(row, firmware),
    longitude: row.longitude,
    x: row.planX,
    y: row.planY,
    latitude: row.latitude,
    settings: {
      timezone: row.timezone,
      reportIntervalS: row.reportIntervalS,
      sensorMode: row.sensorMode === 'independent' || row.sensorMode === 'linkage' ? row.sensorMode : null,
    },
    projectId: String(row.projectId),
    projectName: row.projectName,
    buildId: String(row.buildId),
    buildName: row.buildName,
    mapId: String(row.mapId),
    mapName: row.mapName,
    syncStatus: row.syncStatus,
    configVersion: row.configVersion,
    syncedVersion: row.syncedVersion,
    createdAt: (row.boundAt ?? row.createdAt).toISOString(),
  };
}

export function mapDevice(row: DeviceRecord): GatewayDevice {
  return {
    id: String(row.id),
    gatewayId: String(row.gatewayId),
    bridgeId: idOrNull(row.bridgeId),
    mapId: idOrNull(row.mapId),
    addr: row.addr,
    networkAddress: row.networkAddress,
    kind: row.kind,
    type: row.type,
    name: row.name,
    model: row.model,
    firmware: row.firmware,
    status: row.status,
    typeStatus: row.typeStatus,
    createdAt: row.createdAt.toISOString(),
  };
}

export function mapBridge(row: DeviceRecord & { deviceCount: number }): BridgeView {
  return {
    id: String(row.id),
    name: row.name,
    addr: row.addr,
    kind: row.kind,
    type: row.type,
    typeStatus: row.typeStatus,
    deviceCount: row.deviceCount,
    mapId: idOrNull(row.mapId),
  };
}

export function mapSyncItem(row: GatewayRow): GatewaySyncItem {
  return {
    id: String(row.id),
    name: row.name,
    mac: row.mac,
    projectName: row.projectName,
    buildName: row.buildName,
    mapName: row.mapName,
    status: row.syncStatus,
    online: row.online,
    configVersion: row.configVersion,
    syncedVersion: row.syncedVersion,
  };
}

const RESULT_STATE = { 1: 'success', 2: 'failed', 3: 'timeout' } as const;

export function mapFirmware(p: FirmwareProgress | undefined): FirmwareProgressView {
  if (!p) return { state: 'idle', target: null, version: null, stage: null, progress: 0, result: null, startedAt: null };
  return {
    state: p.result === undefined ? 'updating' : RESULT_STATE[p.result],
    target: p.target,
    version: p.version,
    stage: p.stage,
    progress: Math.max(0, Math.min(100, Math.round(p.progress))),
    result: p.result ?? null,
    startedAt: new Date(p.startedAt).toISOString(),
  };
}
