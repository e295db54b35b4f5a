import { EngineeringUnits, ObjectType } from '@bacnet-js/client';
import { deviceType, levelToPercent, parseStatus, type DisplayState } from '@lumigrid/contract';

/**
 * What a BACnet object stands for on the platform: its row in bacnet_objects is keyed by it. `energy` is a
 * device's meter (by the device's id): a device has two Analog Inputs, power and energy, and one key per type.
 */
export type ObjectSource = 'group' | 'device' | 'energy' | 'map' | 'project';

export interface InstanceKey {
  source: ObjectSource;
  sourceId: string;
  objectType: number;
}

export const instanceKey = (k: InstanceKey): string => `${k.source}:${k.sourceId}:${k.objectType}`;

/** A project as the BACnet device shows it, read through the platform's services with the bound account. */
export interface ProjectSnapshot {
  maps: ReadonlyArray<{ id: string; name: string }>;
  /** Devices placed on those maps. */
  devices: ReadonlyArray<{
    id: string;
    name: string;
    type: number;
    mapId: string;
    status: string;
    display: DisplayState;
    /** Last measured power, W; null when the device sends none. */
    powerW: number | null;
    /** Its meter's energy register as last reported, kWh; null for a device without a meter. */
    energyKwh: number | null;
  }>;
  groups: ReadonlyArray<{ id: string; name: string; mapId: string; deviceIds: readonly string[]; display: DisplayState }>;
  /** The project's scenes that run by hand, oldest first, with when each last ran (ISO); absent: no scene selector. */
  scenes?: { projectId: string; list: ReadonlyArray<{ id: string; name: string; lastRunAt: string | null }> };
}

/** Why an object's Status_Flags say fault: its Reliability property. */
export type ObjectReliability = 'ok' | 'communicationFailure' | 'unreliableOther';

/** How a write to the object's Present_Value reaches the lights. */
export type Command = 'level' | 'onOff' | 'scene';

export interface BacnetObject extends InstanceKey {
  instance: number;
  name: string;
  description: string;
  /**
   * What the platform knows now: a Lighting Output's level in percent, a Binary Lighting Output's 0 off / 1 on,
   * an Analog Input's watts, a Multi-state Value's state number (1-based, STATE_TEXTS).
   */
  value: number;
  reliability: ObjectReliability;
  command: Command | null;
  /** An Analog Input's Units (EngineeringUnits: watts, kilowatt-hours). */
  units?: number;
  /** A Multi-state Output's State_Text, and the scene each state runs (none for the first, "none"). */
  states?: readonly string[];
  sceneIds?: ReadonlyArray<string | null>;
}

export type ObjectDraft = Omit<BacnetObject, 'instance'>;

/** The Multi-state Value's states, in order: Present_Value 1 is working. */
export const STATE_TEXTS = ['working', 'on', 'off', 'failure', 'offline'] as const;

const STATE_OF_DISPLAY: Record<DisplayState, (typeof STATE_TEXTS)[number]> = {
  working: 'working',
  onFull: 'on',
  onPartial: 'on',
  off: 'off',
  failure: 'failure',
  offline: 'offline',
};

export function stateNumber(display: DisplayState): number {
  return STATE_TEXTS.indexOf(STATE_OF_DISPLAY[display]) + 1;
}

function reliabilityOf(display: DisplayState): ObjectReliability {
  if (display === 'offline') return 'communicationFailure';
  if (display === 'failure') return 'unreliableOther';
  return 'ok';
}

/** A light's level in percent from its status string: 0 while off, 100 when on for a light that does not dim. */
export function lightPercent(type: number, status: string): number {
  const parsed = parseStatus(type, status);
  if (!parsed.ok) return 0;
  const s = parsed.value;
  if (s.family !== 'light' && s.family !== 'emergency') return 0;
  if (!s.on) return 0;
  return deviceType(type)?.dimmable ? levelToPercent(s.level) : 100;
}

/** A group's level: the mean of its members that answer, 0 when none does. */
function groupPercent(levels: readonly number[]): number {
  if (levels.length === 0) return 0;
  return Math.round(levels.reduce((sum, l) => sum + l, 0) / levels.length);
}

const answers = (display: DisplayState) => display !== 'offline' && display !== 'failure';

/**
 * The objects a project's BACnet device holds (docs/bacnet.md, the object table): a Lighting Output per group
 * and per dimmable light, a Binary Lighting Output per light that only switches, an Analog Input (power) and a
 * Multi-state Value (state) per device, an Analog Input of energy (kWh) per device with a meter, an Analog Input of total power per map. Names are the platform's,
 * prefixed by the map's; two devices of one name get their id appended, since a BACnet device's object names
 * are unique.
 */
