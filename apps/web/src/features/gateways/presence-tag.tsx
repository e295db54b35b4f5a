import type { Gateway } from '@lumigrid/contract/browser';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { presenceOf } from './status.ts';

/** A gateway's status as a tag (online, offline, restarting, updating, unknown), explained on hover where needed. */
export function PresenceTag({ gateway, testId }: { gateway: Pick<Gateway, 'online' | 'activity' | 'presence'>; testId?: string }) {
  const { t } = useTranslation();
  const presence = presenceOf(gateway);
  const tag = (
    <Tag color={presence.color} data-testid={testId}>
      {t(presence.key)}
    </Tag>
  );
  return presence.hint ? <Tooltip title={t(presence.hint)}>{tag}</Tooltip> : tag;
}
