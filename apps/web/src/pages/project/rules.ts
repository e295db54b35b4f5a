import { useKeyedRule } from '../../components/form-rules.ts';
import { RULE_VARS } from '../../features/projects/checks.ts';

/** Turns an installation check into an antd rule with its message in the current language. */
export const useInstallationRule = () => useKeyedRule(RULE_VARS);
