import {
  ControlActionSchema,
  TYPE_STATUS,
  displayState,
  formatStatus,
  parseStatus,
  statusFromReport,
  type ControlAction,
  type Device,
  type DeviceControlRequest,
  type DeviceMarker,
  type DeviceReport,
} from '@lumigrid/contract';
import { FAULT_CODES } from '@lumigrid/protocol';
import { Value } from 'typebox/value';
import type { DeviceTelemetry } from '../device-reports/telemetry.repo.ts';
import type { DeviceRow, MarkerRow } from './devices.repo.ts';

/** The stored columns a device's state starts from. */
type StateOfDevice = Pick<MarkerRow['device'], 'type' | 'status' | 'typeStatus'>;

/**
 * What a device shows now: the status string from its last report over the stored one (the mode is never
 * reported), its type status and fault. A device never reported keeps its stored string (empty: offline).
 * Only a report changes this, never a command the cloud sent. A device behind a gateway that is not online
 * (offline, or unknown while the server has lost its broker) is offline whatever it last reported: nothing
 * can reach it, and its last state may no longer be true. Every view (markers, the device list and status
 * view, the status counts and tree, the reports, groups) takes a device's state from here.
 */
export function currentState(row: { device: StateOfDevice; reported: MarkerRow['reported']; gatewayOnline: boolean }): {
  status: string;
  typeStatus: number;
  fault: number;
} {
  const { device, reported } = row;
  const known = knownState(device, reported);
  if (row.gatewayOnline) return known;
  return { ...known, typeStatus: TYPE_STATUS.offline, fault: FAULT_CODES.offline };
}

/**
 * Whether a device is online as every view shows it: its display state (from currentState) is not offline.
 * Behind a gateway that is not online, reported offline, or never reported, it is not. Views that show a
 * device's presence alone (the emergency screens) take it from here.
 */
export function deviceOnline(row: { device: StateOfDevice; reported: MarkerRow['reported']; gatewayOnline: boolean }): boolean {
  return displayState({ type: row.device.type, ...currentState(row) }) !== 'offline';
}

function knownState(device: StateOfDevice, reported: MarkerRow['reported']) {
  if (!reported) return { status: device.status, typeStatus: device.typeStatus, fault: 0 };
  const previous = device.status ? parseStatus(device.type, device.status) : undefined;
  const next = statusFromReport(device.type, reported.state as DeviceReport, previous?.ok ? previous.value : undefined);
  const text = next.ok ? formatStatus(device.type, next.value) : undefined;
  return {
    status: text?.ok ? text.value : device.status,
    typeStatus: reported.online ? TYPE_STATUS.normal : TYPE_STATUS.offline,
    fault: reported.fault,
  };
}

/** Whether the gateway last reported the device as switched by hand (manual override). */
function switchedByHand(row: Pick<MarkerRow, 'reported' | 'gatewayOnline'>): boolean {
  return row.gatewayOnline && row.reported?.online === true && (row.reported.state as { manual?: boolean }).manual === true;
}

export function mapMarker(row: Pick<MarkerRow, 'device' | 'reported' | 'gatewayOnline'>): DeviceMarker {
  const { device } = row;
  const now = currentState(row);
  return {
    id: String(device.id),
    name: device.name,
    type: device.type,
    status: now.status,
    display: displayState({ type: device.type, ...now }),
    manual: switchedByHand(row),
    x: device.x,
    y: device.y,
  };
}

export function mapDevice(row: DeviceRow): Device {
  const { device, reported } = row;
  const now = currentState(row);
  const state = reported?.state as (DeviceReport & { lux?: number }) | undefined;
  return {
    id: String(device.id),
    gatewayId: String(device.gatewayId),
    gatewayName: row.gatewayName,
    bridgeId: device.bridgeId === null ? null : String(device.bridgeId),
    mapId: device.mapId === null ? null : String(device.mapId),
    buildId: row.buildId === null ? null : String(row.buildId),
    mapName: row.mapName,
    name: device.name,
    type: device.type,
    addr: device.addr,
    networkAddress: device.networkAddress,
    model: device.model,
    firmware: device.firmware,
    status: now.status,
    typeStatus: now.typeStatus,
    fault: now.fault,
    display: displayState({ type: device.type, ...now }),
    x: device.x,
    y: device.y,
    // Filled by the devices service for the rows it answers (groups, telemetry).
    groupIds: [],
    groupNames: [],
    illumination: state?.lux ?? null,
    manual: switchedByHand(row),
    // Filled from device_telemetry by withTelemetry().
    voltage: null,
    current: null,
    power: null,
    energyWh: null,
    battery: null,
    temperature: null,
    telemetryAt: null,
    // Filled from the device library and energy hours by the devices service (life).
    usedHours: null,
    libraryTypeName: null,
    remainingLifeHours: null,
    // The server's arrival time, not the gateway's clock: a gateway whose clock runs ahead must not show a
    // "last update" in the future.
    lastUpdate: reported ? reported.receivedAt.toISOString() : null,
    createdAt: device.createdAt.toISOString(),
  };
}

/** Rounds a real column (float4) to what the device could have meant, so 229.8 does not read 229.800003. */
const tidy = (v: number | null, digits = 3): number | null => (v === null ? null : Number(v.toFixed(digits)));

/** Lays a device's last telemetry over its row: measurements it sends win; lux keeps the state's when telemetry has none. */
export function withTelemetry(device: Device, sample: DeviceTelemetry | undefined): Device {
  if (!sample) return device;
  device.voltage = tidy(sample.voltage);
  device.current = tidy(sample.current);
  device.power = tidy(sample.power);
  device.energyWh = tidy(sample.energyWh);
  device.battery = tidy(sample.battery);
  device.temperature = tidy(sample.temperature);
  if (sample.lux !== null) device.illumination = tidy(sample.lux);
  // The server's arrival time, as for lastUpdate: its age must not depend on the gateway's clock.
  device.telemetryAt = sample.receivedAt;
  return device;
}

/**
 * The ControlAction a flat action is (DeviceControlRequestSchema says why it arrives flat), or undefined when
 * its fields do not fit its op.
 */
export function parseControlAction(action: DeviceControlRequest['action']): ControlAction | undefined {
  return Value.Check(ControlActionSchema, action) ? (action as ControlAction) : undefined;
}
