import { useMemo, useState } from 'react';
import { Button, Card, Col, DatePicker, Empty, Flex, Row, Segmented, Skeleton, Space, Statistic, Typography } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { PageContainer } from '../../components/page-container.tsx';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { DisplayState } from '@lumigrid/contract/browser';
import { useCurrentProject } from '../../features/projects/project-select.tsx';
import { withPaths } from '../../features/projects/tree.ts';
import { useAlertStatistics, useDeviceState } from '../../features/alerts/statistics-api.ts';
import {
  codeChart,
  deviceStateChart,
  lastDays,
  mapChart,
  overTimeChart,
  placeFilter,
  splitMinutes,
  statisticsBody,
  STATISTICS_UNITS,
  type ChartTexts,
  type DayRange,
  type DrillChart,
  type StatisticsPlace,
  type StatisticsUnit,
} from '../../features/alerts/statistics-charts.ts';
import { alertListHref, type AlertListLink } from '../../features/alerts/filters.ts';
import { EChart, useChartFont, type ChartClick } from '../../components/echart.tsx';
import { StatusPlaceSelect } from './status-place-select.tsx';

const DAY = 'YYYY-MM-DD';
const CHART_HEIGHT = 300;
const DEFAULT_DAYS = 30;

/** How many days back each preset of the period reaches, today included. */
const PRESET_DAYS = { last7: 7, last30: 30, last90: 90, last365: 365 } as const;

/** An empty chart says why instead of drawing bare axes. */
function NoData({ text }: { text: string }) {
  return (
    <Flex align="center" justify="center" style={{ height: CHART_HEIGHT }}>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />
    </Flex>
  );
}

/**
 * One chart in its card, named by the card's title: a skeleton while its data loads, the empty state when there
 * is nothing to draw, and what goes with the chart below it.
 */
function ChartCard({
  title,
  extra,
  loading,
  empty,
  option,
  testId,
  onClick,
  children,
}: {
  title: string;
  extra?: React.ReactNode;
  loading: boolean;
  empty?: string;
  option: React.ComponentProps<typeof EChart>['option'] | undefined;
  testId: string;
  onClick?(event: ChartClick): void;
  children?: React.ReactNode;
}) {
  const body = loading ? (
    <Skeleton active paragraph={{ rows: 7 }} style={{ minHeight: CHART_HEIGHT }} />
  ) : empty ? (
    <NoData text={empty} />
  ) : (
    option && (
      <>
        <EChart option={option} height={CHART_HEIGHT} label={title} testId={testId} onClick={onClick} />
        {children}
      </>
    )
  );
  return (
    <ProCard bordered title={title} extra={extra} style={{ height: '100%' }}>
      {body}
    </ProCard>
  );
}

/** One figure of the KPI row; the title may wrap, the figures stay level. */
function Kpi({
  id,
  title,
  value,
  suffix,
  danger,
}: {
  id: string;
  title: string;
  value: number | string;
  suffix?: string;
  danger?: boolean;
}) {
  return (
    <Card
      size="small"
      style={{ height: '100%' }}
      styles={{ body: { height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'space-between', gap: 4 } }}
    >
      {/* Japanese titles wrap between phrases, not inside a word. */}
      <Typography.Text type="secondary" style={{ wordBreak: 'auto-phrase' as React.CSSProperties['wordBreak'] }}>
        {title}
      </Typography.Text>
      <Statistic
        value={value}
        suffix={suffix}
        valueStyle={{ fontSize: 24, color: danger ? '#cf1322' : undefined }}
        valueRender={(node) => <span data-testid={`kpi-${id}`}>{node}</span>}
      />
    </Card>
  );
}

/**
 * /alert/index (spec section 2, fault statistics): for a project, building or map and a period, how many
 * faults were raised, of which kinds, when and where, how long they took to clear, and how the devices stand
 * now. A bar (or a code in the list under the chart) opens those faults in the fault list.
 */
