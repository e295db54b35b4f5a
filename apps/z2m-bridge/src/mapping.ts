import type { DeviceKind } from '@lumigrid/protocol';
import { ACCESS, flatExposes, ieeeToAddr, type Expose, type NumericExpose, type SpecificExpose, type Z2mDevice } from './z2m-formats.ts';

/** A light's settable features and their ranges, as its definition exposes them. */
export interface LightFeatures {
  /** The property of its on/off (state, or state_l1 on an endpoint). */
  state: string;
  brightness?: { property: string; max: number };
  /** Colour temperature in mireds, with the range the device takes. */
  colorTemp?: { property: string; min: number; max: number };
  /** How its colour is set: CIE xy or hue/saturation (the `color` property either way). */
  color?: 'xy' | 'hs';
}

/** What the bridge found a device can do: which Zigbee2MQTT properties carry each of the platform's fields. */
export interface Capabilities {
  light?: LightFeatures;
  /** A switch's outputs in channel order (state_l1, state_l2, ...), or the single `state`. */
  channels?: string[];
  cover?: { state: string; position?: string };
  occupancy?: string;
  illuminance?: string;
  temperature?: string;
  battery?: string;
  power?: string;
  energy?: string;
  voltage?: string;
  current?: string;
  /** A button's actions in the order its definition lists them: key 1 is the first. */
  actions?: string[];
  /** Firmware updates through bridge/request/device/ota_update. */
  ota: boolean;
}

export interface MappedDevice {
  ieee: string;
  addr: string;
  friendlyName: string;
  kind: DeviceKind;
  model: string;
  vendor: string;
  networkAddress: string;
  firmware: string;
  capabilities: Capabilities;
}

/** A device the bridge does not offer the platform, and why: listed in the log, never guessed. */
export interface RefusedDevice {
  ieee: string;
  friendlyName: string;
  model: string;
  reason: string;
}

/** The exposes of a definition sorted by what they are, the input of the mapping table. */
export interface ExposeSummary {
  lights: SpecificExpose[];
  switches: SpecificExpose[];
  covers: SpecificExpose[];
  /** Specific exposes no kind takes (lock, fan, climate). */
  unsupported: SpecificExpose[];
  generic: Map<string, Expose>;
}

/** Channels a Lumigrid switch has at most (switch-1 ... switch-4). */
export const MAX_SWITCH_CHANNELS = 4;
/** Keys of a Lumigrid scene panel (panel-scene6). */
export const PANEL_KEYS = 6;

/** Binary sensors the platform has no kind for; a device that has one is refused rather than taken as a panel. */
const UNMODELLED_SENSORS = ['contact', 'water_leak', 'vibration', 'smoke', 'gas', 'carbon_monoxide'] as const;

const byName = (exposes: readonly Expose[], name: string) => exposes.find((e) => e.name === name);
const reported = (e: Expose | undefined) => e !== undefined && ((e.access ?? 0) & ACCESS.state) !== 0;

export function summarise(exposes: readonly Expose[]): ExposeSummary {
  const summary: ExposeSummary = { lights: [], switches: [], covers: [], unsupported: [], generic: new Map() };
  for (const e of exposes) {
    if (e.type === 'light') summary.lights.push(e);
    else if (e.type === 'switch') summary.switches.push(e);
    else if (e.type === 'cover') summary.covers.push(e);
    else if (e.type === 'lock' || e.type === 'fan' || e.type === 'climate') summary.unsupported.push(e);
    // Configuration and diagnostics (a sensor's sensitivity, a linkquality) are no measurement.
    else if (e.name && e.category !== 'config' && !summary.generic.has(e.name)) summary.generic.set(e.name, e);
  }
  return summary;
}

function lightFeatures(light: SpecificExpose): LightFeatures {
  const features = light.features;
  const state = byName(features, 'state');
  const brightness = byName(features, 'brightness') as NumericExpose | undefined;
  const colorTemp = byName(features, 'color_temp') as NumericExpose | undefined;
  const xy = byName(features, 'color_xy');
  const hs = byName(features, 'color_hs');
  return {
    state: state?.property ?? 'state',
    ...(brightness ? { brightness: { property: brightness.property, max: brightness.value_max ?? 254 } } : {}),
    ...(colorTemp ? { colorTemp: { property: colorTemp.property, min: colorTemp.value_min ?? 153, max: colorTemp.value_max ?? 500 } } : {}),
    ...(xy ? { color: 'xy' as const } : hs ? { color: 'hs' as const } : {}),
  };
}

