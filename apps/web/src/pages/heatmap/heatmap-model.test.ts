import { DEFAULT_HEAT_LEVELS } from '@lumigrid/contract/browser';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { heatGradient, levelBands, presetRange, readHeatmapQuery, weekCells, writeHeatmapQuery } from './heatmap-model.ts';

describe('heatmap model', () => {
  const thursday = dayjs('2026-11-26');

  it('offers last week as Monday to Sunday, and the other presets up to today', () => {
    expect(presetRange('lastWeek', thursday)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(presetRange('lastWeek', dayjs('2026-11-23'))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(presetRange('lastWeek', dayjs('2026-11-29'))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(presetRange('last7', thursday)).toEqual({ from: '2026-11-20', to: '2026-11-26' });
    expect(presetRange('thisMonth', thursday)).toEqual({ from: '2026-11-01', to: '2026-11-26' });
  });

  it('reads and writes the page query, falling back to last week for a broken range', () => {
    const query = { mapId: '12', range: { from: '2026-11-01', to: '2026-11-07' }, view: 'week' as const, sensorId: '5' };
    expect(readHeatmapQuery(writeHeatmapQuery(query), thursday)).toEqual(query);
    const broken = readHeatmapQuery(new URLSearchParams('mapId=3&from=2026-11-09&to=2026-11-01'), thursday);
    expect(broken).toEqual({ mapId: '3', range: { from: '2026-11-16', to: '2026-11-22' }, view: 'plan', sensorId: undefined });
  });

  it('puts each level at its sensing count in the gradient and the legend', () => {
    const levels = [
      { percent: 70, color: '#ff0000' },
      { percent: 30, color: '#0000ff' },
      { percent: 100, color: '#00ff00' },
    ];
    expect(heatGradient(levels)).toEqual({ 0.3: '#0000ff', 0.7: '#ff0000', 1: '#00ff00' });
    expect(levelBands(levels)).toEqual([
      { from: 0, to: 30, color: '#0000ff' },
      { from: 30, to: 70, color: '#ff0000' },
      { from: 70, to: 100, color: '#00ff00' },
    ]);
    expect(levelBands(DEFAULT_HEAT_LEVELS)).toHaveLength(DEFAULT_HEAT_LEVELS.length);
  });

  it('lays the week out Monday on top, as percentages of the busiest hour', () => {
    const week = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
    week[0]![10] = 8;
    week[6]![3] = 2;
    const { cells, max } = weekCells(week);
    expect(max).toBe(8);
    expect(cells).toHaveLength(168);
    expect(cells).toContainEqual([10, 6, 100, 8]);
    expect(cells).toContainEqual([3, 0, 25, 2]);
    expect(weekCells(week.map((d) => d.map(() => 0))).cells.every((c) => c[2] === 0)).toBe(true);
  });
});
