import { SENSOR_MODES } from '@lumigrid/protocol';
import { Type, type Static } from 'typebox';
import { deviceType, type DeviceTypeInfo } from './device-types.ts';
import type { ErrorCode } from './errors.ts';

/**
 * The device parameter table of spec section 5: which parameters each kind has, with the range, unit and
 * message code of each. Where the spec gives several ranges for one row, each applies to a different
 * parameter or kind (docs/decisions.md, "Device parameters").
 */

/** The rows of the spec's table. */
export const PARAM_ROWS = [
  'brightness',
  'holdTime',
  'sensingCount',
  'lux',
  'commandInterval',
  'maxPower',
  'powerIncreasePeriod',
  'recoveryTime',
  'minBrightness',
  'fadeTime',
  'reportInterval',
  'powerLevel',
  'temperature',
  'curtainRunTime',
  'lampCount',
  'batteryCells',
  'sequenceNumber',
  'functionTestDuration',
  'lifeTestDuration',
] as const;
export type ParamRow = (typeof PARAM_ROWS)[number];

export interface RangeRule {
  kind: 'range';
  row: ParamRow;
  min: number;
  max: number;
  /** The value must be a multiple of this. */
  step?: number;
  unit: string;
  /** The message when the value is out of range, not a number or not a multiple of `step`. */
  code: ErrorCode;
}
export interface ChoiceRule {
  kind: 'choice';
  choices: readonly (string | boolean)[];
  code: ErrorCode;
}
/** One range per switch channel (lamp count per channel). */
export interface PerChannelRule {
  kind: 'perChannel';
  rule: RangeRule;
}
export type ParamRule = RangeRule | ChoiceRule | PerChannelRule;

const range = (row: ParamRow, min: number, max: number, unit: string, code: ErrorCode, step?: number): RangeRule =>
  step ? { kind: 'range', row, min, max, step, unit, code } : { kind: 'range', row, min, max, unit, code };

/** Every range of the spec's table, named by what it limits. */
export const PARAM_RANGES = {
  brightness: range('brightness', 0, 100, '%', 100220),
  /** Motion sensor hold time in independent mode, seconds in steps of 10 (the device keeps tens of seconds). */
  holdTime: range('holdTime', 10, 2540, 's', 100221, 10),
  /** Hold time in default linkage: 0 hands the lights straight back to the linked sensor. */
  linkageHoldTime: range('holdTime', 0, 2540, 's', 100222, 10),
  /** Daylight sensor hold time before it adjusts, seconds. */
  daylightHoldTime: range('holdTime', 1, 7200, 's', 100223),
  /** Stairs mode: how long the lights stay on after the last detection, seconds (up to 16 h). */
  stairsHoldTime: range('holdTime', 1, 57600, 's', 100224),
  sensingCount: range('sensingCount', 10, 2540, '', 100225),
  /** Daylight sensor target illuminance. */
  lux: range('lux', 0, 60000, 'lx', 100226),
  /** Motion sensor: ambient light above which a detection does not switch lights on. */
  motionLux: range('lux', 0, 4000, 'lx', 100227),
  commandInterval: range('commandInterval', 10, 3600, 's', 100228),
  maxPower: range('maxPower', 1, 99, '%', 100229),
  powerIncreasePeriod: range('powerIncreasePeriod', 1, 59999, 'h', 100230),
  recoveryTime: range('recoveryTime', 0, 5000, 's', 100231),
  minBrightness: range('minBrightness', 0, 30, '%', 100232),
  /** Fade time of a Zigbee light, tenths of a second. */
  fadeTime: range('fadeTime', 0, 254, '0.1 s', 100233),
  /** Fade time of a DALI light, tenths of a second. */
  daliFadeTime: range('fadeTime', 0, 65535, '0.1 s', 100234),
  reportInterval: range('reportInterval', 10, 900, 's', 100235),
  powerLevel: range('powerLevel', 1, 100, '%', 100236),
  temperature: range('temperature', -20, 50, '°C', 100237),
  curtainRunTime: range('curtainRunTime', 10, 254, 's', 100238),
  lampCount: range('lampCount', 0, 25, '', 100239),
  batteryCells: range('batteryCells', 1, 20, '', 100240),
  /** Scene key of a six-key scene panel: six scenes and the all-off key. */
  scenePanelSequence: range('sequenceNumber', 1, 7, '', 100241),
  /** Scene page of a smart touch panel. */
  smartPanelSequence: range('sequenceNumber', 1, 8, '', 100242),
  functionTestDuration: range('functionTestDuration', 15, 254, 's', 100243),
  lifeTestDuration: range('lifeTestDuration', 5, 600, 'min', 100244),
} as const satisfies Record<string, RangeRule>;

/** Sensor mode of spec section 4 as a parameter. */
export { SENSOR_MODES };
export type SensorModeName = (typeof SENSOR_MODES)[number];
const SENSOR_MODE_RULE: ChoiceRule = { kind: 'choice', choices: SENSOR_MODES, code: 100245 };
const ON_OFF_RULE: ChoiceRule = { kind: 'choice', choices: [true, false], code: 100001 };

const P = PARAM_RANGES;

function lightParams(t: DeviceTypeInfo): Record<string, ParamRule> {
  const rules: Record<string, ParamRule> = { reportInterval: P.reportInterval };
  if (t.dimmable) {
    Object.assign(rules, {
      brightness: P.brightness,
      minBrightness: P.minBrightness,
      fadeTime: t.dali ? P.daliFadeTime : P.fadeTime,
      maxPower: P.maxPower,
      powerIncreasePeriod: P.powerIncreasePeriod,
      recoveryTime: P.recoveryTime,
      minPowerLevel: P.powerLevel,
      maxPowerLevel: P.powerLevel,
    });
  }
  return rules;
}

