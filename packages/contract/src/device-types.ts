import { RATED_POWER_W, type DeviceKind } from '@lumigrid/protocol';
import { DEVICE_TYPE_CODES } from './gateways.ts';
import type { ErrorCode } from './errors.ts';
import type { Localised } from './lang.ts';

/**
 * The device type code table (spec sections 1 and 3). The codes of the kinds the gateway protocol names are
 * the ones imported devices already carry (`DEVICE_TYPE_CODES`; docs/decisions.md, "Device contract").
 */

/** Sensor kinds of spec section 1. */
export type SensorKind = 'motion' | 'daylight' | 'temperature' | 'cct';

/** How a type may be grouped (spec section 5): bridges, four-way switches and emergency lights only with their own. */
export type GroupingClass = 'general' | 'bridge' | 'fourWaySwitch' | 'emergency' | 'none';

export interface DeviceCapabilities {
  /** Switches on and off. */
  onOff: boolean;
  /** Brightness 0-100 % (0-254 on the device). */
  dimmable: boolean;
  /** Colour temperature 2700-6500 K. */
  cct: boolean;
  rgb: boolean;
  /** Switch channels, 1-4; 0 when it is not a switch. */
  channels: 0 | 1 | 2 | 3 | 4;
  curtain: boolean;
  sensor: SensorKind | null;
  panel: 'scene6' | 'smart' | null;
  /** Has devices behind it (bridges, the Wi-SUN bridge, super gateways). */
  bridge: boolean;
  wisun: boolean;
  emergency: boolean;
  dali: boolean;
  superGateway: boolean;
  /** Counts as a lighting device for the "at least one lighting device" rule. */
  lighting: boolean;
}

export interface DeviceTypeInfo extends DeviceCapabilities {
  code: number;
  /** The protocol's device kind (packages/protocol DEVICE_KINDS), or null when the protocol has none. */
  kind: string | null;
  grouping: GroupingClass;
  /** Rated power, W (protocol RATED_POWER_W): the baseline energy savings are measured against; 0 for what is not a light. */
  ratedPowerW: number;
}

const NONE: DeviceCapabilities = {
  onOff: false,
  dimmable: false,
  cct: false,
  rgb: false,
  channels: 0,
  curtain: false,
  sensor: null,
  panel: null,
  bridge: false,
  wisun: false,
  emergency: false,
  dali: false,
  superGateway: false,
  lighting: false,
};

const LIGHT: Partial<DeviceCapabilities> = { onOff: true, lighting: true };

/** Code of a DALI light (dimmable control gear behind a DALI bridge). */
export const DALI_LIGHT_CODE = DEVICE_TYPE_CODES.dali;

/** A light of a family the protocol's rated power table does not name. */
const DEFAULT_LIGHT_POWER_W = 20;

function row(code: number, kind: DeviceKind | null, grouping: GroupingClass, caps: Partial<DeviceCapabilities>): DeviceTypeInfo {
  const ratedPowerW = caps.lighting ? ((kind === null ? undefined : RATED_POWER_W[kind]) ?? DEFAULT_LIGHT_POWER_W) : 0;
  return { ...NONE, ...caps, code, kind, grouping, ratedPowerW };
}

