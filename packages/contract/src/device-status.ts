import { FAULT_CODES } from '@lumigrid/protocol';
import { deviceType, type DeviceTypeInfo } from './device-types.ts';
import { CCT_DEVICE_MAX, LEVEL_MAX, cctValueToKelvin, kelvinToCctValue, type Rgb } from './device-units.ts';

/**
 * The colon-separated status string of spec section 3, read and written here and nowhere else. Every family
 * starts with the same four fields, `mode:on:level:cct` (level 0-254, cct the inverted device value 0-254),
 * writing 0 where a field does not apply; the family's own fields follow (docs/decisions.md):
 *
 * | family       | fields after the common four          |
 * |--------------|----------------------------------------|
 * | light        | rgb lights: `r:g:b` (0-255)            |
 * | switch       | one 0/1 per channel                    |
 * | curtain      | `position:motion` (0-100 %, 0 stopped 1 opening 2 closing) |
 * | motion       | `occupied:lux`                         |
 * | daylight     | `lux`                                  |
 * | temperature  | `tenths of a degree Celsius`           |
 * | cctSensor    | `kelvin:lux`                           |
 * | panel        | `last key (0 none):locked`             |
 * | bridge       | `devices behind it`                    |
 * | emergency    | `emergency state code:battery %`       |
 * | superGateway | `bridges behind it`                    |
 *
 * Fields after the last one a family knows are ignored, so a newer firmware may append fields.
 */

/** Sensor mode (spec section 4), the mode field of a sensor: independent is the default. */
export const SENSOR_MODE = { independent: 0, linkage: 1 } as const;

/** Curtain motion in the status string. */
export const CURTAIN_MOTION = ['stopped', 'opening', 'closing'] as const;
export type CurtainMotion = (typeof CURTAIN_MOTION)[number];

export interface LightStatus {
  family: 'light';
  mode: number;
  on: boolean;
  /** 0-254. */
  level: number;
  /** Kelvin, for colour-temperature lights only. */
  cct?: number;
  /** For RGB lights only. */
  rgb?: Rgb;
}
export interface SwitchStatus {
  family: 'switch';
  mode: number;
  /** One flag per channel; as many as the type has channels. */
  channels: boolean[];
}
export interface CurtainStatus {
  family: 'curtain';
  mode: number;
  /** Opening in percent: 0 closed, 100 fully open. */
  position: number;
  motion: CurtainMotion;
}
export interface MotionStatus {
  family: 'motion';
  /** SENSOR_MODE. */
  mode: number;
  /** Sensing switched on (control_sensor_onoff). */
  enabled: boolean;
  occupied: boolean;
  lux: number;
}
export interface DaylightStatus {
  family: 'daylight';
  mode: number;
  enabled: boolean;
  lux: number;
}
export interface TemperatureStatus {
  family: 'temperature';
  mode: number;
  /** Degrees Celsius, one decimal. */
  temperature: number;
}
export interface CctSensorStatus {
  family: 'cctSensor';
  mode: number;
  kelvin: number;
  lux: number;
}
export interface PanelStatus {
  family: 'panel';
  mode: number;
  /** The last key pressed, 1-8; 0 none. */
  key: number;
  locked: boolean;
}
export interface BridgeStatus {
  family: 'bridge';
  mode: number;
  devices: number;
}
export interface EmergencyStatus {
  family: 'emergency';
  mode: number;
  on: boolean;
  level: number;
  /** Emergency device state code of spec section 4 (15 fully charged, 16 charging, 30 offline...). */
  emergencyState: number;
  /** Battery charge in percent. */
  battery: number;
}
export interface SuperGatewayStatus {
  family: 'superGateway';
  mode: number;
  bridges: number;
}

export type DeviceStatus =
  | LightStatus
  | SwitchStatus
  | CurtainStatus
  | MotionStatus
  | DaylightStatus
  | TemperatureStatus
  | CctSensorStatus
  | PanelStatus
  | BridgeStatus
  | EmergencyStatus
  | SuperGatewayStatus;
export type StatusFamily = DeviceStatus['family'];

/** Why a status string or state was refused; `field` is the 0-based field index. */
export type StatusError =
  | { reason: 'unknownType' }
  | { reason: 'wrongFamily'; expected: StatusFamily }
  | { reason: 'fieldCount'; expected: number; got: number }
  | { reason: 'notInteger'; field: number }
  | { reason: 'outOfRange'; field: number };

export type StatusResult<T> = { ok: true; value: T } | { ok: false; error: StatusError };

/** The status family of a type code, or undefined for an unknown code. */
export function statusFamily(typeCode: number): StatusFamily | undefined {
  const t = deviceType(typeCode);
  return t ? familyOf(t) : undefined;
}

function familyOf(t: DeviceTypeInfo): StatusFamily {
  if (t.superGateway) return 'superGateway';
  if (t.bridge) return 'bridge';
  if (t.emergency) return 'emergency';
  if (t.channels > 0) return 'switch';
  if (t.curtain) return 'curtain';
  if (t.sensor === 'motion') return 'motion';
  if (t.sensor === 'daylight') return 'daylight';
  if (t.sensor === 'temperature') return 'temperature';
  if (t.sensor === 'cct') return 'cctSensor';
  if (t.panel) return 'panel';
  return 'light';
}

