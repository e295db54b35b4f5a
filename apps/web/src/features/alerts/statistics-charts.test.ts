import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { AlertStatistics } from '@lumigrid/contract/browser';
import {
  bucketDays,
  bucketStart,
  codeChart,
  deviceStateChart,
  fillBuckets,
  lastDays,
  mapChart,
  overTimeChart,
  placeFilter,
  splitMinutes,
  statisticsBody,
  type ChartTexts,
} from './statistics-charts.ts';

const texts: ChartTexts = {
  faults: 'Faults',
  devices: 'Devices',
  codeName: (code) => `code ${code}`,
  displayName: (state) => `state ${state}`,
  noMap: 'No map',
  bucketName: (bucket, unit) => `${unit} ${bucket}`,
};
const FONT = 'Noto Sans CJK JP';

/** The parts of an option the tests read, without ECharts' union types in the way. */
interface Drawn {
  textStyle: { fontFamily: string };
  xAxis: { data?: string[] };
  yAxis: { data?: string[] };
  series: Array<{ type: string; data: Array<number | { value: number; name: string; itemStyle?: { color: string } }> }>;
}
const drawn = (option: unknown) => option as Drawn;

describe('the statistics call', () => {
  it('opens on the last 30 days, today included', () => {
    expect(lastDays(30, dayjs('2026-03-31'))).toEqual({ from: '2026-03-02', to: '2026-03-31' });
  });

  it('sends the narrowest place only, whole local days and the reader offset', () => {
    const body = statisticsBody({ projectId: '1', buildId: '2', mapId: '3' }, { from: '2026-03-01', to: '2026-03-02' }, 'week', 540);
    expect(body).toEqual({
      mapId: '3',
      from: dayjs('2026-03-01T00:00:00').toISOString(),
      to: dayjs('2026-03-02T23:59:59.999').toISOString(),
      unit: 'week',
      utcOffsetMin: 540,
    });
    expect(placeFilter({ projectId: '1', buildId: '2' })).toEqual({ buildId: '2' });
    expect(placeFilter({ projectId: '1' })).toEqual({ projectId: '1' });
  });
});

describe('buckets over time', () => {
  it('starts weeks on Monday and months on the first, as the server does', () => {
    expect(bucketStart('2026-03-08', 'week')).toBe('2026-03-02'); // a Sunday
    expect(bucketStart('2026-03-02', 'week')).toBe('2026-03-02');
    expect(bucketStart('2026-03-17', 'month')).toBe('2026-03-01');
    expect(bucketStart('2026-03-17', 'day')).toBe('2026-03-17');
  });

  it('fills the buckets the server left out with zeros, oldest first', () => {
    const points = fillBuckets([{ bucket: '2026-03-03', count: 4 }], { from: '2026-03-01', to: '2026-03-04' }, 'day');
    expect(points).toEqual([
      { bucket: '2026-03-01', count: 0 },
      { bucket: '2026-03-02', count: 0 },
      { bucket: '2026-03-03', count: 4 },
      { bucket: '2026-03-04', count: 0 },
    ]);
    expect(fillBuckets([], { from: '2026-01-15', to: '2026-03-01' }, 'month').map((p) => p.bucket)).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
    ]);
  });

  it('keeps a bucket of the server outside the padded ones', () => {
    expect(fillBuckets([{ bucket: '2026-02-28', count: 1 }], { from: '2026-03-01', to: '2026-03-01' }, 'day')).toEqual([
      { bucket: '2026-02-28', count: 1 },
      { bucket: '2026-03-01', count: 0 },
    ]);
  });

  it('clips a bucket to the range for its drill-down', () => {
    const range = { from: '2026-03-04', to: '2026-03-20' };
    expect(bucketDays('2026-03-02', 'week', range)).toEqual({ from: '2026-03-04', to: '2026-03-08' });
    expect(bucketDays('2026-03-16', 'week', range)).toEqual({ from: '2026-03-16', to: '2026-03-20' });
    expect(bucketDays('2026-03-01', 'month', { from: '2026-01-01', to: '2026-12-31' })).toEqual({ from: '2026-03-01', to: '2026-03-31' });
  });
});

describe('the mean time to clear', () => {
  it('reads as days, hours and minutes', () => {
    expect(splitMinutes(0.4)).toMatchObject({ lessThanMinute: true });
    expect(splitMinutes(59.6)).toEqual({ days: 0, hours: 1, minutes: 0, lessThanMinute: false });
    expect(splitMinutes(1441 + 125)).toEqual({ days: 1, hours: 2, minutes: 6, lessThanMinute: false });
  });
});

const stats: AlertStatistics = {
  total: 9,
  pending: 5,
  open: 2,
  meanMinutesToClear: 12.5,
  byCode: [
    { code: 2, count: 3 },
    { code: 8, count: 5 },
    { code: 1, count: 1 },
  ],
  byMap: [
    { mapId: '7', mapName: 'Floor 1', buildName: 'Main', count: 6 },
    { mapId: null, mapName: '', buildName: '', count: 3 },
  ],
  overTime: [{ bucket: '2026-03-02', count: 9 }],
};

describe('chart options', () => {
  it('draws codes most first, named in the reader language, each bar leading to its code', () => {
    const chart = codeChart(stats.byCode, texts, FONT);
    const option = drawn(chart.option);
    expect(option.yAxis.data).toEqual(['code 8', 'code 2', 'code 1']);
    expect(option.series[0]!.data).toEqual([5, 3, 1]);
    expect(chart.targets).toEqual([{ code: 8 }, { code: 2 }, { code: 1 }]);
    expect(option.textStyle.fontFamily).toBe(FONT);
  });

  it('names maps by building and map, and gives faults without a map no drill-down', () => {
    const chart = mapChart(stats.byMap, texts, FONT);
    expect(drawn(chart.option).yAxis.data).toEqual(['Main / Floor 1', 'No map']);
    expect(chart.targets).toEqual([{ mapId: '7' }, undefined]);
    expect(mapChart(stats.byMap, texts, FONT, 1).targets).toHaveLength(1);
  });

  it('draws a line by day and bars by week, over every bucket of the range', () => {
    const range = { from: '2026-03-01', to: '2026-03-03' };
    const byDay = overTimeChart(stats.overTime, range, 'day', texts, FONT);
    const option = drawn(byDay.option);
    expect(option.series[0]!.type).toBe('line');
    expect(option.xAxis.data).toEqual(['03-01', '03-02', '03-03']);
    expect(option.series[0]!.data).toEqual([
      { value: 0, name: 'day 2026-03-01' },
      { value: 9, name: 'day 2026-03-02' },
      { value: 0, name: 'day 2026-03-03' },
    ]);
    expect(byDay.targets[1]).toEqual({ from: '2026-03-02', to: '2026-03-02' });
    const byWeek = overTimeChart(stats.overTime, range, 'week', texts, FONT);
    expect(drawn(byWeek.option).series[0]!.type).toBe('bar');
    expect(byWeek.targets).toEqual([
      { from: '2026-03-01', to: '2026-03-01' },
      { from: '2026-03-02', to: '2026-03-03' },
    ]);
  });

  it('leaves display states without devices out of the ring', () => {
    const option = drawn(deviceStateChart({ onFull: 2, onPartial: 0, off: 1, working: 0, offline: 3, failure: 1 }, texts, FONT));
    const slices = option.series[0]!.data as Array<{ name: string; value: number }>;
    expect(slices.map((s) => [s.name, s.value])).toEqual([
      ['state onFull', 2],
      ['state off', 1],
      ['state offline', 3],
      ['state failure', 1],
    ]);
  });
});