/** Every device type code with its capabilities, by code. */
export const DEVICE_TYPES: Readonly<Record<number, DeviceTypeInfo>> = Object.freeze(
  Object.fromEntries(
    [
      row(DEVICE_TYPE_CODES['light-single'], 'light-single', 'general', LIGHT),
      row(DEVICE_TYPE_CODES['light-cct'], 'light-cct', 'general', { ...LIGHT, dimmable: true, cct: true }),
      row(DEVICE_TYPE_CODES['light-rgb'], 'light-rgb', 'general', { ...LIGHT, dimmable: true, rgb: true }),
      row(DEVICE_TYPE_CODES['light-dimmer'], 'light-dimmer', 'general', { ...LIGHT, dimmable: true }),
      row(DALI_LIGHT_CODE, 'dali', 'general', { ...LIGHT, dimmable: true, dali: true }),
      row(DEVICE_TYPE_CODES.curtain, 'curtain', 'general', { onOff: true, curtain: true }),
      row(DEVICE_TYPE_CODES['switch-1'], 'switch-1', 'general', { onOff: true, channels: 1 }),
      row(DEVICE_TYPE_CODES['switch-2'], 'switch-2', 'general', { onOff: true, channels: 2 }),
      row(DEVICE_TYPE_CODES['switch-3'], 'switch-3', 'general', { onOff: true, channels: 3 }),
      row(DEVICE_TYPE_CODES['switch-4'], 'switch-4', 'fourWaySwitch', { onOff: true, channels: 4 }),
      row(DEVICE_TYPE_CODES['sensor-motion'], 'sensor-motion', 'general', { onOff: true, sensor: 'motion' }),
      row(DEVICE_TYPE_CODES['sensor-daylight'], 'sensor-daylight', 'general', { onOff: true, sensor: 'daylight' }),
      row(DEVICE_TYPE_CODES['sensor-temperature'], 'sensor-temperature', 'general', { sensor: 'temperature' }),
      row(DEVICE_TYPE_CODES['sensor-cct'], 'sensor-cct', 'general', { sensor: 'cct' }),
      row(DEVICE_TYPE_CODES['panel-scene6'], 'panel-scene6', 'general', { panel: 'scene6' }),
      row(DEVICE_TYPE_CODES['panel-smart'], 'panel-smart', 'general', { panel: 'smart' }),
      row(DEVICE_TYPE_CODES.bridge, 'bridge', 'bridge', { bridge: true }),
      row(DEVICE_TYPE_CODES['bridge-wisun'], 'bridge-wisun', 'bridge', { bridge: true, wisun: true }),
      row(DEVICE_TYPE_CODES['bridge-dali'], 'bridge-dali', 'bridge', { bridge: true }),
      row(DEVICE_TYPE_CODES.emergency, 'emergency', 'emergency', { ...LIGHT, emergency: true }),
      row(DEVICE_TYPE_CODES['emergency-dimmable'], 'emergency-dimmable', 'emergency', { ...LIGHT, emergency: true, dimmable: true }),
      row(DEVICE_TYPE_CODES['super-gateway'], 'super-gateway', 'none', { bridge: true, superGateway: true }),
    ].map((t) => [t.code, Object.freeze(t)]),
  ),
);

/** All known codes, ascending. */
export const DEVICE_TYPE_CODE_LIST: readonly number[] = Object.keys(DEVICE_TYPES)
  .map(Number)
  .sort((a, b) => a - b);

/** The name of each device kind as people read it (reports, mails); the web catalogues say the same. */
export const DEVICE_KIND_TEXT: Record<DeviceKind, Localised> = {
  'light-single': { en: 'Single-colour light', cn: '单色灯', tc: '單色燈', ja: '単色照明' },
  'light-cct': { en: 'Colour-temperature light', cn: '色温灯', tc: '色溫燈', ja: '調色照明' },
  'light-rgb': { en: 'RGB light', cn: 'RGB灯', tc: 'RGB燈', ja: 'RGB照明' },
  'light-dimmer': { en: 'Dimmer', cn: '调光器', tc: '調光器', ja: '調光器' },
  curtain: { en: 'Curtain', cn: '窗帘', tc: '窗簾', ja: 'カーテン' },
  'switch-1': { en: '1-channel switch', cn: '一路开关', tc: '一路開關', ja: '1回路スイッチ' },
  'switch-2': { en: '2-channel switch', cn: '二路开关', tc: '二路開關', ja: '2回路スイッチ' },
  'switch-3': { en: '3-channel switch', cn: '三路开关', tc: '三路開關', ja: '3回路スイッチ' },
  'switch-4': { en: '4-channel switch', cn: '四路开关', tc: '四路開關', ja: '4回路スイッチ' },
  'sensor-motion': { en: 'Motion sensor', cn: '人体感应器', tc: '人體感應器', ja: '人感センサー' },
  'sensor-daylight': { en: 'Daylight sensor', cn: '日光传感器', tc: '日光感測器', ja: '照度センサー' },
  'sensor-temperature': { en: 'Temperature sensor', cn: '温度传感器', tc: '溫度感測器', ja: '温度センサー' },
  'sensor-cct': { en: 'Colour-temperature sensor', cn: '色温传感器', tc: '色溫感測器', ja: '色温度センサー' },
  'panel-scene6': { en: '6-key scene panel', cn: '六键场景面板', tc: '六鍵場景面板', ja: '6キーシーンパネル' },
  'panel-smart': { en: 'Smart touch panel', cn: '智能触摸面板', tc: '智慧觸控面板', ja: 'スマートタッチパネル' },
  bridge: { en: 'Bridge', cn: '网桥', tc: '網橋', ja: 'ブリッジ' },
  'bridge-wisun': { en: 'Wi-SUN bridge', cn: 'Wi-SUN网桥', tc: 'Wi-SUN網橋', ja: 'Wi-SUNブリッジ' },
  emergency: { en: 'Emergency light', cn: '应急灯', tc: '應急燈', ja: '非常灯' },
  'emergency-dimmable': { en: 'Dimmable emergency light', cn: '可调光应急灯', tc: '可調光應急燈', ja: '調光式非常灯' },
  'super-gateway': { en: 'Super gateway', cn: '超级网关', tc: '超級閘道', ja: 'スーパーゲートウェイ' },
  'bridge-dali': { en: 'DALI bridge', cn: 'DALI网桥', tc: 'DALI網橋', ja: 'DALIブリッジ' },
  dali: { en: 'DALI light', cn: 'DALI灯', tc: 'DALI燈', ja: 'DALI照明' },
};

