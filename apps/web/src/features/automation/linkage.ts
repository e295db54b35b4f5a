import {
  DEVICE_FAMILIES,
  SCENE_LIMITS,
  type Device,
  type Gateway,
  type GroupView,
  type SensorLinkage,
  type SensorLinkageView,
} from '@lumigrid/contract/browser';

/** The ranges of a linkage, as the contract's schema bounds them, so that the form and the server never disagree. */
export const LINKAGE_RANGES = {
  detect: SCENE_LIMITS.linkage.detectPercent,
  clear: SCENE_LIMITS.linkage.clearPercent,
  hold: SCENE_LIMITS.linkage.holdS,
  lux: SCENE_LIMITS.linkage.lux,
} as const;

export type LinkageSensorKind = 'motion' | 'daylight';

/** Whether a device type is a sensor a linkage can start from: motion or daylight. */
export function linkageSensorKind(type: number): LinkageSensorKind | undefined {
  if (DEVICE_FAMILIES.motion.includes(type)) return 'motion';
  if (DEVICE_FAMILIES.daylight.includes(type)) return 'daylight';
  return undefined;
}

/** The motion and daylight sensors among a map's devices, by name. */
export function linkageSensors(devices: readonly Device[]): Device[] {
  return devices.filter((d) => linkageSensorKind(d.type) !== undefined).sort((a, b) => a.name.localeCompare(b.name));
}

/** The groups a sensor can drive: those on its own gateway (the server refuses others with 100211). */
export function groupsForSensor(groups: readonly GroupView[], sensor: Pick<Device, 'gatewayId'> | undefined): GroupView[] {
  if (!sensor) return [];
  return groups.filter((g) => g.gatewayId === sensor.gatewayId).sort((a, b) => a.name.localeCompare(b.name));
}

/** A hold time the gateway can keep: within the range, in whole steps of 10 s. */
export function snapHold(seconds: number): number {
  const { min, max, step } = LINKAGE_RANGES.hold;
  const stepped = Math.round(seconds / step) * step;
  return Math.min(max, Math.max(min, Number.isFinite(stepped) ? stepped : min));
}

/**
 * What the form starts with: the linkage as it is, or for a new one full light on detection, off after a
 * minute without, whatever the daylight. The only group of the sensor's gateway is picked at once.
 */
export function linkageDraft(
  existing: SensorLinkageView | undefined,
  sensor?: Device,
  groups: readonly GroupView[] = [],
): Partial<SensorLinkage> {
  if (existing) {
    const { sensorId, groupId, onDetectPercent, onClearPercent, holdS, lux } = existing;
    return { sensorId, groupId, onDetectPercent, onClearPercent, holdS, lux };
  }
  const own = groupsForSensor(groups, sensor);
  return {
    sensorId: sensor?.id,
    groupId: own.length === 1 ? own[0]!.id : undefined,
    onDetectPercent: 100,
    onClearPercent: 0,
    holdS: 60,
    lux: null,
  };
}

/**
 * Why a linkage will not act yet, if it will not: its gateway has not taken it (waiting for a sync), or the
 * gateway's sensors are not in the "default linkage" mode it runs in.
 */
export function linkageWaits(linkage: Pick<SensorLinkageView, 'onGateway' | 'gatewayId'>, gateways: ReadonlyMap<string, Gateway>) {
  const gateway = gateways.get(linkage.gatewayId);
  return {
    sync: !linkage.onGateway,
    /** Unknown gateways (the list not read yet) are not blamed. */
    sensorMode: gateway !== undefined && gateway.settings.sensorMode !== 'linkage',
  };
}
