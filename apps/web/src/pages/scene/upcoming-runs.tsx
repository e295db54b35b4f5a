import { Alert, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UpcomingRun } from '../../features/scenes/upcoming.ts';
import { currentLangOf } from '../../features/projects/site-time.ts';
import { formatTime, localParts, weekdayOf, zoneLabel } from '../../i18n/time-format.ts';
import { codeText } from './scene-results.tsx';

/**
 * The next runs of a timed scene, each at its gateway's local time with the zone named, and what it does.
 * `unlocated` names gateways without a position, which cannot run sunrise/sunset times (310009).
 */
export function UpcomingRuns({
  runs,
  gatewayNames,
  unlocated = [],
  note,
}: {
  runs: readonly UpcomingRun[];
  gatewayNames: ReadonlyMap<string, string>;
  unlocated?: readonly string[];
  note?: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = currentLangOf(i18n.language);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="scene-upcoming">
      {unlocated.length > 0 && (
        <Alert type="warning" showIcon message={codeText(t, 310009)} description={unlocated.join(', ')} data-testid="scene-unlocated" />
      )}
      {note && <Typography.Text type="secondary">{note}</Typography.Text>}
      <List
        size="small"
        dataSource={[...runs]}
        locale={{ emptyText: t('scenes.upcoming.none') }}
        renderItem={(run, index) => {
          const weekday = weekdayOf(localParts(run.at, run.timezone).date, lang);
          return (
            <List.Item key={`${run.gatewayId}-${run.at}-${index}`}>
              <Space wrap size={12}>
                <Typography.Text strong style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {weekday} {formatTime(run.at, { zone: run.timezone, lang, label: false })}
                </Typography.Text>
                <Tag color={run.then === 'start' ? 'gold' : 'default'}>{t(`scenes.then.${run.then}`)}</Tag>
                <Typography.Text type="secondary">
                  {gatewayNames.get(run.gatewayId) ?? t('common.empty')} · {zoneLabel(run.timezone)}
                </Typography.Text>
              </Space>
            </List.Item>
          );
        }}
      />
    </Space>
  );
}
