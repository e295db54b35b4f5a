import { useMemo } from 'react';
import * as echarts from 'echarts/core';
import { HeatmapChart } from 'echarts/charts';
import { VisualMapComponent } from 'echarts/components';
import type { EChartsCoreOption } from 'echarts/core';
import { useTranslation } from 'react-i18next';
import type { HeatLevel } from '@lumigrid/contract/browser';
import { EChart, useChartFont } from '../../components/echart.tsx';
import { levelBands, weekCells } from './heatmap-model.ts';

// The heatmap series and its colour scale are drawn here only, so the other charts' chunk stays as it was.
echarts.use([HeatmapChart, VisualMapComponent]);

const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);
const DAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/**
 * Activations by local day of week and hour of day (7 x 24): each cell coloured by the project's levels as a
 * percentage of the busiest cell, so a facility manager sees which rooms are used when.
 */
export function WeekGrid({ week, levels, label }: { week: number[][]; levels: readonly HeatLevel[]; label: string }) {
  const { t } = useTranslation();
  const fontFamily = useChartFont();
  const option = useMemo((): EChartsCoreOption => {
    const { cells } = weekCells(week);
    // Monday on top: ECharts counts category rows from the bottom.
    const days = DAY_KEYS.map((d) => t(`heatmap.weekday.${d}`)).reverse();
    const bands = levelBands(levels);
    return {
      textStyle: { fontFamily },
      tooltip: {
        position: 'top',
        formatter: (p: { data: [number, number, number, number] }) =>
          `${days[p.data[1]]} ${HOURS[p.data[0]]}<br/>${t('heatmap.cellTooltip', { count: p.data[3], percent: p.data[2] })}`,
      },
      grid: { left: 64, right: 24, top: 16, bottom: 88 },
      xAxis: { type: 'category', data: HOURS, splitArea: { show: true }, axisLabel: { interval: 1 } },
      yAxis: { type: 'category', data: days, splitArea: { show: true } },
      visualMap: {
        type: 'piecewise',
        dimension: 2,
        orient: 'horizontal',
        left: 'center',
        bottom: 8,
        pieces: [
          { value: 0, color: '#f5f5f5', label: t('heatmap.none') },
          ...bands.map((b, i) => ({ gt: i === 0 ? 0 : b.from, lte: b.to, color: b.color, label: `${b.from}-${b.to} %` })),
        ],
      },
      series: [
        {
          type: 'heatmap',
          data: cells,
          label: { show: true, formatter: (p: { data: number[] }) => (p.data[3] ? String(p.data[3]) : ''), fontSize: 10 },
          itemStyle: { borderColor: '#fff', borderWidth: 1 },
          emphasis: { itemStyle: { shadowBlur: 6, shadowColor: 'rgba(0,0,0,0.3)' } },
        },
      ],
    };
  }, [week, levels, t, fontFamily]);
  return <EChart option={option} height={380} label={label} testId="heatmap-week" />;
}
