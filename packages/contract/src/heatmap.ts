import { Type, type Static } from 'typebox';
import { IdSchema, Nullable, pageFields } from './common.ts';

/**
 * The sensor activation heatmap, spec sections 2 (/heatmap, hidden from the menu), 3 ("Heatmap"), 5 (sensing
 * counts differ, at most 100 %, reset confirmed), 7 (induction/v1/gen, gen_page, gen_download under /api6) and
 * 9 (a 30-minute detection window). docs/decisions.md "Heatmap".
 */

/** Spec section 9: a motion sensor's activation counts at most once in each window of this many minutes. */
export const HEATMAP_WINDOW_MINUTES = 30;

export const HEATMAP_LIMITS = {
  /** The longest span a heatmap reads, in days. */
  rangeDays: { max: 366 },
  /** How many colour levels a project's heatmap has. */
  levels: { min: 2, max: 6 },
  /** A level's sensing count: a percentage of the most active sensor (spec section 5: at most 100 %). */
  percent: { min: 1, max: 100 },
} as const;

const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A local date, YYYY-MM-DD' });

const range = {
  /** The first local day (the gateway's time zone). */
  from: LocalDate,
  /** The last local day, inclusive. */
  to: LocalDate,
};

/**
 * One colour level: sensors whose activations reach up to `percent` of the most active sensor's (and above the
 * level below) take `color`.
 */
export const HeatLevelSchema = Type.Object({
  /** Checked by the server (code 100902) rather than the schema, so the refusal names the rule. */
  percent: Type.Integer({ minimum: 0, maximum: 100000, description: 'Sensing count, percent of the most active sensor, 1-100' }),
  color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'Colour, #rrggbb' }),
});
export type HeatLevel = Static<typeof HeatLevelSchema>;

/** The levels a project starts with, and goes back to on reset: cool to hot. */
export const DEFAULT_HEAT_LEVELS: readonly HeatLevel[] = [
  { percent: 20, color: '#2f6fde' },
  { percent: 40, color: '#16b5c9' },
  { percent: 60, color: '#3fbf4f' },
  { percent: 80, color: '#f5c518' },
  { percent: 100, color: '#e8453c' },
];

/**
 * What is wrong with a project's levels, as the code the server answers (the web form asks the same): 100902 a
 * sensing count outside 1-100 %, 100901 two equal sensing counts; undefined when they are fine. The number of
 * levels and the colours the schema checks.
 */
export function heatLevelsProblem(levels: readonly HeatLevel[]): 100901 | 100902 | undefined {
  const { min, max } = HEATMAP_LIMITS.percent;
  if (levels.some((l) => !Number.isInteger(l.percent) || l.percent < min || l.percent > max)) return 100902;
  if (new Set(levels.map((l) => l.percent)).size !== levels.length) return 100901;
  return undefined;
}

/** Levels in ascending order of sensing count. */
export function sortedHeatLevels(levels: readonly HeatLevel[]): HeatLevel[] {
  return [...levels].sort((a, b) => a.percent - b.percent);
}

/** The colour of a percentage: the first level (ascending) that reaches it; the top level above them all. */
export function heatColorOf(levels: readonly HeatLevel[], percent: number): string {
  const sorted = sortedHeatLevels(levels);
  return (sorted.find((l) => percent <= l.percent) ?? sorted[sorted.length - 1])?.color ?? '#000000';
}

/** A count as a percentage of the largest, one decimal; 0 when nothing was counted. */
export function percentOfMax(count: number, max: number): number {
  return max > 0 ? Math.round((count / max) * 1000) / 10 : 0;
}

/** GET induction/v1/settings/:projectId and what the settings calls answer. */
export const HeatmapSettingsSchema = Type.Object({
  /** The associated parent project (spec section 3): levels belong to a project and serve each of its maps. */
  projectId: IdSchema,
  /** Ascending by sensing count; the last one colours the most active sensors. */
  levels: Type.Array(HeatLevelSchema),
  /** True while the project uses DEFAULT_HEAT_LEVELS (never set, or reset). */
  isDefault: Type.Boolean(),
  updatedAt: Nullable(Type.String({ format: 'date-time' }), 'When a user last set them; null for the defaults'),
});
export type HeatmapSettings = Static<typeof HeatmapSettingsSchema>;

