import { sortedHeatLevels, type HeatLevel } from '@lumigrid/contract/browser';
import dayjs, { type Dayjs } from 'dayjs';

const DAY = 'YYYY-MM-DD';

/** A range of local days, inclusive, as the heatmap calls take it. */
export interface DayRange {
  from: string;
  to: string;
}

/** The ranges offered beside the date picker, relative to `today`. */
export type RangePreset = 'last7' | 'lastWeek' | 'thisMonth' | 'last30';
export const RANGE_PRESETS: readonly RangePreset[] = ['last7', 'lastWeek', 'thisMonth', 'last30'];

/** Monday of the week a day is in (weeks start on Monday, as the week grid does). */
const mondayOf = (day: Dayjs) => day.subtract((day.day() + 6) % 7, 'day');

export function presetRange(preset: RangePreset, today: Dayjs = dayjs()): DayRange {
  const fmt = (a: Dayjs, b: Dayjs) => ({ from: a.format(DAY), to: b.format(DAY) });
  switch (preset) {
    case 'last7':
      return fmt(today.subtract(6, 'day'), today);
    case 'lastWeek': {
      const monday = mondayOf(today).subtract(7, 'day');
      return fmt(monday, monday.add(6, 'day'));
    }
    case 'thisMonth':
      return fmt(today.startOf('month'), today);
    case 'last30':
      return fmt(today.subtract(29, 'day'), today);
  }
}

/** The query parameters of /heatmap: the map, the range and the view, so a link opens the same heatmap. */
export interface HeatmapQuery {
  mapId?: string;
  range: DayRange;
  view: 'plan' | 'week';
  sensorId?: string;
}

const isDay = (text: string | null): text is string => !!text && /^\d{4}-\d{2}-\d{2}$/.test(text) && dayjs(text, DAY).isValid();

export function readHeatmapQuery(search: URLSearchParams, today: Dayjs = dayjs()): HeatmapQuery {
  const from = search.get('from');
  const to = search.get('to');
  const range = isDay(from) && isDay(to) && from <= to ? { from, to } : presetRange('lastWeek', today);
  return {
    mapId: search.get('mapId') ?? undefined,
    range,
    view: search.get('view') === 'week' ? 'week' : 'plan',
    sensorId: search.get('sensorId') ?? undefined,
  };
}

export function writeHeatmapQuery(query: HeatmapQuery): URLSearchParams {
  const search = new URLSearchParams();
  if (query.mapId) search.set('mapId', query.mapId);
  search.set('from', query.range.from);
  search.set('to', query.range.to);
  search.set('view', query.view);
  if (query.sensorId) search.set('sensorId', query.sensorId);
  return search;
}

/**
 * The heat layer's colours: each level's colour at its sensing count (a fraction of the most active sensor),
 * so the layer shows the levels a user set. simpleheat blends between the stops.
 */
export function heatGradient(levels: readonly HeatLevel[]): Record<number, string> {
  const gradient: Record<number, string> = {};
  for (const level of sortedHeatLevels(levels)) gradient[level.percent / 100] = level.color;
  return gradient;
}

/** The legend's bands: "from-to %" and the colour, lowest first. */
export function levelBands(levels: readonly HeatLevel[]): Array<{ from: number; to: number; color: string }> {
  let from = 0;
  return sortedHeatLevels(levels).map((level) => {
    const band = { from, to: level.percent, color: level.color };
    from = level.percent;
    return band;
  });
}

/** The week grid as ECharts heatmap cells: [hour, day row (Monday at the top), percent of the busiest cell, count]. */
export function weekCells(week: readonly (readonly number[])[]): { cells: Array<[number, number, number, number]>; max: number } {
  const max = Math.max(0, ...week.flat());
  const cells: Array<[number, number, number, number]> = [];
  week.forEach((hours, day) =>
    hours.forEach((count, hour) => cells.push([hour, 6 - day, max > 0 ? Math.round((count / max) * 1000) / 10 : 0, count])),
  );
  return { cells, max };
}
