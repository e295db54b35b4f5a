import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { EnergyTotal } from '@lumigrid/contract/browser';
import { bucketLabel, energyChart, energyTotalBody, isFuture, pathOfPlace, periodChange, placeOfPath } from './energy-charts.ts';

const texts = { used: 'Used', saved: 'Saved', rate: 'Rate', monthName: (month: number) => `M${month}` };
const totals = { energyKwh: 0, savedKwh: 0, rate: null, carbonKg: 0 };

describe('placeOfPath', () => {
  it('takes a project, a building or a map', () => {
    expect(placeOfPath([])).toBeUndefined();
    expect(placeOfPath(['1'])).toEqual({ projectId: '1' });
    expect(placeOfPath(['1', '2'])).toEqual({ projectId: '1', buildId: '2' });
    expect(placeOfPath(['1', '2', '3'])).toEqual({ projectId: '1', buildId: '2', mapId: '3' });
  });

  it('is undone by pathOfPlace', () => {
    for (const path of [['1'], ['1', '2'], ['1', '2', '3']]) expect(pathOfPlace(placeOfPath(path)!)).toEqual(path);
  });
});

describe('periodChange', () => {
  it('is the percentage against the period before, one decimal', () => {
    expect(periodChange(120, 100)).toBe(20);
    expect(periodChange(50, 150)).toBe(-66.7);
    expect(periodChange(0, 10)).toBe(-100);
  });

  it('has none against nothing', () => {
    expect(periodChange(5, 0)).toBeNull();
  });
});

describe('bucketLabel', () => {
  it('names hours, days of the month and months', () => {
    expect(bucketLabel('07', 'hour', texts)).toBe('07:00');
    expect(bucketLabel('2026-02-09', 'day', texts)).toBe('9');
    expect(bucketLabel('2026-11', 'month', texts)).toBe('M11');
  });
});

describe('energyChart', () => {
  const month: EnergyTotal = {
    unit: 'day',
    buckets: Array.from({ length: 30 }, (_, i) => ({
      bucket: `2026-11-${String(i + 1).padStart(2, '0')}`,
      energyKwh: i,
      savedKwh: i / 2,
      rate: i === 0 ? null : 33.33,
    })),
    totals,
    previous: totals,
    carbonFactor: 0.5,
  };

  it('draws every day of the month as stacked used and saved bars, and the rate on its own axis', () => {
    const option = energyChart(month, texts, 'sans-serif');
    expect((option.xAxis as { data: string[] }).data).toHaveLength(30);
    expect((option.xAxis as { data: string[] }).data[29]).toBe('30');
    const series = option.series as Array<{ type: string; name: string; stack?: string; yAxisIndex?: number; data: unknown[] }>;
    expect(series.map((s) => [s.type, s.name, s.stack])).toEqual([
      ['bar', 'Used', 'energy'],
      ['bar', 'Saved', 'energy'],
      ['line', 'Rate', undefined],
    ]);
    expect(series[0]!.data[3]).toBe(3);
    expect(series[1]!.data[3]).toBe(1.5);
    expect(series[2]!.yAxisIndex).toBe(1);
    expect(series[2]!.data[0]).toBeNull();
  });

  it('names the twelve months of a year', () => {
    const year: EnergyTotal = {
      ...month,
      unit: 'month',
      buckets: Array.from({ length: 12 }, (_, i) => ({
        bucket: `2026-${String(i + 1).padStart(2, '0')}`,
        energyKwh: 1,
        savedKwh: 1,
        rate: 50,
      })),
    };
    expect((energyChart(year, texts, 'sans-serif').xAxis as { data: string[] }).data).toEqual(
      Array.from({ length: 12 }, (_, i) => `M${i + 1}`),
    );
  });
});

describe('energyTotalBody and isFuture', () => {
  it('sends the picked day', () => {
    expect(energyTotalBody({ projectId: '1', mapId: '3' }, 'month', dayjs('2026-11-26'))).toEqual({
      projectId: '1',
      mapId: '3',
      period: 'month',
      date: '2026-11-26',
    });
  });

  it('counts the future in the period’s steps', () => {
    const today = dayjs('2026-11-26');
    expect(isFuture(dayjs('2026-11-30'), 'month', today)).toBe(false);
    expect(isFuture(dayjs('2026-11-27'), 'day', today)).toBe(true);
    expect(isFuture(dayjs('2027-01-01'), 'year', today)).toBe(true);
  });
});
