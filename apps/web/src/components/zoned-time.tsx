import { Space, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { currentLangOf } from '../features/projects/site-time.ts';
import { formatTime, zoneLabel } from '../i18n/time-format.ts';

/** An instant at the clock of each zone, one line per zone with the zone named; the empty mark for none. */
export function ZonedTime({
  t,
  at,
  zones,
  testId,
}: {
  t: TFunction;
  at: number | string | null;
  zones: readonly string[];
  testId?: string;
}) {
  const { i18n } = useTranslation();
  if (at === null || zones.length === 0) return <span data-testid={testId}>{t('common.empty')}</span>;
  const lang = currentLangOf(i18n.language);
  // The time stays on one line; the zone's name goes under it when the column is narrow.
  return (
    <Space direction="vertical" size={0} data-testid={testId}>
      {zones.map((zone) => (
        <span key={zone}>
          <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{formatTime(at, { zone, lang, label: false })}</span>{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
            ({zoneLabel(zone)})
          </Typography.Text>
        </span>
      ))}
    </Space>
  );
}
