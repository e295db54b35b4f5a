import type { RuleObject } from 'antd/es/form';
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