export function describeObjects(snapshot: ProjectSnapshot): ObjectDraft[] {
  const mapName = new Map(snapshot.maps.map((m) => [m.id, m.name]));
  const byId = new Map(snapshot.devices.map((d) => [d.id, d]));
  const drafts: ObjectDraft[] = [];
  const ok = { reliability: 'ok' as const };

  for (const group of snapshot.groups) {
    const levels = group.deviceIds
      .map((id) => byId.get(id))
      .filter((d) => d !== undefined && answers(d.display) && deviceType(d.type)?.lighting)
      .map((d) => lightPercent(d!.type, d!.status));
    drafts.push({
      source: 'group',
      sourceId: group.id,
      objectType: ObjectType.LIGHTING_OUTPUT,
      name: `${mapName.get(group.mapId) ?? ''}/${group.name}`,
      description: 'Group',
      value: groupPercent(levels),
      reliability: reliabilityOf(group.display),
      command: 'level',
    });
  }

  // Two devices of one name on a map: each gets its id, on all of its objects alike.
  const deviceBase = (d: ProjectSnapshot['devices'][number]) => `${mapName.get(d.mapId) ?? ''}/${d.name}`;
  const sameName = new Map<string, number>();
  for (const d of snapshot.devices) sameName.set(deviceBase(d), (sameName.get(deviceBase(d)) ?? 0) + 1);

  for (const device of snapshot.devices) {
    const plain = deviceBase(device);
    const base = sameName.get(plain)! > 1 ? `${plain} #${device.id}` : plain;
    const t = deviceType(device.type);
    const reliability = reliabilityOf(device.display);
    const of = { source: 'device' as const, sourceId: device.id, reliability };
    if (t?.lighting && t.dimmable) {
      drafts.push({
        ...of,
        objectType: ObjectType.LIGHTING_OUTPUT,
        name: base,
        description: 'Light',
        value: lightPercent(device.type, device.status),
        command: 'level',
      });
    } else if (t?.lighting && t.onOff) {
      drafts.push({
        ...of,
        objectType: ObjectType.BINARY_LIGHTING_OUTPUT,
        name: base,
        description: 'Light',
        value: lightPercent(device.type, device.status) > 0 ? 1 : 0,
        command: 'onOff',
      });
    }
    drafts.push({
      ...of,
      objectType: ObjectType.ANALOG_INPUT,
      name: `${base} power`,
      description: 'Power, W',
      value: device.powerW ?? 0,
      units: EngineeringUnits.WATTS,
      command: null,
    });
    if (device.energyKwh !== null)
      drafts.push({
        ...of,
        source: 'energy',
        objectType: ObjectType.ANALOG_INPUT,
        name: `${base} energy`,
        description: 'Energy, kWh (the meter)',
        value: device.energyKwh,
        units: EngineeringUnits.KILOWATT_HOURS,
        command: null,
      });
    drafts.push({
      ...of,
      objectType: ObjectType.MULTI_STATE_VALUE,
      name: `${base} state`,
      description: 'State',
      value: stateNumber(device.display),
      command: null,
    });
  }

  for (const map of snapshot.maps) {
    const total = snapshot.devices.filter((d) => d.mapId === map.id).reduce((sum, d) => sum + (d.powerW ?? 0), 0);
    drafts.push({
      ...ok,
      source: 'map',
      sourceId: map.id,
      objectType: ObjectType.ANALOG_INPUT,
      name: `${map.name} total power`,
      description: 'Total power of the map, W',
      value: Math.round(total * 1000) / 1000,
      units: EngineeringUnits.WATTS,
      command: null,
    });
  }
  if (snapshot.scenes) drafts.push(sceneSelector(snapshot.scenes));
  return uniqueNames(drafts);
}

/** The state of the scene selector no scene has: before any run. */
export const NO_SCENE = 'none';

/**
 * The project's scene selector: a Multi-state Output whose states are "none" and then the scenes that run by
 * hand, oldest first (so a new scene adds a state at the end); Present_Value is the scene that ran last.
 */
function sceneSelector(scenes: NonNullable<ProjectSnapshot['scenes']>): ObjectDraft {
  let last = 0;
  scenes.list.forEach((scene, i) => {
    const latest = scenes.list[last - 1]?.lastRunAt ?? '';
    if (scene.lastRunAt !== null && scene.lastRunAt > latest) last = i + 1;
  });
  return {
    source: 'project',
    sourceId: scenes.projectId,
    objectType: ObjectType.MULTI_STATE_OUTPUT,
    name: 'Scenes',
    description: 'Scene selector: writing a state runs its scene',
    value: last + 1,
    reliability: 'ok',
    command: 'scene',
    states: [NO_SCENE, ...scenes.list.map((s) => s.name)],
    sceneIds: [null, ...scenes.list.map((s) => s.id)],
  };
}

/** Object names unique within the device: every object still sharing a name (a group and a light) gets its source and id appended. */
function uniqueNames(drafts: ObjectDraft[]): ObjectDraft[] {
  const count = new Map<string, number>();
  for (const d of drafts) count.set(d.name, (count.get(d.name) ?? 0) + 1);
  return drafts.map((d) => (count.get(d.name)! > 1 ? { ...d, name: `${d.name} #${d.source}${d.sourceId}` } : d));
}

/** The drafts with their kept instances; a draft without one is left out (the caller allocates first). */
export function withInstances(drafts: readonly ObjectDraft[], instances: ReadonlyMap<string, number>): BacnetObject[] {
  const objects: BacnetObject[] = [];
  for (const draft of drafts) {
    const instance = instances.get(instanceKey(draft));
    if (instance !== undefined) objects.push({ ...draft, instance });
  }
  return objects;
}
