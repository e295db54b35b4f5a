import { useEffect, useRef, useState } from 'react';
import { Button, Modal, Popconfirm, Progress, Result, Table, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GatewaySyncItem } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { EmptyHint } from '../../components/empty-hint.tsx';
import { gatewayApi, gatewayKeys, type useSyncStatus } from '../../features/gateways/api.ts';
import { syncLabel, syncPercent } from '../../features/gateways/status.ts';

/** Spec section 9: the gateway list modal and the sync progress modal are 720 px wide. */
const MODAL_WIDTH = 720;

type Phase = { kind: 'running'; startedAt: number } | { kind: 'done' } | { kind: 'failed'; text: string; percent: number };

/**
 * One sync of spec section 4, from the moment it is asked for: one percent every 100 ms up to 99 while the
 * gateway works, then 100 when it acknowledged (the sync call answers then), or the server's localised failure.
 */
function useSyncRun(item: GatewaySyncItem) {
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
  return { phase, percent };
}

/**
 * The progress of one sync, in the place of the list it was started from (a second modal on top of the
 * first would hide it), titled by how it stands, with the way back to the list once it ended.
 */
function SyncProgress({ item, onBack }: { item: GatewaySyncItem; onBack(): void }) {
  const { t } = useTranslation();
  const { phase, percent } = useSyncRun(item);
  const title =
    phase.kind === 'running'
      ? t('gateway.sync.progressTitle', { name: item.name })
      : phase.kind === 'done'
        ? t('gateway.sync.doneTitle', { name: item.name })
        : t('gateway.sync.failedTitle', { name: item.name });
  return (
    <div data-testid="sync-progress">
      <Typography.Title level={5} style={{ marginTop: 0 }} data-testid="sync-progress-title">
        {title}
      </Typography.Title>
      <Progress
        aria-label={title}
        percent={percent}
        status={phase.kind === 'failed' ? 'exception' : phase.kind === 'done' ? 'success' : 'active'}
      />
      {phase.kind === 'running' && <Typography.Text type="secondary">{t('gateway.sync.running')}</Typography.Text>}
      {phase.kind === 'done' && <Result status="success" title={t('gateway.sync.done', { name: item.name })} />}
      {phase.kind === 'failed' && <Result status="error" title={t('gateway.sync.failed')} subTitle={phase.text} />}
      {phase.kind !== 'running' && (
        <div style={{ textAlign: 'right' }}>
          <Button type="primary" onClick={onBack}>
            {t('gateway.sync.back')}
          </Button>
        </div>
      )}
    </div>
  );
}

/** The gateways not synced, each with its sync action, or the progress of the sync started from the list. */
export function SyncDialog({
  open,
  status,
  syncing,
  operate,
  onSyncing,
  onClose,
}: {
  open: boolean;
  status: ReturnType<typeof useSyncStatus>;
  syncing: GatewaySyncItem | undefined;
  operate: boolean;
  onSyncing: (item: GatewaySyncItem | undefined) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      width={MODAL_WIDTH}
      title={t('gateway.sync.listTitle')}
      footer={null}
      // While a sync runs the dialog stays: closing it would hide a result the user waits for.
      closable={!syncing}
      maskClosable={!syncing}
      onCancel={onClose}
    >
      {syncing ? (
        <SyncProgress key={syncing.id} item={syncing} onBack={() => onSyncing(undefined)} />
      ) : (
        <Table<GatewaySyncItem>
          rowKey="id"
          size="small"
          pagination={false}
          loading={status.isFetching && !status.data}
          dataSource={status.data ?? []}
          scroll={{ y: 420 }}
          locale={{ emptyText: <EmptyHint text={t('gateway.sync.allSynced')} /> }}
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
                  <Popconfirm
                    title={t('gateway.sync.confirmTitle')}
                    description={t('gateway.sync.confirm', { name: row.name })}
                    okText={t('gateway.sync.action')}
                    cancelText={t('gateway.cancel')}
                    disabled={!row.online || row.status === 2}
                    onConfirm={() => onSyncing(row)}
                  >
                    <Typography.Link disabled={!row.online || row.status === 2}>{t('gateway.sync.action')}</Typography.Link>
                  </Popconfirm>
                ) : null,
            },
          ]}
        />
      )}
    </Modal>
  );
}
