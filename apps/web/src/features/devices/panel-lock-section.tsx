import { Alert, Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { LockOutlined, ReloadOutlined, UnlockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { parseStatus, type PanelLockAccount } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import { usePanelLockAccounts } from './api.ts';

/** Whether a panel's status string says it is locked; undefined before its first report. */
export function panelLocked(type: number, status: string): boolean | undefined {
  if (!status) return undefined;
  const parsed = parseStatus(type, status);
  return parsed.ok && parsed.value.family === 'panel' ? parsed.value.locked : undefined;
}

/**
 * A panel's lock (read_panel_lock_accounts): whether it is locked, as its status says and as it answers, and
 * the accounts (key cards, PIN users) it keeps that may unlock it, read from the panel through its gateway
 * each time the section opens.
 */
export function PanelLockSection({ panelId, type, status, offline }: { panelId: string; type: number; status: string; offline: boolean }) {
  const { t } = useTranslation();
  const read = usePanelLockAccounts(panelId, !offline);
  const locked = read.data?.locked ?? panelLocked(type, status);

  return (
    <div data-testid="panel-lock">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space size={8}>
          <Typography.Text strong>{t('panelLock.title')}</Typography.Text>
          {locked !== undefined && (
            <Tag
              color={locked ? 'volcano' : 'green'}
              icon={locked ? <LockOutlined /> : <UnlockOutlined />}
              bordered={false}
              data-testid="panel-lock-state"
            >
              {t(locked ? 'panelLock.locked' : 'panelLock.unlocked')}
            </Tag>
          )}
        </Space>
        <Button
          size="small"
          icon={<ReloadOutlined />}
          loading={read.isFetching}
          disabled={offline}
          onClick={() => void read.refetch()}
          data-testid="panel-lock-read"
        >
          {t('panelLock.read')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '2px 0 8px' }}>
        {t(offline ? 'panelLock.offline' : 'panelLock.hint')}
      </Typography.Paragraph>
      {read.error ? (
        <Alert type="error" showIcon message={read.error instanceof ApiError ? read.error.message : String(read.error)} />
      ) : (
        !offline && (
          <Table<PanelLockAccount>
            size="small"
            rowKey="slot"
            pagination={false}
            loading={read.isFetching}
            dataSource={read.data?.accounts ?? []}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('panelLock.none')} /> }}
            columns={[
              { title: t('panelLock.slot'), dataIndex: 'slot', width: 76 },
              {
                title: t('panelLock.account'),
                dataIndex: 'account',
                render: (account: string) => <Typography.Text code>{account}</Typography.Text>,
              },
              { title: t('panelLock.name'), dataIndex: 'name', render: (name: string) => name || t('common.empty') },
            ]}
            data-testid="panel-lock-accounts"
          />
        )
      )}
    </div>
  );
}
