import type { TFunction } from 'i18next';
import {
  DEVICE_TYPES,
  SENSOR_MODES,
  deviceType,
  errorMessage,
  paramRules,
  validateParams,
  type DeviceParams,
  type Lang,
  type ParamRule,
  type RangeRule,
  type SensorModeName,
} from '@lumigrid/contract/browser';

/** How the editor shows one parameter. */
export type ParamInput =
  | { kind: 'number'; rule: RangeRule }
  | { kind: 'mode'; choices: readonly SensorModeName[] }
  | { kind: 'flag' }
  | { kind: 'perChannel'; rule: RangeRule; channels: number };

export interface ParamField {
  /** The parameter's name in the contract (paramRules). */
  name: string;
  input: ParamInput;
}

function inputOf(rule: ParamRule, channels: number): ParamInput {
  if (rule.kind === 'range') return { kind: 'number', rule };
  if (rule.kind === 'perChannel') return { kind: 'perChannel', rule: rule.rule, channels };
  return rule.choices.every((c) => typeof c === 'boolean') ? { kind: 'flag' } : { kind: 'mode', choices: SENSOR_MODES };
}

/** The parameters of a device type in the order the editor shows them; empty for types without any. */
export function paramFields(typeCode: number): ParamField[] {
  const channels = deviceType(typeCode)?.channels ?? 0;
  return Object.entries(paramRules(typeCode) ?? {}).map(([name, rule]) => ({ name, input: inputOf(rule, channels) }));
}

/** The range hint beside a number field: "10-2540 s, steps of 10". */
export function rangeHint(rule: RangeRule): string {
  return `${rule.min} – ${rule.max}${rule.unit ? ` ${rule.unit}` : ''}`;
}

/**
 * The message for one field's value, exactly as the server would answer it (the same validateParams and the
 * same catalogue), or undefined when it is fine. An empty field is left alone: only filled fields are sent.
 */
export function fieldProblem(typeCode: number, name: string, value: unknown, lang: Lang): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const [problem] = validateParams(typeCode, { [name]: value });
  return problem ? errorMessage(problem.code, lang) : undefined;
}

/** Problems across fields (the minimum power level below the maximum), by form path (`['lampCounts', 1]` for a channel). */
export function formProblems(typeCode: number, values: DeviceParams, lang: Lang): Array<{ name: Array<string | number>; message: string }> {
  return validateParams(typeCode, values).map((p) => {
    const channel = /^(\w+)\[(\d+)\]$/.exec(p.field);
    return { name: channel ? [channel[1]!, Number(channel[2])] : [p.field], message: errorMessage(p.code, lang) };
  });
}

/** Only the filled fields of the form, as the call sends them. */
export function filledParams(values: Record<string, unknown>): DeviceParams {
  const out: DeviceParams = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.some((v) => v === undefined || v === null || v === '')) continue;
      out[name] = value.map(Number);
    } else out[name] = value as DeviceParams[string];
  }
  return out;
}

type Catalogue = (typeof import('../../i18n/en.json'))['deviceConfig'];
type TypeName = keyof Catalogue['types'];
type ParamName = keyof Catalogue['param'];
type FaultName = keyof Catalogue['faults'];

/** The protocol kind of a type, or 'dali' for DALI lights: the key of its name in the catalogues. */
export function typeNameKey(typeCode: number): `deviceConfig.types.${TypeName}` {
  const t = DEVICE_TYPES[typeCode];
  // Every kind has a name in the catalogues (param-fields.test.ts proves it).
  const name = (t ? (t.kind ?? (t.dali ? 'dali' : 'unknown')) : 'unknown') as TypeName;
  return `deviceConfig.types.${name}`;
}

/** A device type's name with its code: several codes share a family name. */
export function typeLabel(t: TFunction, code: number): string {
  return `${t(typeNameKey(code))} (${code})`;
}

/** The catalogue key of a parameter's label (every parameter of the table has one: param-fields.test.ts). */
export function paramLabelKey(name: string): `deviceConfig.param.${ParamName}` {
  return `deviceConfig.param.${name as ParamName}`;
}

/** The catalogue key of a fault code of spec section 4 (0-9). */
export function faultKey(code: number): `deviceConfig.faults.${FaultName}` {
  return `deviceConfig.faults.${String(code) as FaultName}`;
}
