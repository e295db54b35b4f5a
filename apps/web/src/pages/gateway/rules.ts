import { useKeyedRule } from '../../components/form-rules.ts';
import { GATEWAY_RULE_VARS } from '../../features/gateways/status.ts';

/** Turns a gateway check into an antd rule with its message in the current language. */
export const useGatewayRule = () => useKeyedRule(GATEWAY_RULE_VARS);