/** [min, max] of every field of a family, common four first. */
function layout(t: DeviceTypeInfo, family: StatusFamily): Array<[number, number]> {
  const head: Array<[number, number]> = [
    [0, 255],
    [0, 1],
    [0, LEVEL_MAX],
    [0, CCT_DEVICE_MAX],
  ];
  switch (family) {
    case 'light':
      return t.rgb ? [...head, [0, 255], [0, 255], [0, 255]] : head;
    case 'switch':
      return [...head, ...Array.from({ length: t.channels }, (): [number, number] => [0, 1])];
    case 'curtain':
      return [...head, [0, 100], [0, CURTAIN_MOTION.length - 1]];
    case 'motion':
      return [...head, [0, 1], [0, 100_000]];
    case 'daylight':
      return [...head, [0, 100_000]];
    case 'temperature':
      return [...head, [-600, 1500]];
    case 'cctSensor':
      return [...head, [1000, 20_000], [0, 100_000]];
    case 'panel':
      return [...head, [0, 8], [0, 1]];
    case 'bridge':
      return [...head, [0, 65_535]];
    case 'emergency':
      return [...head, [0, 99], [0, 100]];
    case 'superGateway':
      return [...head, [0, 65_535]];
  }
}

const INTEGER = /^-?[0-9]{1,9}$/;

function fail<T>(error: StatusError): StatusResult<T> {
  return { ok: false, error };
}

/** Reads a status string of a device of the given type. Never throws. */
export function parseStatus(typeCode: number, text: string): StatusResult<DeviceStatus> {
  const t = deviceType(typeCode);
  if (!t) return fail({ reason: 'unknownType' });
  const family = familyOf(t);
  const ranges = layout(t, family);
  const parts = typeof text === 'string' ? text.split(':') : [];
  if (parts.length < ranges.length) return fail({ reason: 'fieldCount', expected: ranges.length, got: text === '' ? 0 : parts.length });
  const f: number[] = [];
  for (let i = 0; i < ranges.length; i++) {
    const raw = (parts[i] as string).trim();
    if (!INTEGER.test(raw)) return fail({ reason: 'notInteger', field: i });
    const n = Number(raw);
    const [min, max] = ranges[i] as [number, number];
    if (n < min || n > max) return fail({ reason: 'outOfRange', field: i });
    f.push(n === 0 ? 0 : n);
  }
  const at = (i: number) => f[i] as number;
  const mode = at(0);
  switch (family) {
    case 'light': {
      const state: LightStatus = { family, mode, on: at(1) === 1, level: at(2) };
      if (t.cct) state.cct = cctValueToKelvin(at(3));
      if (t.rgb) state.rgb = { r: at(4), g: at(5), b: at(6) };
      return { ok: true, value: state };
    }
    case 'switch':
      return { ok: true, value: { family, mode, channels: f.slice(4).map((c) => c === 1) } };
    case 'curtain':
      return { ok: true, value: { family, mode, position: at(4), motion: CURTAIN_MOTION[at(5)] as CurtainMotion } };
    case 'motion':
      return { ok: true, value: { family, mode, enabled: at(1) === 1, occupied: at(4) === 1, lux: at(5) } };
    case 'daylight':
      return { ok: true, value: { family, mode, enabled: at(1) === 1, lux: at(4) } };
    case 'temperature':
      return { ok: true, value: { family, mode, temperature: at(4) / 10 } };
    case 'cctSensor':
      return { ok: true, value: { family, mode, kelvin: at(4), lux: at(5) } };
    case 'panel':
      return { ok: true, value: { family, mode, key: at(4), locked: at(5) === 1 } };
    case 'bridge':
      return { ok: true, value: { family, mode, devices: at(4) } };
    case 'emergency':
      return { ok: true, value: { family, mode, on: at(1) === 1, level: at(2), emergencyState: at(4), battery: at(5) } };
    case 'superGateway':
      return { ok: true, value: { family, mode, bridges: at(4) } };
  }
}

const bit = (b: boolean) => (b ? 1 : 0);

