import type { RuleObject } from 'antd/es/form';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Check } from './validators.ts';

/** Turns a pure check into an antd rule whose message is in the current language. */
export function useRule() {
  const { t } = useTranslation();
  return (check: Check, vars?: Record<string, string | number>, required = true): RuleObject => ({
    required,
    validator: async (_rule, raw: unknown) => {
      const key = check(typeof raw === 'string' ? raw : '');
      if (key) throw new Error(t(key, vars ?? {}));
    },
  });
}

/**
 * Turns a check that answers a catalogue key (or nothing) into an antd rule; `vars` fill the limits its
 * messages name, in the current language.
 */
export function useKeyedRule(vars: Record<string, string | number>) {
  const { t } = useTranslation();
  return <V>(check: (value: V) => ParseKeys | undefined, required = false): RuleObject => ({
    required,
    validator: async (_rule, value: V) => {
      const key = check(value);
      if (key) throw new Error(t(key, vars));
    },
  });
}

/**
 * The rules of a form checked as a person leaves each field, for forms whose Form has
 * `validateTrigger={BLUR_VALIDATION}`: a filled field is checked on leaving it, an empty one only when it
 * is emptied by typing or the form is sent, so tabbing through empty fields raises no error.
 */
export function useBlurRules() {
  const { t } = useTranslation();
  return (check: Check, vars?: Record<string, string | number>, required = true): RuleObject[] => {
    const problem = (raw: unknown) => {
      const key = check(typeof raw === 'string' ? raw : '');
      if (key) throw new Error(t(key, vars ?? {}));
    };
    const empty = (raw: unknown) => raw === undefined || raw === null || raw === '';
    return [
      {
        required,
        validateTrigger: 'onChange',
        validator: async (_rule, raw: unknown) => {
          if (empty(raw)) problem(raw);
        },
      },
      {
        validateTrigger: 'onBlur',
        validator: async (_rule, raw: unknown) => {
          if (!empty(raw)) problem(raw);
        },
      },
    ];
  };
}

/** The triggers of a form that uses useBlurRules. */
export const BLUR_VALIDATION = ['onChange', 'onBlur'];
