import { Tag, Typography } from 'antd';
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

/** The reviewer's reason under a rejected news item's title, in both news tables. */
export function RejectionReason({ reason }: { reason: string | null | undefined }) {
  const { t } = useTranslation();
  if (!reason) return null;
  return (
    <Typography.Text type="danger" style={{ fontSize: 12 }}>
      {t('push.news.reasonShort', { reason })}
    </Typography.Text>
  );
}
