import type { RuleObject } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { GATEWAY_RULE_VARS, type GatewayRuleKey } from '../../features/gateways/status.ts';

/** Turns a gateway check into an antd rule with its message in the current language. */
export function useGatewayRule() {
  const { t } = useTranslation();
  return <V>(check: (value: V) => GatewayRuleKey | undefined, required = false): RuleObject => ({
    required,
    validator: async (_rule, value: V) => {
      const key = check(value);
      if (key) throw new Error(t(key, GATEWAY_RULE_VARS));
    },
  });
}
