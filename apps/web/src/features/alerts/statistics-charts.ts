import dayjs from 'dayjs';
import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import {
  DISPLAY_STATES,
  type AlertStatistics,
  type AlertStatisticsBody,
  type DeviceStateSummary,
  type DisplayState,
} from '@lumigrid/contract/browser';

export type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

/** A chart's option and, for each data index, where a click on it leads (undefined: nowhere). */
export interface DrillChart<T> {
  option: ChartOption;
  targets: Array<T | undefined>;
}

export type StatisticsUnit = AlertStatisticsBody['unit'];
export const STATISTICS_UNITS: readonly StatisticsUnit[] = ['day', 'week', 'month'];

const DAY = 'YYYY-MM-DD';

/** Whole local days, both included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

/** The range the screen opens on: the last 30 days, today included. */
export function lastDays(count: number, today = dayjs()): DayRange {
  return { from: today.subtract(count - 1, 'day').format(DAY), to: today.format(DAY) };
}

/** Where the statistics are taken: a project, or a building or a map of it (the project that holds them). */
export interface StatisticsPlace {
  projectId: string;
  buildId?: string;
  mapId?: string;
}

/**
 * The narrowest id of a place only: a sub-project's building is filed under the sub-project, so pairing it
 * with another project id would match nothing.
 */
export function placeFilter(place: StatisticsPlace): { projectId: string } | { buildId: string } | { mapId: string } {
  if (place.mapId) return { mapId: place.mapId };
  if (place.buildId) return { buildId: place.buildId };
  return { projectId: place.projectId };
}

/** The statistics call for a place and whole local days, bucketed at the reader's midnight. */
export function statisticsBody(
  place: StatisticsPlace,
  range: DayRange,
  unit: StatisticsUnit,
  utcOffsetMin = -new Date().getTimezoneOffset(),
): AlertStatisticsBody {
  return {
    ...placeFilter(place),
    from: dayjs(range.from).startOf('day').toISOString(),
    to: dayjs(range.to).endOf('day').toISOString(),
    unit,
    utcOffsetMin,
  };
}

/** The first day of the bucket a day falls in; weeks begin on Monday, as the server's buckets do. */
export function bucketStart(day: string, unit: StatisticsUnit): string {
  const date = dayjs(day);
  if (unit === 'day') return date.format(DAY);
  if (unit === 'month') return date.startOf('month').format(DAY);
  return date.subtract((date.day() + 6) % 7, 'day').format(DAY);
}

const nextBucket = (bucket: string, unit: StatisticsUnit) => dayjs(bucket).add(1, unit).format(DAY);

/** More buckets than this (years by day) are not padded: the chart shows the server's buckets only. */
const MAX_PADDED_BUCKETS = 1000;

/** Every bucket of the range, oldest first, with zeros where the server counted none (it leaves those out). */
export function fillBuckets(overTime: AlertStatistics['overTime'], range: DayRange, unit: StatisticsUnit): AlertStatistics['overTime'] {
  const counts = new Map(overTime.map((point) => [point.bucket, point.count]));
  const buckets = new Set<string>();
  for (
    let bucket = bucketStart(range.from, unit);
    bucket <= range.to && buckets.size < MAX_PADDED_BUCKETS;
    bucket = nextBucket(bucket, unit)
  )
    buckets.add(bucket);
  for (const point of overTime) buckets.add(point.bucket);
  return [...buckets].sort().map((bucket) => ({ bucket, count: counts.get(bucket) ?? 0 }));
}

/** The days of a bucket that lie in the range: what a click on its bar lists. */
export function bucketDays(bucket: string, unit: StatisticsUnit, range: DayRange): DayRange {
  const last = dayjs(nextBucket(bucket, unit)).subtract(1, 'day').format(DAY);
  return { from: bucket < range.from ? range.from : bucket, to: last > range.to ? range.to : last };
}

/** A mean time to clear in whole days, hours and minutes; under a minute is `lessThanMinute`. */
export function splitMinutes(minutes: number): { days: number; hours: number; minutes: number; lessThanMinute: boolean } {
  const whole = Math.round(minutes);
  return {
    days: Math.floor(whole / 1440),
    hours: Math.floor((whole % 1440) / 60),
    minutes: whole % 60,
    lessThanMinute: whole < 1,
  };
}

/** Colours of the display states: lit amber, working green, off dark grey, offline light grey, failure red. */
export const DISPLAY_COLOUR: Readonly<Record<DisplayState, string>> = {
  onFull: '#faad14',
  onPartial: '#ffd666',
  off: '#595959',
  working: '#52c41a',
  offline: '#bfbfbf',
  failure: '#ff4d4f',
};

/** The texts a chart shows, in the reader's language. */
export interface ChartTexts {
  faults: string;
  devices: string;
  codeName(code: number): string;
  displayName(state: DisplayState): string;
  noMap: string;
  /** A bucket as the tooltip names it ("Week of 2025-03-03"). */
  bucketName(bucket: string, unit: StatisticsUnit): string;
}

