import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { PUSH_STATE_COLOURS, pushStateName } from '@lumigrid/contract/browser';

/** A news item's review state in the colours of spec section 9: pending amber, failed red, passed green, draft dark blue. */
export function PushStateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  const name = pushStateName(state);
  return (
    <Tag color={PUSH_STATE_COLOURS[name]} bordered={false} data-testid={`push-state-${name}`} style={{ marginInlineEnd: 0 }}>
      {t(`push.state.${name}`)}
    </Tag>
  );
}
