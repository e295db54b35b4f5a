import type { TFunction } from 'i18next';
import { EMERGENCY_STATE_CODES, errorMessage, type EmergencyTestKind, type ErrorCode } from '@lumigrid/contract/browser';
import { currentLang } from '../../i18n/index.ts';
import { resultKey } from './task-form.ts';
import type en from '../../i18n/en.json';

type StateKey = keyof (typeof en)['emergency']['state'];
type ResultKey =
  | `emergency.functionResult.${keyof (typeof en)['emergency']['functionResult']}`
  | `emergency.lifeResult.${keyof (typeof en)['emergency']['lifeResult']}`;

/** An emergency state code of spec section 4 in the user's language; a code outside the table shows as itself. */
export function stateText(t: TFunction, state: number | null | undefined): string {
  if (state === null || state === undefined) return t('emergency.noState');
  return (EMERGENCY_STATE_CODES as readonly number[]).includes(state)
    ? t(`emergency.state.${String(state) as StateKey}`)
    : t('emergency.unknownState', { code: state });
}

/** A result code in the words of its test kind (function 0/1/2, life 0-4). */
export function resultText(t: TFunction, test: EmergencyTestKind, result: number | null): string | undefined {
  const key = resultKey(test, result) as ResultKey | undefined;
  return key ? t(key) : undefined;
}

/** A business error's message in the user's language, from the contract's catalogue ("Invalid Input (15-254)"). */
export const codeText = (code: ErrorCode) => errorMessage(code, currentLang());

/** A test's duration with its unit: seconds for a function test, minutes for a life test. */
export function durationText(t: TFunction, test: EmergencyTestKind, duration: number): string {
  return test === 'function' ? t('emergency.unit.seconds', { count: duration }) : t('emergency.unit.minutes', { count: duration });
}

/** A measured number with its unit, or a dash when the light did not give it. */
export function measured(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined ? '—' : String(Number(value.toFixed(digits)));
}
