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
  return (
    <>
      <Typography.Text strong>{t(`home.energy.${period}`)}</Typography.Text>
      <Row gutter={16} style={{ marginTop: 8 }}>
        <Col span={12}>
          <Statistic
            title={t('home.energy.used')}
            value={totals.energyKwh}
            precision={2}
            suffix="kWh"
            valueStyle={{ fontSize: 22, whiteSpace: 'nowrap' }}
            valueRender={(node) => <span data-testid={`home-energy-${period}-used`}>{node}</span>}
          />
        </Col>
        <Col span={12}>
          <Statistic
            title={t('home.energy.saved')}
            value={totals.savedKwh}
            precision={2}
            suffix="kWh"
            valueStyle={{ fontSize: 22, whiteSpace: 'nowrap', color: totals.savedKwh > 0 ? '#237804' : undefined }}
            valueRender={(node) => <span data-testid={`home-energy-${period}-saved`}>{node}</span>}
          />
        </Col>
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
