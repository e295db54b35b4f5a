import { useEffect } from 'react';
import { Divider, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TimeFormatter } from '../projects/site-time.ts';
import { useDeviceChanges } from './api.ts';
import { describeChange } from './describe.ts';

/**
 * The device panel's last changes from the audit trail: who switched, dimmed or edited the device, and when.
 * Asked again whenever the device reports (`status`), since a command is recorded just after its answer.
 */
export function DeviceChangesSection({ deviceId, status, time }: { deviceId: string; status: unknown; time: TimeFormatter['time'] }) {
  const { t } = useTranslation();
  const changes = useDeviceChanges(deviceId);
  const { refetch } = changes;
  useEffect(() => {
    void refetch();
  }, [status, refetch]);
  const list = changes.data?.list ?? [];
  return (
    <div data-testid="device-changes">
      <Divider style={{ margin: '4px 0' }} />
      <Typography.Text strong>{t('audit.device.title')}</Typography.Text>
      {changes.isError ? (
        <Typography.Paragraph type="secondary">{t('audit.device.unavailable')}</Typography.Paragraph>
      ) : list.length === 0 ? (
        <Typography.Paragraph type="secondary" data-testid="device-changes-empty">
          {changes.isPending ? '…' : t('audit.device.none')}
        </Typography.Paragraph>
      ) : (
        <List
          size="small"
          split={false}
          dataSource={list}
          renderItem={(entry) => {
            const change = describeChange(entry);
            return (
              <List.Item style={{ padding: '2px 0' }} data-testid={`device-change-${entry.id}`}>
                {t('audit.device.line', {
                  what: t(change.key, change.values),
                  user: entry.userName || t(`audit.actor.${entry.actor}`),
                  time: time(entry.at, 'second'),
                })}
              </List.Item>
            );
          }}
        />
      )}
    </div>
  );
}