/** The parameters a device type has, by field name; undefined for an unknown type. */
export function paramRules(typeCode: number): Readonly<Record<string, ParamRule>> | undefined {
  const t = deviceType(typeCode);
  if (!t) return undefined;
  if (t.emergency) {
    return {
      ...lightParams(t),
      batteryCells: P.batteryCells,
      functionTestDuration: P.functionTestDuration,
      lifeTestDuration: P.lifeTestDuration,
    };
  }
  if (t.lighting) return lightParams(t);
  if (t.channels > 0) return { lampCounts: { kind: 'perChannel', rule: P.lampCount }, reportInterval: P.reportInterval };
  if (t.curtain) return { curtainRunTime: P.curtainRunTime };
  switch (t.sensor) {
    case 'motion':
      return {
        sensorMode: SENSOR_MODE_RULE,
        holdTime: P.holdTime,
        linkageHoldTime: P.linkageHoldTime,
        sensingCount: P.sensingCount,
        lux: P.motionLux,
        brightness: P.brightness,
        commandInterval: P.commandInterval,
        stairsMode: ON_OFF_RULE,
        stairsHoldTime: P.stairsHoldTime,
        reportInterval: P.reportInterval,
      };
    case 'daylight':
      return {
        sensorMode: SENSOR_MODE_RULE,
        lux: P.lux,
        holdTime: P.daylightHoldTime,
        commandInterval: P.commandInterval,
        reportInterval: P.reportInterval,
      };
    case 'temperature':
      return { lowTemperature: P.temperature, highTemperature: P.temperature, reportInterval: P.reportInterval };
    case 'cct':
      return { reportInterval: P.reportInterval };
    default:
      break;
  }
  if (t.panel === 'scene6') return { sequenceNumber: P.scenePanelSequence };
  if (t.panel === 'smart') return { sequenceNumber: P.smartPanelSequence };
  return {};
}

/** A field that failed, with the message code to show beside it. */
export interface ParamProblem {
  /** The field name; `lampCounts[1]` for one channel. */
  field: string;
  code: ErrorCode;
}

function rangeProblem(rule: RangeRule, value: unknown): ErrorCode | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return rule.code;
  if (!Number.isInteger(value)) return 100246;
  if (value < rule.min || value > rule.max) return rule.code;
  if (rule.step && value % rule.step !== 0) return rule.code;
  return undefined;
}

/** The fields of gateway/v1/set_mawa_params (every microwave sensor of a gateway), with the row of spec section 5 each is checked against. */
export const MICROWAVE_FIELDS = ['holdTime', 'lux', 'brightness', 'standbyBrightness'] as const;
export type MicrowaveField = (typeof MICROWAVE_FIELDS)[number];
const MICROWAVE_RULES: Record<MicrowaveField, RangeRule> = {
  holdTime: PARAM_RANGES.holdTime,
  lux: PARAM_RANGES.motionLux,
  brightness: PARAM_RANGES.brightness,
  standbyBrightness: PARAM_RANGES.minBrightness,
};

/** The message code for a microwave parameter the server refuses; an absent one is allowed (not sent). */
export function microwaveProblem(field: MicrowaveField, value: number | null | undefined): ErrorCode | undefined {
  return value === null || value === undefined ? undefined : rangeProblem(MICROWAVE_RULES[field], value);
}

/**
 * Checks the parameters an editor sets on one device (set_device_params and its kin): every field must be
 * one the type has and within its range. Cross-field rules: the minimum power level below the maximum.
 * Returns every problem, an empty list when all is well.
 */
export function validateParams(typeCode: number, params: Readonly<Record<string, unknown>>): ParamProblem[] {
  const rules = paramRules(typeCode);
  if (!rules) return [{ field: 'type', code: 100208 }];
  const problems: ParamProblem[] = [];
  const channels = deviceType(typeCode)?.channels ?? 0;
  for (const [field, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    const rule = Object.hasOwn(rules, field) ? rules[field] : undefined;
    if (!rule) {
      problems.push({ field, code: 100209 });
      continue;
    }
    if (rule.kind === 'range') {
      const code = rangeProblem(rule, value);
      if (code) problems.push({ field, code });
    } else if (rule.kind === 'choice') {
      if (!rule.choices.includes(value as string | boolean)) problems.push({ field, code: rule.code });
    } else if (!Array.isArray(value) || value.length === 0 || value.length > channels) {
      problems.push({ field, code: rule.rule.code });
    } else {
      value.forEach((v: unknown, i) => {
        const code = rangeProblem(rule.rule, v);
        if (code) problems.push({ field: `${field}[${i}]`, code });
      });
    }
  }
  const { minPowerLevel: lo, maxPowerLevel: hi } = params ?? {};
  if (typeof lo === 'number' && typeof hi === 'number' && !problems.some((p) => p.field.endsWith('PowerLevel')) && lo >= hi) {
    problems.push({ field: 'minPowerLevel', code: 100210 });
  }
  return problems;
}

/** Parameter values as they travel: numbers, the sensor mode, stairs mode on/off, lamp counts per channel. */
export const DeviceParamValueSchema = Type.Union([
  Type.Number(),
  Type.Boolean(),
  Type.String({ maxLength: 32 }),
  Type.Array(Type.Integer(), { maxItems: 4 }),
]);

/** Parameters of one device by field name; ranges are checked by `validateParams` so each field gets its message. */
export const DeviceParamsSchema = Type.Record(Type.String(), DeviceParamValueSchema, {
  description: 'Parameters by name (paramRules of the device type): holdTime, lux, sensorMode, fadeTime, ...',
});
export type DeviceParams = Static<typeof DeviceParamsSchema>;