/** The fields of a state, in the order of its family's layout. */
function fields(t: DeviceTypeInfo, s: DeviceStatus): number[] | undefined {
  switch (s.family) {
    case 'light': {
      const cct = t.cct ? kelvinToCctValue(s.cct ?? NaN) : 0;
      const head = [s.mode, bit(s.on), s.level, cct];
      if (!t.rgb) return head;
      return s.rgb ? [...head, s.rgb.r, s.rgb.g, s.rgb.b] : undefined;
    }
    case 'switch':
      if (s.channels.length !== t.channels) return undefined;
      return [s.mode, bit(s.channels.some(Boolean)), 0, 0, ...s.channels.map(bit)];
    case 'curtain':
      return [s.mode, bit(s.position > 0), 0, 0, s.position, CURTAIN_MOTION.indexOf(s.motion)];
    case 'motion':
      return [s.mode, bit(s.enabled), 0, 0, bit(s.occupied), s.lux];
    case 'daylight':
      return [s.mode, bit(s.enabled), 0, 0, s.lux];
    case 'temperature':
      return [s.mode, 0, 0, 0, Math.round(s.temperature * 10)];
    case 'cctSensor':
      return [s.mode, 0, 0, 0, s.kelvin, s.lux];
    case 'panel':
      return [s.mode, 0, 0, 0, s.key, bit(s.locked)];
    case 'bridge':
      return [s.mode, 0, 0, 0, s.devices];
    case 'emergency':
      return [s.mode, bit(s.on), s.level, 0, s.emergencyState, s.battery];
    case 'superGateway':
      return [s.mode, 0, 0, 0, s.bridges];
  }
}

/**
 * Writes the status string of a device of the given type. Never throws: a state of another family, a
 * missing field or a value out of range gives an error instead. A colour temperature is written as the
 * nearest device value, so it reads back as the nearest kelvin the device can hold.
 */
export function formatStatus(typeCode: number, state: DeviceStatus): StatusResult<string> {
  const t = deviceType(typeCode);
  if (!t) return fail({ reason: 'unknownType' });
  const family = familyOf(t);
  if (state?.family !== family) return fail({ reason: 'wrongFamily', expected: family });
  if (family === 'light' && t.cct && (typeof (state as LightStatus).cct !== 'number' || !Number.isFinite((state as LightStatus).cct))) {
    return fail({ reason: 'outOfRange', field: 3 });
  }
  const ranges = layout(t, family);
  const values = fields(t, state);
  if (!values || values.length !== ranges.length) return fail({ reason: 'fieldCount', expected: ranges.length, got: values?.length ?? 0 });
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const [min, max] = ranges[i] as [number, number];
    if (!Number.isInteger(v)) return fail({ reason: 'notInteger', field: i });
    if (v < min || v > max) return fail({ reason: 'outOfRange', field: i });
  }
  return { ok: true, value: values.join(':') };
}

/**
 * Display states of spec section 4, as the floor plan colours them; `working` is a device that switches no
 * load (a sensor sensing, a panel, a bridge, a temperature sensor), which "on at full load" would misname.
 */
export const DISPLAY_STATES = ['onFull', 'onPartial', 'off', 'working', 'offline', 'failure'] as const;
export type DisplayState = (typeof DISPLAY_STATES)[number];

/** Type status of spec section 3: 0 normal, 2 offline. */
export const TYPE_STATUS = { normal: 0, offline: 2 } as const;

/** Emergency state 30 is offline; 1, 2, 3, 5 and 25 (battery low, faults, depleted) are failures. */
const EMERGENCY_OFFLINE = 30;
const EMERGENCY_FAILURES: readonly number[] = [1, 2, 3, 5, 25];

export interface DisplayInput {
  type: number;
  status: string;
  typeStatus: number;
  /** Fault code of spec section 4; 0 or absent when normal. */
  fault?: number | null;
}

/**
 * The display state of a device (spec section 4). Offline wins over failure, a failure over the switching
 * state; a device that never reported (empty status) is offline, an unreadable status a failure. "Full
 * load" is level 254, every channel on, or a curtain fully open; devices that do not switch a load
 * (sensors, panels, bridges) show working while they work, and a sensor switched off shows off.
 */
export function displayState(device: DisplayInput): DisplayState {
  if (device.typeStatus === TYPE_STATUS.offline || device.fault === FAULT_CODES.offline) return 'offline';
  // Every other non-zero fault code is a failure.
  if (device.fault) return 'failure';
  if (device.status === '') return 'offline';
  const parsed = parseStatus(device.type, device.status);
  if (!parsed.ok) return 'failure';
  const s = parsed.value;
  const dimmable = deviceType(device.type)?.dimmable ?? false;
  switch (s.family) {
    case 'emergency':
      if (s.emergencyState === EMERGENCY_OFFLINE) return 'offline';
      if (EMERGENCY_FAILURES.includes(s.emergencyState)) return 'failure';
      return lightDisplay(s.on, s.level, dimmable);
    case 'light':
      return lightDisplay(s.on, s.level, dimmable);
    case 'switch': {
      const on = s.channels.filter(Boolean).length;
      return on === 0 ? 'off' : on === s.channels.length ? 'onFull' : 'onPartial';
    }
    case 'curtain':
      return s.position === 0 ? 'off' : s.position === 100 ? 'onFull' : 'onPartial';
    case 'motion':
    case 'daylight':
      return s.enabled ? 'working' : 'off';
    default:
      return 'working';
  }
}

function lightDisplay(on: boolean, level: number, dimmable: boolean): DisplayState {
  if (!on) return 'off';
  if (!dimmable) return 'onFull';
  if (level === 0) return 'off';
  return level === LEVEL_MAX ? 'onFull' : 'onPartial';
}
