import dayjs, { type Dayjs } from 'dayjs';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { ComposeOption } from 'echarts/core';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { EnergyTotal, EnergyTotalBody } from '@lumigrid/contract/browser';

export type EnergyChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

const DAY = 'YYYY-MM-DD';

/** A day by hour, a month by day or a year by month. */
export type EnergyPeriod = EnergyTotalBody['period'];
export const ENERGY_PERIODS: readonly EnergyPeriod[] = ['day', 'month', 'year'];

/** Where energy is read: a project, or a building or a map of it. */
export interface EnergyPlace {
  projectId: string;
  buildId?: string;
  mapId?: string;
}

/** The place a project > building > map path names (a partial path: the project or the building). */
export function placeOfPath(path: readonly string[]): EnergyPlace | undefined {
  const [projectId, buildId, mapId] = path;
  if (!projectId) return undefined;
  return { projectId, ...(buildId ? { buildId } : {}), ...(buildId && mapId ? { mapId } : {}) };
}

export function pathOfPlace(place: EnergyPlace): string[] {
  return [place.projectId, place.buildId, place.buildId && place.mapId].filter((id): id is string => Boolean(id));
}

/** The total call for a place, a period and a date picked in the browser. */
export function energyTotalBody(place: EnergyPlace, period: EnergyPeriod, date: Dayjs): EnergyTotalBody {
  return { ...place, period, date: date.format(DAY) };
}

/**
 * The change against the period before, in percent with one decimal; null when there was nothing before to
 * compare with (a change from zero has no percentage).
 */
export function periodChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** The texts the chart shows, in the reader's language. */
export interface EnergyChartTexts {
  used: string;
  saved: string;
  rate: string;
  /** A month of the year view by its number (1-12). */
  monthName(month: number): string;
}

/** A bucket as the category axis names it: the hour (08:00), the day of the month (8) or the month. */
export function bucketLabel(bucket: string, unit: EnergyTotal['unit'], texts: Pick<EnergyChartTexts, 'monthName'>): string {
  if (unit === 'hour') return `${bucket}:00`;
  if (unit === 'day') return String(Number(bucket.slice(8, 10)));
  return texts.monthName(Number(bucket.slice(5, 7)));
}

const USED_COLOUR = '#1677ff';
const SAVED_COLOUR = '#52c41a';
const RATE_COLOUR = '#fa8c16';

/**
 * Used and saved per bucket as stacked bars (together: what the lights would have used without saving), the
 * saving rate as a line on its own percent axis. Every bucket of the period stands on the axis, empty or not.
 */
export function energyChart(total: EnergyTotal, texts: EnergyChartTexts, fontFamily: string): EnergyChartOption {
  const kwh = (value: number) => `${value.toLocaleString(undefined, { maximumFractionDigits: 3 })} kWh`;
  const energyBar = (name: string, kwhOf: (bucket: EnergyTotal['buckets'][number]) => number, color: string) => ({
    type: 'bar' as const,
    name,
    stack: 'energy',
    data: total.buckets.map((bucket) => kwhOf(bucket)),
    itemStyle: { color },
    barMaxWidth: 28,
    tooltip: { valueFormatter: (value: unknown) => kwh(Number(value)) },
  });
  return {
    textStyle: { fontFamily },
    animation: false,
    aria: { enabled: false },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value) => (typeof value === 'number' ? String(value) : '-'),
    },
    legend: { top: 0, left: 'center', itemGap: 24 },
    grid: { left: 8, right: 8, top: 40, bottom: 8, outerBoundsMode: 'same' },
    xAxis: {
      type: 'category',
      data: total.buckets.map((b) => bucketLabel(b.bucket, total.unit, texts)),
      axisTick: { alignWithLabel: true },
    },
    yAxis: [
      { type: 'value', name: 'kWh', nameTextStyle: { align: 'left' }, axisLabel: { hideOverlap: true } },
      { type: 'value', name: '%', min: 0, max: 100, splitLine: { show: false }, nameTextStyle: { align: 'right' } },
    ],
    series: [
      energyBar(texts.used, (b) => b.energyKwh, USED_COLOUR),
      energyBar(texts.saved, (b) => b.savedKwh, SAVED_COLOUR),
      {
        type: 'line',
        name: texts.rate,
        yAxisIndex: 1,
        data: total.buckets.map((b) => b.rate),
        connectNulls: false,
        symbolSize: 5,
        itemStyle: { color: RATE_COLOUR },
        tooltip: { valueFormatter: (value) => (value === null || value === undefined || value === '-' ? '-' : `${String(value)} %`) },
      },
    ],
  } as EnergyChartOption;
}

/** Whether a picked date lies ahead of today in the period's own steps (a later month, a later year). */
export function isFuture(date: Dayjs, period: EnergyPeriod, today: Dayjs = dayjs()): boolean {
  return date.isAfter(today, period);
}
