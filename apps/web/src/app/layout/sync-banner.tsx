import { userMay } from '@lumigrid/contract/browser';
import { lazy, useState } from 'react';
import { Tag } from 'antd';
import { TextLink } from '../../components/text.tsx';
import { SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { GatewaySyncItem } from '@lumigrid/contract/browser';
import { OnceOpened } from '../../components/once-opened.tsx';
import { useMe } from '../../features/auth/api.ts';
import { SYNC_DETAILS_POLL_MS, SYNC_STATUS_POLL_MS, useSyncStatus } from '../../features/gateways/api.ts';
import { unsyncedCount } from '../../features/gateways/status.ts';

// The list and its progress load when first opened: every signed-in page carries the banner.
const SyncDialog = lazy(() => import('./sync-dialog.tsx').then((m) => ({ default: m.SyncDialog })));

/** The header banner of spec section 2: how many gateways are not synced, with their details and a sync action. */
export function SyncBanner() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  const [open, setOpen] = useState(false);
  const status = useSyncStatus(open ? SYNC_DETAILS_POLL_MS : SYNC_STATUS_POLL_MS);
  const [syncing, setSyncing] = useState<GatewaySyncItem>();
  const count = unsyncedCount(status.data);
  const operate = userMay(user, 'control');

  if (count === 0 && !open && !syncing) return null;
  return (
    <>
      {count > 0 && (
        <Tag color="warning" icon={<SyncOutlined />} className="lg-sync-banner" data-testid="sync-banner">
          <span className="lg-sync-banner__text">{t('gateway.sync.banner', { count })}</span>
          <span className="lg-sync-banner__count" aria-hidden="true">
            {count}
          </span>{' '}
          <TextLink
            onClick={() => {
              setOpen(true);
              // The count may be up to one poll old; the table shows presence and state as they are now.
              void status.refetch();
            }}
          >
            {t('gateway.sync.details')}
          </TextLink>
        </Tag>
      )}
      <OnceOpened open={open}>
        <SyncDialog open={open} status={status} syncing={syncing} operate={operate} onSyncing={setSyncing} onClose={() => setOpen(false)} />
      </OnceOpened>
    </>
  );
}
