import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Flex, Segmented, Skeleton, Space, Statistic, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { userMay, type EnergyTotal } from '@lumigrid/contract/browser';
import { useMe } from '../../features/auth/api.ts';
import { useCurrentProject } from '../../features/projects/project-select.tsx';
import { EnergyPlaceSelect } from '../../features/energy/energy-place-select.tsx';
import { useEnergyTotal } from '../../features/energy/api.ts';
import {
  ENERGY_PERIODS,
  energyChart,
  energyTotalBody,
  isFuture,
  periodChange,
  type EnergyChartTexts,
  type EnergyPeriod,
  type EnergyPlace,
} from '../../features/energy/energy-charts.ts';
import { EChart, useChartFont } from '../../components/echart.tsx';
import { CarbonFactor } from './carbon-factor.tsx';
import { monthName } from '../../i18n/time-format.ts';
import { currentLangOf } from '../../features/projects/site-time.ts';

const CHART_HEIGHT = 340;

/** Which totals a KPI shows; `lowerIsBetter` colours a fall green (energy used) instead of a rise. */
interface KpiSpec {
  id: 'energy' | 'saved' | 'rate' | 'carbon';
  value(totals: EnergyTotal['totals']): number | null;
  suffix: string;
  precision: number;
  lowerIsBetter?: boolean;
}

const KPIS: readonly KpiSpec[] = [
  { id: 'energy', value: (t) => t.energyKwh, suffix: 'kWh', precision: 2, lowerIsBetter: true },
  { id: 'saved', value: (t) => t.savedKwh, suffix: 'kWh', precision: 2 },
  { id: 'rate', value: (t) => t.rate, suffix: '%', precision: 2 },
  { id: 'carbon', value: (t) => t.carbonKg, suffix: 'kg', precision: 2 },
];

/** The change against the period before: an arrow, the percentage, green when it is for the better. */
function Change({
  current,
  previous,
  lowerIsBetter,
  period,
}: {
  current: number;
  previous: number;
  lowerIsBetter?: boolean;
  period: EnergyPeriod;
}) {
  const { t } = useTranslation();
  const change = periodChange(current, previous);
  const against = t(`energy.against.${period}`);
  if (change === null) return <Typography.Text type="secondary">{t('energy.noPrevious', { against })}</Typography.Text>;
  const better = lowerIsBetter ? change < 0 : change > 0;
  const colour = change === 0 ? undefined : better ? '#237804' : '#cf1322';
  return (
    <Typography.Text type="secondary">
      <span style={{ color: colour, whiteSpace: 'nowrap' }}>
        {change > 0 ? <ArrowUpOutlined /> : change < 0 ? <ArrowDownOutlined /> : null} {Math.abs(change)} %
      </span>{' '}
      {against}
    </Typography.Text>
  );
}

/**
 * /energy/index (spec section 2, energy statistics): what a project, building or map used and saved in a day
 * (by hour), a month (every day) or a year (12 months), the CO2 saved with the project's carbon factor, and how
 * each compares with the period before.
 */
export default function EnergyStatisticsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const fontFamily = useChartFont();
  const { data: user } = useMe();
  const { projectId: currentProjectId, tree } = useCurrentProject();
  const [chosen, setChosen] = useState<EnergyPlace>();
  const [period, setPeriod] = useState<EnergyPeriod>('month');
  const [date, setDate] = useState<Dayjs>(() => dayjs());

  const place = chosen ?? (currentProjectId ? { projectId: currentProjectId } : undefined);
  const total = useEnergyTotal(place && energyTotalBody(place, period, date));
  const data = total.data;

  const texts = useMemo<EnergyChartTexts>(
    () => ({
      used: t('energy.series.used'),
      saved: t('energy.series.saved'),
      rate: t('energy.series.rate'),
      monthName: (month) => monthName(month - 1, currentLangOf(i18n.language)),
    }),
    [t, i18n.language],
  );
  const chart = useMemo(() => data && energyChart(data, texts, fontFamily), [data, texts, fontFamily]);
  const nothingCounted = data && data.buckets.every((b) => b.energyKwh === 0 && b.savedKwh === 0);
  const chartTitle = t(`energy.chart.${period}`);

  return (
    <PageContainer
      title={t('energy.title')}
      content={t('energy.hint')}
      extra={
        <Button icon={<UnorderedListOutlined />} onClick={() => void navigate('/energy/detail')} data-testid="energy-open-records">
          {t('energy.openRecords')}
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <ProCard bordered>
          <Flex wrap gap={16} align="center" justify="space-between">
            <Space wrap size="middle">
              <EnergyPlaceSelect place={place} width={320} onChange={(next) => next && setChosen(next)} />
              <Segmented<EnergyPeriod>
                value={period}
                onChange={setPeriod}
                options={ENERGY_PERIODS.map((value) => ({ value, label: t(`energy.period.${value}`) }))}
                data-testid="energy-period"
              />
              <DatePicker
                picker={period === 'day' ? 'date' : period}
                value={date}
                allowClear={false}
                disabledDate={(day) => isFuture(day, period)}
                onChange={(day) => day && setDate(day)}
                data-testid="energy-date"
              />
            </Space>
            {place && data && <CarbonFactor projectId={place.projectId} factor={data.carbonFactor} editable={userMay(user, 'write')} />}
          </Flex>
        </ProCard>

        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))', gap: 16 }}>
          {KPIS.map((kpi) => {
            const value = data ? kpi.value(data.totals) : null;
            const previous = data ? kpi.value(data.previous) : null;
            return (
              <Card
                key={kpi.id}
                size="small"
                style={{ height: '100%' }}
                styles={{ body: { display: 'flex', flexDirection: 'column', gap: 4 } }}
              >
                <Typography.Text type="secondary">{t(`energy.kpi.${kpi.id}`)}</Typography.Text>
                {total.isLoading || tree.isLoading ? (
                  <Skeleton active paragraph={false} />
                ) : (
                  <>
                    <Statistic
                      value={value ?? '-'}
                      precision={value === null ? undefined : kpi.precision}
                      suffix={value === null ? undefined : kpi.suffix}
                      valueStyle={{ fontSize: 24 }}
                      valueRender={(node) => <span data-testid={`energy-kpi-${kpi.id}`}>{node}</span>}
                    />
                    {value !== null && previous !== null ? (
                      <Change current={value} previous={previous} lowerIsBetter={kpi.lowerIsBetter} period={period} />
                    ) : (
                      <Typography.Text type="secondary">
                        {t('energy.noPrevious', { against: t(`energy.against.${period}`) })}
                      </Typography.Text>
                    )}
                  </>
                )}
              </Card>
            );
          })}
        </div>

        <ProCard bordered title={chartTitle}>
          {total.isLoading || tree.isLoading ? (
            <Skeleton active paragraph={{ rows: 8 }} style={{ minHeight: CHART_HEIGHT }} />
          ) : !chart || nothingCounted ? (
            <Flex align="center" justify="center" style={{ height: CHART_HEIGHT }}>
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={place ? t('energy.empty') : t('energy.noPlace')} />
            </Flex>
          ) : (
            <EChart option={chart} height={CHART_HEIGHT} label={chartTitle} testId="energy-chart" />
          )}
        </ProCard>
        <Typography.Text type="secondary">{t('energy.savedHint')}</Typography.Text>
      </Flex>
    </PageContainer>
  );
}