/** Text and axis defaults every chart shares; `fontFamily` carries the CJK faces of the reader's language. */
function base(fontFamily: string): ChartOption {
  return { textStyle: { fontFamily }, animation: false, aria: { enabled: false } } as ChartOption;
}

const horizontalGrid: GridComponentOption = { left: 8, right: 48, top: 8, bottom: 8, outerBoundsMode: 'same' };

/** Names on a category axis are cut at this width (the tooltip keeps them whole). */
const LABEL_WIDTH = 160;

/** Counts as horizontal bars, first at the top, each bar a link. */
function rankedBars(labels: string[], counts: number[], name: string, color: string, fontFamily: string): ChartOption {
  return {
    ...base(fontFamily),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: horizontalGrid,
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: labels, axisLabel: { width: LABEL_WIDTH, overflow: 'truncate' } },
    series: [
      {
        type: 'bar',
        name,
        data: counts,
        itemStyle: { color },
        label: { show: true, position: 'right' },
        barMaxWidth: 22,
        cursor: 'pointer',
      },
    ],
  };
}

/** Faults by code, most first, as horizontal bars; a bar leads to its code. */
export function codeChart(byCode: AlertStatistics['byCode'], texts: ChartTexts, fontFamily: string): DrillChart<{ code: number }> {
  const rows = [...byCode].sort((a, b) => b.count - a.count || a.code - b.code);
  return {
    targets: rows.map((row) => ({ code: row.code })),
    option: rankedBars(
      rows.map((row) => texts.codeName(row.code)),
      rows.map((row) => row.count),
      texts.faults,
      '#ff7875',
      fontFamily,
    ),
  };
}

/** The maps with the most faults (at most `limit`), most first; a bar leads to its map (none for "no map"). */
export function mapChart(
  byMap: AlertStatistics['byMap'],
  texts: ChartTexts,
  fontFamily: string,
  limit = 10,
): DrillChart<{ mapId: string }> {
  const rows = byMap.slice(0, limit);
  return {
    targets: rows.map((row) => (row.mapId ? { mapId: row.mapId } : undefined)),
    option: rankedBars(
      rows.map((row) => (row.mapId ? [row.buildName, row.mapName].filter(Boolean).join(' / ') : texts.noMap)),
      rows.map((row) => row.count),
      texts.faults,
      '#4096ff',
      fontFamily,
    ),
  };
}

/** Faults raised per bucket over the whole range (a line by day, bars by week or month); a point leads to its days. */
export function overTimeChart(
  overTime: AlertStatistics['overTime'],
  range: DayRange,
  unit: StatisticsUnit,
  texts: ChartTexts,
  fontFamily: string,
): DrillChart<DayRange> {
  const points = fillBuckets(overTime, range, unit);
  // A bucket is a calendar day (YYYY-MM-DD); the axis keeps the part that changes.
  const axisLabel = (bucket: string) => (unit === 'month' ? bucket.slice(0, 7) : bucket.slice(5));
  const data = points.map((point) => ({ value: point.count, name: texts.bucketName(point.bucket, unit) }));
  return {
    targets: points.map((point) => bucketDays(point.bucket, unit, range)),
    option: {
      ...base(fontFamily),
      tooltip: { trigger: 'axis' },
      grid: { left: 8, right: 16, top: 16, bottom: 8, outerBoundsMode: 'same' },
      xAxis: { type: 'category', data: points.map((point) => axisLabel(point.bucket)), axisTick: { alignWithLabel: true } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        unit === 'day'
          ? {
              type: 'line',
              name: texts.faults,
              data,
              // Dots only where faults were raised: a month of empty days is a flat line, not a row of rings.
              symbolSize: (value: number) => (value > 0 ? 7 : 0),
              areaStyle: { opacity: 0.15 },
              itemStyle: { color: '#ff7875' },
              cursor: 'pointer',
            }
          : { type: 'bar', name: texts.faults, data, itemStyle: { color: '#ff7875' }, barMaxWidth: 32, cursor: 'pointer' },
      ],
    },
  };
}

/** The devices now, by display state, as a ring; states without devices are left out. */
export function deviceStateChart(display: DeviceStateSummary['display'], texts: ChartTexts, fontFamily: string): ChartOption {
  const states = DISPLAY_STATES.filter((state) => display[state] > 0);
  const countByName = new Map(states.map((state) => [texts.displayName(state), display[state]]));
  return {
    ...base(fontFamily),
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    // The counts stand in the legend: labels around a small ring run out of the card.
    // A plain legend wraps onto a second line rather than hiding states behind paging arrows.
    legend: {
      bottom: 0,
      left: 'center',
      itemGap: 16,
      formatter: (name: string) => `${name}  ${countByName.get(name) ?? ''}`,
    },
    series: [
      {
        type: 'pie',
        name: texts.devices,
        radius: ['34%', '58%'],
        center: ['50%', '40%'],
        label: { show: false },
        data: states.map((state) => ({
          name: texts.displayName(state),
          value: display[state],
          itemStyle: { color: DISPLAY_COLOUR[state] },
        })),
      },
    ],
  };
}