/** What a light with these features is on the platform: colour first, then white tunable, dimmable, on/off. */
function lightKind(light: LightFeatures): DeviceKind {
  if (light.color) return 'light-rgb';
  if (light.colorTemp) return 'light-cct';
  if (light.brightness) return 'light-dimmer';
  return 'light-single';
}

type Rule = {
  kind: string;
  /** What the rule takes, as docs/zigbee2mqtt.md states it. */
  takes: string;
  /** The kind and the capabilities, a refusal reason, or undefined when the rule does not apply. */
  apply(s: ExposeSummary): { kind: DeviceKind; capabilities: Omit<Capabilities, 'ota'> } | { refuse: string } | undefined;
};

/**
 * The mapping table: the first rule that applies decides. docs/zigbee2mqtt.md carries the same table; the
 * tests hold real definitions from zigbee-herdsman-converters to it.
 */
export const MAPPING_RULES: readonly Rule[] = [
  {
    kind: 'refused',
    takes: 'a lock, fan or thermostat (climate) expose: no lighting kind controls them',
    apply: (s) => (s.unsupported.length ? { refuse: `exposes a ${s.unsupported[0]!.type}, which no Lumigrid kind controls` } : undefined),
  },
  {
    kind: 'light-rgb | light-cct | light-dimmer | light-single',
    takes:
      'one light expose: color_xy or color_hs -> light-rgb, else color_temp -> light-cct, else brightness -> light-dimmer, else light-single',
    apply: (s) => {
      if (s.lights.length === 0) return undefined;
      if (s.lights.length > 1) return { refuse: `has ${s.lights.length} lights on separate endpoints; a Lumigrid device is one light` };
      const light = lightFeatures(s.lights[0]!);
      return { kind: lightKind(light), capabilities: { light } };
    },
  },
  {
    kind: 'curtain',
    takes: 'one cover expose (open/close/stop, position when exposed)',
    apply: (s) => {
      if (s.covers.length === 0) return undefined;
      if (s.covers.length > 1) return { refuse: `has ${s.covers.length} covers; a Lumigrid curtain is one` };
      const features = s.covers[0]!.features;
      const position = byName(features, 'position');
      return {
        kind: 'curtain',
        capabilities: {
          cover: { state: byName(features, 'state')?.property ?? 'state', ...(position ? { position: position.property } : {}) },
        },
      };
    },
  },
  {
    kind: 'switch-1 ... switch-4',
    takes: '1-4 switch exposes (one per endpoint); more than 4 are refused',
    apply: (s) => {
      if (s.switches.length === 0) return undefined;
      if (s.switches.length > MAX_SWITCH_CHANNELS)
        return { refuse: `has ${s.switches.length} switch outputs; a Lumigrid switch has at most ${MAX_SWITCH_CHANNELS}` };
      const channels = s.switches.map((sw) => byName(sw.features, 'state')?.property ?? 'state');
      return { kind: `switch-${channels.length}` as DeviceKind, capabilities: { channels } };
    },
  },
  {
    kind: 'sensor-motion',
    takes: 'an occupancy binary (presence too), with illuminance and battery when exposed',
    apply: (s) => (reported(s.generic.get('occupancy')) ? { kind: 'sensor-motion', capabilities: { occupancy: 'occupancy' } } : undefined),
  },
  {
    kind: 'sensor-daylight',
    takes: 'an illuminance numeric (lx) without occupancy',
    apply: (s) => (illuminanceOf(s) ? { kind: 'sensor-daylight', capabilities: {} } : undefined),
  },
  {
    kind: 'refused',
    takes: 'a contact, water leak, vibration, smoke, gas or carbon monoxide sensor: the platform has no such sensor kind',
    apply: (s) => {
      const found = UNMODELLED_SENSORS.find((name) => reported(s.generic.get(name)));
      return found ? { refuse: `senses ${found}, which no Lumigrid sensor kind reports` } : undefined;
    },
  },
  {
    kind: 'panel-scene6',
    takes: 'an action enum (buttons, remotes, scene switches): its first six actions are keys 1-6',
    apply: (s) => {
      const action = s.generic.get('action');
      if (action?.type !== 'enum' || action.values.length === 0) return undefined;
      return { kind: 'panel-scene6', capabilities: { actions: action.values.map(String).slice(0, PANEL_KEYS) } };
    },
  },
  {
    kind: 'sensor-temperature',
    takes: 'a temperature numeric (°C)',
    apply: (s) => (reported(s.generic.get('temperature')) ? { kind: 'sensor-temperature', capabilities: {} } : undefined),
  },
];

