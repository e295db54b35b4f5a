import { userMay } from '@lumigrid/contract';
import { useEffect, useRef, useState } from 'react';
import { App, Button, Modal, Progress, Result, Table, Tag, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GatewaySyncItem } from '@lumigrid/contract';
import { ApiError } from '../../api/client.ts';
import { useMe } from '../../features/auth/api.ts';
import { gatewayApi, gatewayKeys, SYNC_DETAILS_POLL_MS, SYNC_STATUS_POLL_MS, useSyncStatus } from '../../features/gateways/api.ts';
import { syncLabel, syncPercent, unsyncedCount } from '../../features/gateways/status.ts';

/** Spec section 9: the gateway list modal and the sync progress modal are 720 px wide. */
const MODAL_WIDTH = 720;

type Phase = { kind: 'running'; startedAt: number } | { kind: 'done' } | { kind: 'failed'; text: string; percent: number };

/**
 * The sync progress modal of spec section 4: one percent every 100 ms up to 99 while the gateway works,
 * then 100 when it acknowledged (the sync call answers then), or the server's localised failure.
 */
function SyncProgressModal({ item, onClose }: { item: GatewaySyncItem; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>(() => ({ kind: 'running', startedAt: Date.now() }));
  const [now, setNow] = useState(() => Date.now());
  const started = useRef(false);

  useEffect(() => {
    // Strict mode mounts twice; one sync per opening.
    if (started.current) return;
    started.current = true;
    gatewayApi
      .sync(item.id)
      .then(() => setPhase({ kind: 'done' }))
      .catch((error: unknown) => {
        const text = error instanceof ApiError && error.message ? error.message : t('gateway.sync.failed');
        // The bar stays where it stopped, so the failure reads against the time it took.
        setPhase((current) => ({
          kind: 'failed',
          text,
          percent: current.kind === 'running' ? syncPercent(Date.now() - current.startedAt, false) : 0,
        }));
      })
      .finally(() => void queryClient.invalidateQueries({ queryKey: gatewayKeys.all }));
  }, [item.id, queryClient, t]);

  useEffect(() => {
    if (phase.kind !== 'running') return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [phase.kind]);

  const percent =
    phase.kind === 'running' ? syncPercent(now - phase.startedAt, false) : phase.kind === 'failed' ? phase.percent : syncPercent(0, true);
  return (
    <Modal
      open
      width={MODAL_WIDTH}
      title={t('gateway.sync.progressTitle', { name: item.name })}
      closable={phase.kind !== 'running'}
      maskClosable={false}
      onCancel={onClose}
      footer={
        phase.kind === 'running' ? null : (
          <Button type="primary" onClick={onClose}>
            {t('gateway.close')}
          </Button>
        )
      }
    >
      <div data-testid="sync-progress">
        <Progress percent={percent} status={phase.kind === 'failed' ? 'exception' : phase.kind === 'done' ? 'success' : 'active'} />
        {phase.kind === 'running' && <Typography.Text type="secondary">{t('gateway.sync.running')}</Typography.Text>}
        {phase.kind === 'done' && <Result status="success" title={t('gateway.sync.done', { name: item.name })} />}
        {phase.kind === 'failed' && <Result status="error" title={t('gateway.sync.failed')} subTitle={phase.text} />}
      </div>
    </Modal>
  );
}

/** The header banner of spec section 2: how many gateways are not synced, with their details and a sync action. */
export function SyncBanner() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { data: user } = useMe();
  const [open, setOpen] = useState(false);
  const status = useSyncStatus(open ? SYNC_DETAILS_POLL_MS : SYNC_STATUS_POLL_MS);
  const [syncing, setSyncing] = useState<GatewaySyncItem>();
  const count = unsyncedCount(status.data);
  const operate = userMay(user, 'control');

  const confirmSync = (item: GatewaySyncItem) =>
    modal.confirm({
      title: t('gateway.sync.confirmTitle'),
      content: t('gateway.sync.confirm', { name: item.name }),
      okText: t('gateway.sync.action'),
      cancelText: t('gateway.cancel'),
      onOk: () => setSyncing(item),
    });

  if (count === 0 && !open && !syncing) return null;
  return (
    <>
      {count > 0 && (
        <Tag color="warning" icon={<SyncOutlined />} className="lg-sync-banner" data-testid="sync-banner">
          {t('gateway.sync.banner', { count })}{' '}
          <Typography.Link
            onClick={() => {
              setOpen(true);
              // The count may be up to one poll old; the table shows presence and state as they are now.
              void status.refetch();
            }}
          >
            {t('gateway.sync.details')}
          </Typography.Link>
        </Tag>
      )}
      <Modal open={open} width={MODAL_WIDTH} title={t('gateway.sync.listTitle')} footer={null} onCancel={() => setOpen(false)}>
        <Table<GatewaySyncItem>
          rowKey="id"
          size="small"
          pagination={false}
          loading={status.isFetching && !status.data}
          dataSource={status.data ?? []}
          scroll={{ y: 420 }}
          columns={[
            { title: t('gateway.field.name'), dataIndex: 'name', ellipsis: true },
            { title: t('gateway.field.project'), dataIndex: 'projectName', ellipsis: true },
            { title: t('gateway.field.building'), dataIndex: 'buildName', ellipsis: true },
            { title: t('gateway.field.map'), dataIndex: 'mapName', ellipsis: true },
            {
              title: t('gateway.field.syncStatus'),
              dataIndex: 'status',
              width: 130,
              render: (value: number, row) => {
                const label = syncLabel(value);
                return (
                  <>
                    <Tag color={label.color}>{t(label.key)}</Tag>
                    {!row.online && <Tag>{t('gateway.status.offline')}</Tag>}
                  </>
                );
              },
            },
            {
              title: t('gateway.actions'),
              width: 90,
              render: (_, row) =>
                operate ? (
                  <Typography.Link disabled={!row.online || row.status === 2} onClick={() => confirmSync(row)}>
                    {t('gateway.sync.action')}
                  </Typography.Link>
                ) : null,
            },
          ]}
        />
      </Modal>
      {syncing && <SyncProgressModal item={syncing} onClose={() => setSyncing(undefined)} />}
    </>
  );
}
