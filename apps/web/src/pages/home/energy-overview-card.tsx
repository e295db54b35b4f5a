import { useMemo } from 'react';
import { Col, Row, Skeleton, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { useEnergyTotal } from '../../features/energy/api.ts';
import { energyTotalBody, type EnergyPeriod } from '../../features/energy/energy-charts.ts';
import { OverviewCard } from './overview-card.tsx';

/** Used and saved in one period, with the saving rate under them. */
function PeriodEnergy({ projectId, period }: { projectId: string; period: Extract<EnergyPeriod, 'day' | 'month'> }) {
  const { t } = useTranslation();
  const today = useMemo(() => dayjs(), []);
  const total = useEnergyTotal(energyTotalBody({ projectId }, period, today));
  const totals = total.data?.totals;
  if (!totals) return <Skeleton active paragraph={{ rows: 1 }} />;
  const kwh = (kind: 'used' | 'saved', value: number, color?: string) => (
    <Statistic
      title={t(`home.energy.${kind}`)}
      value={value}
      precision={2}
      suffix="kWh"
      valueStyle={{ fontSize: 22, whiteSpace: 'nowrap', color }}
      valueRender={(node) => <span data-testid={`home-energy-${period}-${kind}`}>{node}</span>}
    />
  );
  return (
    <>
      <Typography.Text strong>{t(`home.energy.${period}`)}</Typography.Text>
      <Row gutter={16} style={{ marginTop: 8 }}>
        <Col span={12}>{kwh('used', totals.energyKwh)}</Col>
        <Col span={12}>{kwh('saved', totals.savedKwh, totals.savedKwh > 0 ? '#237804' : undefined)}</Col>
      </Row>
      <Typography.Text type="secondary">
        {totals.rate === null ? t('home.energy.noRate') : t('home.energy.rate', { rate: totals.rate.toFixed(2) })}
      </Typography.Text>
    </>
  );
}

/** Today's and this month's energy of the project, opening the energy statistics. */
export function EnergyOverviewCard({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  return (
    <OverviewCard id="energy" title={t('home.energy.card')} to="/energy/index">
      <Row gutter={[24, 16]}>
        <Col xs={24} sm={12}>
          <PeriodEnergy projectId={projectId} period="day" />
        </Col>
        <Col xs={24} sm={12}>
          <PeriodEnergy projectId={projectId} period="month" />
        </Col>
      </Row>
    </OverviewCard>
  );
}