/** The illuminance property: `illuminance` (lx since Zigbee2MQTT 2.0) or the older `illuminance_lux`. */
function illuminanceOf(s: ExposeSummary): string | undefined {
  const lux = s.generic.get('illuminance_lux') ?? s.generic.get('illuminance');
  return lux?.type === 'numeric' && reported(lux) && (lux.unit === undefined || lux.unit === 'lx') ? lux.property : undefined;
}

/** Measurements that go with any kind when exposed: telemetry and the sensor fields of the state. */
function measurements(s: ExposeSummary): Omit<Capabilities, 'ota' | 'light' | 'channels' | 'cover' | 'actions'> {
  const numeric = (name: string, unit?: string) => {
    const e = s.generic.get(name);
    return e?.type === 'numeric' && reported(e) && (unit === undefined || e.unit === unit) ? e.property : undefined;
  };
  // Voltage and current are mains measurements only beside power: a battery sensor's voltage is its cell's.
  const metered = numeric('power', 'W') !== undefined;
  const found = {
    occupancy: reported(s.generic.get('occupancy')) ? 'occupancy' : undefined,
    illuminance: illuminanceOf(s),
    temperature: numeric('temperature', '°C'),
    battery: numeric('battery', '%'),
    power: numeric('power', 'W'),
    energy: numeric('energy', 'kWh'),
    voltage: metered ? numeric('voltage', 'V') : undefined,
    current: metered ? numeric('current', 'A') : undefined,
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined));
}

/** Decides what one entry of bridge/devices is on the platform; the coordinator itself is neither (undefined). */
export function mapDevice(device: Z2mDevice): MappedDevice | RefusedDevice | undefined {
  if (device.type === 'Coordinator') return undefined;
  const model = device.definition?.model ?? device.model_id ?? 'unknown';
  const refuse = (reason: string): RefusedDevice => ({ ieee: device.ieee_address, friendlyName: device.friendly_name, model, reason });
  const addr = ieeeToAddr(device.ieee_address);
  if (!addr) return refuse(`IEEE address ${device.ieee_address} is not 16 hex digits`);
  if (device.disabled) return refuse('disabled in Zigbee2MQTT');
  if (!device.supported || !device.definition) return refuse('not supported by Zigbee2MQTT (no definition)');
  if (!device.interview_completed) return refuse('interview not completed');
  const exposes = device.definition.exposes;
  const summary = summarise(exposes);
  for (const rule of MAPPING_RULES) {
    const outcome = rule.apply(summary);
    if (!outcome) continue;
    if ('refuse' in outcome) return refuse(outcome.refuse);
    return {
      ieee: device.ieee_address,
      addr,
      friendlyName: device.friendly_name,
      kind: outcome.kind,
      model: model.slice(0, 64),
      vendor: device.definition.vendor,
      networkAddress: device.network_address.toString(16).toUpperCase().padStart(4, '0'),
      firmware: (device.software_build_id ?? device.date_code ?? '').slice(0, 32),
      capabilities: { ...measurements(summary), ...outcome.capabilities, ota: device.definition.supports_ota },
    };
  }
  const names = [...new Set(flatExposes(exposes).map((e) => e.name ?? e.type))].slice(0, 8).join(', ');
  return refuse(`its exposes (${names || 'none'}) fit no Lumigrid kind`);
}

export function isMapped(device: MappedDevice | RefusedDevice): device is MappedDevice {
  return 'kind' in device;
}
