import { userDestination } from '@lumigrid/contract';
import { Space, Tag } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { alarmKeys, useAlarmSummary } from '../../features/alarms/api.ts';
import { bannerCounts, SEVERITY_COLOUR } from '../../features/alarms/severity.ts';
import { throttle } from '../../features/groups/group-state.ts';
import { useRealtime } from '../realtime-provider.tsx';

/**
 * The header's alarm banner: unacknowledged alarms by severity, read again on every notice of
 * /topic/alarms/{userId}; one link (keyboard reachable) to the alarm list. Nothing shows while none waits.
 */
export function AlarmBanner({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const summary = useAlarmSummary();
  // The server tells every change within 40 ms; the banner and alarm lists read again at most twice a second.
  const refresh = useMemo(() => throttle(() => void queryClient.invalidateQueries({ queryKey: alarmKeys.all }), 500), [queryClient]);
  useRealtime(userDestination('alarms', userId), refresh);
  const counts = bannerCounts(summary.data);
  if (counts.length === 0) return null;
  // The link's name is its text: the counts a sighted user reads, and around them what the bell says to them.
  return (
    <Link to="/alert/alarms" data-testid="alarm-banner" className="lg-alarm-banner">
      <Space size={2}>
        <BellOutlined aria-hidden />
        <span className="lg-visually-hidden">{t('alarms.banner.lead')} </span>
        {counts.map((c, i) => (
          <Tag key={c.severity} color={SEVERITY_COLOUR[c.severity]} bordered={false} data-testid={`alarm-banner-${c.severity}`}>
            {t('alarms.banner.part', { count: c.count, severity: t(`alarms.severity.${c.severity}`) })}
            {i < counts.length - 1 && <span className="lg-visually-hidden">, </span>}
          </Tag>
        ))}
        <span className="lg-visually-hidden">. {t('alarms.banner.open')}</span>
      </Space>
    </Link>
  );
}
