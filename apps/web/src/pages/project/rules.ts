import type { RuleObject } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { RULE_VARS, type InstallationRuleKey } from '../../features/projects/checks.ts';

/** Turns an installation check into an antd rule with its message in the current language. */
export function useInstallationRule() {
  const { t } = useTranslation();
  return <V>(check: (value: V) => InstallationRuleKey | undefined, required = false): RuleObject => ({
    required,
    validator: async (_rule, value: V) => {
      const key = check(value);
      if (key) throw new Error(t(key, RULE_VARS));
    },
  });
}