export function deviceType(code: number): DeviceTypeInfo | undefined {
  return Object.hasOwn(DEVICE_TYPES, code) ? DEVICE_TYPES[code] : undefined;
}

export function isDeviceTypeCode(code: unknown): code is number {
  return typeof code === 'number' && deviceType(code) !== undefined;
}

/** The protocol kind's code, or undefined for a kind the table does not know. */
export function typeCodeOfKind(kind: string): number | undefined {
  return DEVICE_TYPE_CODE_LIST.find((c) => DEVICE_TYPES[c]?.kind === kind);
}

const codesWhere = (test: (t: DeviceTypeInfo) => boolean): readonly number[] =>
  Object.freeze(DEVICE_TYPE_CODE_LIST.filter((c) => test(DEVICE_TYPES[c] as DeviceTypeInfo)));

/** The type families of spec section 3, as lists of codes. */
export const DEVICE_FAMILIES = Object.freeze({
  singleColour: codesWhere((t) => t.kind === 'light-single'),
  colourTemperature: codesWhere((t) => t.cct),
  rgb: codesWhere((t) => t.rgb),
  switches: codesWhere((t) => t.channels > 0),
  motion: codesWhere((t) => t.sensor === 'motion'),
  daylight: codesWhere((t) => t.sensor === 'daylight'),
  sensor: codesWhere((t) => t.sensor !== null),
  dali: codesWhere((t) => t.dali),
  dimming: codesWhere((t) => t.dimmable && t.lighting),
  panel: codesWhere((t) => t.panel !== null),
  emergency: codesWhere((t) => t.emergency),
  wisun: codesWhere((t) => t.wisun),
  bridge: codesWhere((t) => t.bridge && !t.superGateway),
  curtain: codesWhere((t) => t.curtain),
  fourWaySwitch: codesWhere((t) => t.channels === 4),
  scenePanel: codesWhere((t) => t.panel === 'scene6'),
  superGateway: codesWhere((t) => t.superGateway),
  /**
   * Types whose devices may be changed to another type of this list in one go (batch_alter_devices): the
   * ordinary lights, which a gateway cannot always tell apart when they join. The spec does not list them.
   */
  batchChangeable: codesWhere((t) => t.lighting && !t.emergency && !t.dali),
});
export type DeviceFamily = keyof typeof DEVICE_FAMILIES;

/** True when `code` is in the family. */
export function inFamily(family: DeviceFamily, code: number): boolean {
  return DEVICE_FAMILIES[family].includes(code);
}

/** True when devices of type `from` may be changed to `to` in a batch change. */
export function canBatchChange(from: number, to: number): boolean {
  return inFamily('batchChangeable', from) && inFamily('batchChangeable', to);
}

/**
 * The grouping rules of spec section 5 for the device types of one group, as the spec's message code, or
 * undefined when the group is allowed. Bridges and four-way switches form groups of their own kind and need
 * no lighting device; every other group needs at least one.
 */
export function groupingProblem(types: readonly number[]): ErrorCode | undefined {
  if (types.length === 0) return 110009;
  const infos = types.map(deviceType);
  if (infos.some((t) => t === undefined || t.grouping === 'none')) return 100201;
  const classes = new Set(infos.map((t) => (t as DeviceTypeInfo).grouping));
  if (classes.size > 1) {
    if (classes.has('bridge') || classes.has('fourWaySwitch')) return 100202;
    return 100203;
  }
  const only = [...classes][0];
  if (only === 'bridge' || only === 'fourWaySwitch') return undefined;
  if (!infos.some((t) => t?.lighting)) return 100204;
  return undefined;
}