export const HeatmapSettingsParamsSchema = Type.Object({ projectId: IdSchema });

/** POST induction/v1/settings */
export const HeatmapSettingsBodySchema = Type.Object({
  projectId: IdSchema,
  levels: Type.Array(HeatLevelSchema, { minItems: HEATMAP_LIMITS.levels.min, maxItems: HEATMAP_LIMITS.levels.max }),
});
export type HeatmapSettingsBody = Static<typeof HeatmapSettingsBodySchema>;

/** POST induction/v1/settings_reset */
export const HeatmapResetBodySchema = Type.Object({ projectId: IdSchema });
export type HeatmapResetBody = Static<typeof HeatmapResetBodySchema>;

/** POST induction/v1/gen: the heat of one map. */
export const HeatmapGenBodySchema = Type.Object({
  mapId: IdSchema,
  ...range,
  /** The week grid of this sensor alone; the whole map's without it. */
  sensorId: Type.Optional(IdSchema),
});
export type HeatmapGenBody = Static<typeof HeatmapGenBodySchema>;

/** A motion sensor placed on the map, with its activations in the range. */
export const HeatSensorSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  /** Position, fractions 0-1 of the floor plan's width and height. */
  x: Type.Number(),
  y: Type.Number(),
  /** Activations: 30-minute windows in which the sensor reported occupied. */
  count: Type.Integer(),
  /** Of the most active sensor of the map, one decimal, 0-100. */
  percent: Type.Number(),
});
export type HeatSensor = Static<typeof HeatSensorSchema>;

export const HeatmapGenSchema = Type.Object({
  mapId: IdSchema,
  projectId: IdSchema,
  /** Minutes of a detection window (spec section 9). */
  windowMinutes: Type.Integer(),
  /** The most active sensor's count (100 %). */
  maxCount: Type.Integer(),
  /** Activations of every sensor of the map. */
  totalCount: Type.Integer(),
  /** The map's placed motion sensors, most active first. */
  sensors: Type.Array(HeatSensorSchema),
  /**
   * Activations by local day of week and hour of day, of the map or of `sensorId`: 7 rows, Monday first, of 24
   * hours each, in the time zone of each sensor's gateway.
   */
  week: Type.Array(Type.Array(Type.Integer(), { minItems: 24, maxItems: 24 }), { minItems: 7, maxItems: 7 }),
  /** The project's colour levels. */
  levels: Type.Array(HeatLevelSchema),
});
export type HeatmapGen = Static<typeof HeatmapGenSchema>;

/** The filters of the per-sensor rows: a project, or one of its buildings or maps, over a range. */
const rowFilters = {
  projectId: IdSchema,
  buildId: Type.Optional(IdSchema),
  mapId: Type.Optional(IdSchema),
  ...range,
};

/** POST induction/v1/gen_page */
export const HeatmapPageBodySchema = Type.Object({
  ...rowFilters,
  ...pageFields,
});
export type HeatmapPageBody = Static<typeof HeatmapPageBodySchema>;

/** POST induction/v1/gen_download */
export const HeatmapDownloadBodySchema = Type.Object(rowFilters);
export type HeatmapDownloadBody = Static<typeof HeatmapDownloadBodySchema>;

/** A motion sensor of the place with its activations. */
export const HeatRowSchema = Type.Object({
  deviceId: IdSchema,
  name: Type.String(),
  mapId: IdSchema,
  mapName: Type.String(),
  buildName: Type.String(),
  x: Nullable(Type.Number(), 'Position on the map (fraction of the width); null while not placed'),
  y: Nullable(Type.Number(), 'Position on the map (fraction of the height); null while not placed'),
  count: Type.Integer(),
  /** Of the most active sensor of the place, one decimal. */
  percent: Type.Number(),
});
export type HeatRow = Static<typeof HeatRowSchema>;

export const HeatmapPageSchema = Type.Object({
  total: Type.Integer({ description: 'Motion sensors of the place' }),
  /** The most active sensor's count (100 %). */
  maxCount: Type.Integer(),
  /** Most active first, then by name. */
  list: Type.Array(HeatRowSchema),
});
export type HeatmapPage = Static<typeof HeatmapPageSchema>;
