import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HeatLevel } from '@lumigrid/contract/browser';
import { levelBands } from './heatmap-model.ts';

/** The project's levels under the plan: a colour swatch and its band of sensing counts each. */
export function HeatLegend({ levels, maxCount, windowMinutes }: { levels: readonly HeatLevel[]; maxCount: number; windowMinutes: number }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="heatmap-legend"
      style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 16, marginTop: 12, justifyContent: 'space-between' }}
    >
      <Space size={12} wrap>
        <Typography.Text type="secondary">{t('heatmap.legend')}</Typography.Text>
        {levelBands(levels).map((band) => (
          <Space key={band.to} size={6}>
            <span
              style={{
                display: 'inline-block',
                width: 28,
                height: 12,
                borderRadius: 3,
                background: band.color,
                border: '1px solid rgba(0,0,0,0.08)',
              }}
            />
            <Typography.Text>{`${band.from}-${band.to} %`}</Typography.Text>
          </Space>
        ))}
      </Space>
      <Typography.Text type="secondary">{t('heatmap.legendHint', { max: maxCount, minutes: windowMinutes })}</Typography.Text>
    </div>
  );
}