export default function AlertStatisticsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fontFamily = useChartFont();
  const { projectId: currentProjectId, tree } = useCurrentProject();
  const [chosen, setChosen] = useState<StatisticsPlace>();
  const [range, setRange] = useState<DayRange>(() => lastDays(DEFAULT_DAYS));
  const [unit, setUnit] = useState<StatisticsUnit>('day');

  const place = chosen ?? (currentProjectId ? { projectId: currentProjectId } : undefined);
  const statistics = useAlertStatistics(place && statisticsBody(place, range, unit));
  const deviceState = useDeviceState(place && placeFilter(place));
  const stats = statistics.data;
  const devices = deviceState.data;

  const currentProjectName = useMemo(
    () =>
      withPaths(tree.data?.projects ?? [])
        .find(({ item }) => item.id === currentProjectId)
        ?.path.join(' / '),
    [tree.data, currentProjectId],
  );

  const texts = useMemo<ChartTexts>(
    () => ({
      faults: t('alertStats.series.faults'),
      devices: t('alertStats.series.devices'),
      codeName: (code) => t(`deviceConfig.faults.${code}`, { defaultValue: String(code) }),
      displayName: (state: DisplayState) => t(`deviceControl.display.${state}`),
      noMap: t('alertStats.noMap'),
      bucketName: (bucket, bucketUnit) => (bucketUnit === 'week' ? t('alertStats.weekOf', { day: bucket }) : bucket),
    }),
    [t],
  );

  const drill = (link: AlertListLink) =>
    void navigate(
      alertListHref({ projectId: place?.projectId, ...(place ? placeFilter(place) : {}), from: range.from, to: range.to, ...link }),
    );
  const onBar = (targets: Array<AlertListLink | undefined>) => (event: ChartClick) => {
    const target = event.componentType === 'series' ? targets[event.dataIndex] : undefined;
    if (target) drill(target);
  };

  // Built again only when the data or the language change, not on every poll that answers the same.
  const charts = useMemo(
    () =>
      stats && {
        byCode: codeChart(stats.byCode, texts, fontFamily),
        byMap: mapChart(stats.byMap, texts, fontFamily),
        overTime: overTimeChart(stats.overTime, range, unit, texts, fontFamily),
      },
    [stats, texts, fontFamily, range, unit],
  );
  const deviceChart = useMemo(() => devices && deviceStateChart(devices.display, texts, fontFamily), [devices, texts, fontFamily]);
  const { byCode, byMap, overTime } = charts ?? {};
  const noFaults = !stats || stats.total === 0;
  const loadingStats = tree.isLoading || statistics.isLoading;
  /** A chart of the faults counted; each bar opens the faults it counts. */
  const faultChart = (title: string, chart: DrillChart<AlertListLink> | undefined, testId: string, below?: React.ReactNode) => (
    <ChartCard
      title={title}
      loading={loadingStats}
      empty={noFaults || !chart ? t('alertStats.empty') : undefined}
      option={chart?.option}
      testId={testId}
      onClick={chart && onBar(chart.targets)}
    >
      {below}
    </ChartCard>
  );

  const meanToClear = () => {
    if (stats?.meanMinutesToClear === null || stats?.meanMinutesToClear === undefined) return '-';
    const parts = splitMinutes(stats.meanMinutesToClear);
    if (parts.lessThanMinute) return t('alertStats.duration.lessThanMinute');
    if (parts.days) return t('alertStats.duration.days', parts);
    if (parts.hours) return t('alertStats.duration.hours', parts);
    return t('alertStats.duration.minutes', parts);
  };
  const deviceCount = (count: number | undefined) => (count === undefined ? '-' : count);

  return (
    <PageContainer
      title={t('alertStats.title')}
      content={t('alertStats.hint')}
      extra={
        <Button icon={<UnorderedListOutlined />} onClick={() => drill({})} data-testid="stats-open-list">
          {t('alertStats.openList')}
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <ProCard bordered>
          <Space wrap size="middle">
            <Space size="small">
              <Typography.Text>{t('alertStats.place')}</Typography.Text>
              <StatusPlaceSelect value={place} fallbackLabel={currentProjectName} onChange={setChosen} />
            </Space>
            <Space size="small">
              <Typography.Text>{t('alertStats.period')}</Typography.Text>
              <DatePicker.RangePicker
                allowClear={false}
                value={[dayjs(range.from), dayjs(range.to)]}
                disabledDate={(day) => day.isAfter(dayjs(), 'day')}
                placeholder={[t('alertStats.rangeFrom'), t('alertStats.rangeTo')]}
                presets={Object.entries(PRESET_DAYS).map(([key, days]) => {
                  const preset = lastDays(days);
                  return {
                    label: t(`alertStats.preset.${key as keyof typeof PRESET_DAYS}`),
                    value: [dayjs(preset.from), dayjs(preset.to)] as [Dayjs, Dayjs],
                  };
                })}
                onChange={(days) => {
                  if (days?.[0] && days[1]) setRange({ from: days[0].format(DAY), to: days[1].format(DAY) });
                }}
                data-testid="stats-range"
              />
            </Space>
            <Segmented<StatisticsUnit>
              value={unit}
              onChange={setUnit}
              options={STATISTICS_UNITS.map((value) => ({ value, label: t(`alertStats.unit.${value}`) }))}
              data-testid="stats-unit"
            />
          </Space>
        </ProCard>

        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(130px, 1fr))', gap: 16 }}>
          <Kpi id="total" title={t('alertStats.kpi.total')} value={stats?.total ?? '-'} />
          <Kpi id="pending" title={t('alertStats.kpi.pending')} value={stats?.pending ?? '-'} />
          <Kpi id="open" title={t('alertStats.kpi.open')} value={stats?.open ?? '-'} danger={Boolean(stats?.open)} />
          <Kpi id="meanToClear" title={t('alertStats.kpi.meanToClear')} value={meanToClear()} />
          <Kpi
            id="failing"
            title={t('alertStats.kpi.failing')}
            value={deviceCount(devices?.display.failure)}
            danger={Boolean(devices?.display.failure)}
          />
          <Kpi id="offline" title={t('alertStats.kpi.offline')} value={deviceCount(devices?.display.offline)} />
          <Kpi
            id="gatewaysOffline"
            title={t('alertStats.kpi.gatewaysOffline')}
            value={deviceCount(devices?.gateways.offline)}
            suffix={devices ? `/ ${devices.gateways.online + devices.gateways.offline}` : undefined}
            danger={Boolean(devices?.gateways.offline)}
          />
        </div>

        <Row gutter={[16, 16]}>
          <Col xs={24} xl={16}>
            {faultChart(t('alertStats.chart.overTime'), overTime, 'chart-over-time')}
          </Col>
          <Col xs={24} xl={8}>
            <ChartCard
              title={t('alertStats.chart.deviceState')}
              extra={
                devices && <Typography.Text type="secondary">{t('alertStats.counts.devices', { count: devices.total })}</Typography.Text>
              }
              loading={tree.isLoading || deviceState.isLoading}
              empty={
                deviceState.isError && !devices
                  ? t('alertStats.unavailable')
                  : !devices || !deviceChart || devices.total === 0
                    ? t('alertStats.noDevices')
                    : undefined
              }
              option={deviceChart}
              testId="chart-device-state"
            />
          </Col>
          <Col xs={24} xl={12}>
            {faultChart(
              t('alertStats.chart.byCode'),
              byCode,
              'chart-by-code',
              // The same drill-down as the bars, for keyboards and screen readers.
              <Flex wrap gap={8} style={{ marginTop: 8 }} data-testid="code-links">
                {stats?.byCode.map((row) => (
                  <Button key={row.code} size="small" onClick={() => drill({ code: row.code })} data-testid={`code-link-${row.code}`}>
                    {texts.codeName(row.code)}
                    <Typography.Text strong>{row.count}</Typography.Text>
                  </Button>
                ))}
              </Flex>,
            )}
          </Col>
          <Col xs={24} xl={12}>
            {faultChart(t('alertStats.chart.byMap'), byMap, 'chart-by-map')}
          </Col>
        </Row>
        <Typography.Text type="secondary">{t('alertStats.drillHint')}</Typography.Text>
      </Flex>
    </PageContainer>
  );
}
