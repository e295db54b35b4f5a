import { Type, type Static } from 'typebox';
import { IdSchema, Nullable, pageFields } from './common.ts';

/**
 * Energy used and saved, spec sections 2 (/energy/index, /energy/detail), 3 ("Energy record"), 7 ("Energy and
 * reports") and 9 (a month-days table, a 12-month year). Read from the hourly and daily rollups per map, in the
 * local time of each device's gateway (docs/decisions.md, "Energy from counters").
 */

export const ENERGY_LIMITS = {
  /** The longest span page_record and the energy report take, in days. */
  rangeDays: { max: 3660 },
} as const;

const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A local date, YYYY-MM-DD' });

/** The place of an energy call: a project, or one of its buildings or maps. */
const energyPlace = {
  projectId: IdSchema,
  buildId: Type.Optional(IdSchema),
  mapId: Type.Optional(IdSchema),
};

/** POST ele_use/v1/total: a day by hour, a month by day or a year by month, with totals and the period before. */
export const EnergyTotalBodySchema = Type.Object({
  ...energyPlace,
  period: Type.Union([Type.Literal('day'), Type.Literal('month'), Type.Literal('year')]),
  /** The day; for a month or a year, any day in it. */
  date: LocalDate,
});
export type EnergyTotalBody = Static<typeof EnergyTotalBodySchema>;

/* @__NO_SIDE_EFFECTS__ */
const Kwh = (what: string) => Type.Number({ description: `${what}, kWh (to the Wh)` });
const Rate = Nullable(
  Type.Number({ description: 'Percent saved of what would have been used: saved / (used + saved) x 100, two decimals' }),
  'The saving rate, or null when nothing was used or saved',
);

export const EnergyBucketSchema = Type.Object({
  /** '00'-'23' (hours of the day), 'YYYY-MM-DD' (every day of the month) or 'YYYY-MM' (the 12 months). */
  bucket: Type.String({ description: "'00'-'23', 'YYYY-MM-DD' or 'YYYY-MM'" }),
  energyKwh: Kwh('Used'),
  savedKwh: Kwh('Saved'),
  rate: Rate,
});
export type EnergyBucket = Static<typeof EnergyBucketSchema>;

export const EnergyTotalsSchema = Type.Object({
  energyKwh: Kwh('Used'),
  savedKwh: Kwh('Saved'),
  rate: Rate,
  carbonKg: Type.Number({ description: "CO2 saved, kg: saved kWh x the project's carbon factor, to the gram" }),
});
export type EnergyTotals = Static<typeof EnergyTotalsSchema>;

export const EnergyTotalSchema = Type.Object({
  /** What a bucket is: an hour of the day, a day of the month or a month of the year. */
  unit: Type.Union([Type.Literal('hour'), Type.Literal('day'), Type.Literal('month')]),
  /** Every bucket of the period in order, zero where nothing was used: 24 hours, 28-31 days or 12 months. */
  buckets: Type.Array(EnergyBucketSchema),
  totals: EnergyTotalsSchema,
  /** The same totals for the day, month or year before. */
  previous: EnergyTotalsSchema,
  carbonFactor: Type.Number({ description: "The project's carbon factor, kg CO2 per kWh" }),
});
export type EnergyTotal = Static<typeof EnergyTotalSchema>;

/** The filters of the energy records and of their report. */
const recordFilters = {
  ...energyPlace,
  from: LocalDate,
  /** Inclusive. */
  to: LocalDate,
  /** A row per map per day, or per map per month (the months `from` and `to` fall in). */
  unit: Type.Union([Type.Literal('day'), Type.Literal('month')]),
};

/** POST ele_use/v1/page_record */
export const EnergyRecordBodySchema = Type.Object({
  ...recordFilters,
  ...pageFields,
});
export type EnergyRecordBody = Static<typeof EnergyRecordBodySchema>;

/** POST data/v1/download_ele_report: every record the filters take. */
export const EnergyReportBodySchema = Type.Object(recordFilters);
export type EnergyReportBody = Static<typeof EnergyReportBodySchema>;

/** An energy record of spec section 3: one map's energy on one day or in one month. */
export const EnergyRecordSchema = Type.Object({
  /** 'YYYY-MM-DD' or 'YYYY-MM', local time. */
  dateTimeStr: Type.String({ description: "The day ('YYYY-MM-DD') or month ('YYYY-MM'), local time" }),
  powerActualAll: Kwh('Used'),
  savePower: Kwh('Saved'),
  rate: Rate,
  projectName: Type.String(),
  buildName: Type.String(),
  mapName: Type.String(),
  mapId: IdSchema,
});
export type EnergyRecord = Static<typeof EnergyRecordSchema>;

export const EnergyRecordPageSchema = Type.Object({
  total: Type.Integer({ description: 'Records the filters take' }),
  /** Newest first; within a day or month by project, building and map name. */
  list: Type.Array(EnergyRecordSchema),
});
export type EnergyRecordPage = Static<typeof EnergyRecordPageSchema>;

/** The saving rate in percent, two decimals; null when nothing was used or saved. */
export function savingRate(energyKwh: number, savedKwh: number): number | null {
  const whole = energyKwh + savedKwh;
  return whole > 0 ? Math.round((savedKwh / whole) * 10000) / 100 : null;
}
