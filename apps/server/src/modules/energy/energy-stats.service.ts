import {
  ENERGY_LIMITS,
  savingRate,
  type EnergyBucket,
  type EnergyRecord,
  type EnergyRecordBody,
  type EnergyRecordPage,
  type EnergyReportBody,
  type EnergyTotal,
  type EnergyTotalBody,
  type EnergyTotals,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { DAY_MS, parseLocalDate } from '../../lib/local-date.ts';
import { paging } from '../../lib/paging.ts';
import { requireStatsPlace, type ProjectAccess } from '../projects/project-access.ts';
import type { EnergyRecordRow, EnergyStatsRepo, EnergySums, RecordRange } from './energy-stats.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'scope'>;

const isoDate = (at: number) => new Date(at).toISOString().slice(0, 10);
const kwh = (wh: number) => Math.round(wh) / 1000;

/** The local dates a period covers, the one before it, and its buckets in order. */
function periodOf(period: EnergyTotalBody['period'], date: string) {
  const at = parseLocalDate(date, 'date');
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (period === 'day') {
    return {
      unit: 'hour' as const,
      range: { from: date, to: date, unit: 'day' as const },
      previous: { from: isoDate(at - DAY_MS), to: isoDate(at - DAY_MS), unit: 'day' as const },
      buckets: Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0')),
    };
  }
  if (period === 'month') {
    const days = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    return {
      unit: 'day' as const,
      range: { from: isoDate(Date.UTC(y, m, 1)), to: isoDate(Date.UTC(y, m, days)), unit: 'day' as const },
      previous: { from: isoDate(Date.UTC(y, m - 1, 1)), to: isoDate(Date.UTC(y, m, 0)), unit: 'day' as const },
      buckets: Array.from({ length: days }, (_, i) => isoDate(Date.UTC(y, m, i + 1))),
    };
  }
  return {
    unit: 'month' as const,
    range: { from: `${y}-01-01`, to: `${y}-12-31`, unit: 'month' as const },
    previous: { from: `${y - 1}-01-01`, to: `${y - 1}-12-31`, unit: 'month' as const },
    buckets: Array.from({ length: 12 }, (_, i) => isoDate(Date.UTC(y, i, 1)).slice(0, 7)),
  };
}

/** The records' local dates: a month unit widens them to whole months. */
function recordRange(body: EnergyReportBody): RecordRange {
  const from = parseLocalDate(body.from, 'from');
  const to = parseLocalDate(body.to, 'to');
  if (to < from) throw new AppError(100001, 'to');
  if ((to - from) / DAY_MS > ENERGY_LIMITS.rangeDays.max) throw new AppError(100001, `to: at most ${ENERGY_LIMITS.rangeDays.max} days`);
  if (body.unit === 'day') return { from: body.from, to: body.to, unit: 'day' };
  const end = new Date(to);
  return {
    from: `${body.from.slice(0, 7)}-01`,
    to: isoDate(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)),
    unit: 'month',
  };
}

function totalsOf(sums: readonly EnergySums[], carbonFactor: number): EnergyTotals {
  const energyWh = sums.reduce((s, r) => s + r.energyWh, 0);
  const savedWh = sums.reduce((s, r) => s + r.savedWh, 0);
  return {
    energyKwh: kwh(energyWh),
    savedKwh: kwh(savedWh),
    rate: savingRate(energyWh, savedWh),
    carbonKg: kwh(savedWh * carbonFactor),
  };
}

function recordOf(row: EnergyRecordRow): EnergyRecord {
  return {
    dateTimeStr: row.date,
    powerActualAll: kwh(row.energyWh),
    savePower: kwh(row.savedWh),
    rate: savingRate(row.energyWh, row.savedWh),
    projectName: row.projectName,
    buildName: row.buildName,
    mapName: row.mapName,
    mapId: row.mapId,
  };
}

/**
 * The energy statistics and records of spec section 7 "Energy and reports", of a project, building or map of the
 * caller's account, on the maps it sees.
 */
export function createEnergyStatsService(deps: {
  repo: EnergyStatsRepo;
  access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding' | 'requireMap'>;
}) {
  const { repo, access } = deps;

  /** The place and its project's carbon factor. */
  async function placeOf(auth: Caller, body: { projectId: string; buildId?: string; mapId?: string }) {
    const { place, project } = await requireStatsPlace(access, auth, body);
    return { place, carbonFactor: project.carbonFactor };
  }

  return {
    async total(auth: Caller, body: EnergyTotalBody): Promise<EnergyTotal> {
      const period = periodOf(body.period, body.date);
      const { place, carbonFactor } = await placeOf(auth, body);
      const found = body.period === 'day' ? await repo.hours(place, body.date) : await repo.days(place, period.range);
      const byBucket = new Map(found.map((r) => [r.bucket, r]));
      const buckets: EnergyBucket[] = period.buckets.map((bucket) => {
        const sums = byBucket.get(bucket) ?? { energyWh: 0, savedWh: 0 };
        return { bucket, energyKwh: kwh(sums.energyWh), savedKwh: kwh(sums.savedWh), rate: savingRate(sums.energyWh, sums.savedWh) };
      });
      return {
        unit: period.unit,
        buckets,
        totals: totalsOf(found, carbonFactor),
        previous: totalsOf(await repo.days(place, period.previous), carbonFactor),
        carbonFactor,
      };
    },

    async records(auth: Caller, body: EnergyRecordBody): Promise<EnergyRecordPage> {
      const range = recordRange(body);
      const { place } = await placeOf(auth, body);
      const [total, rows] = await Promise.all([repo.countRecords(place, range), repo.records(place, range, paging(body))]);
      return { total, list: rows.map(recordOf) };
    },

    /** The energy report's rows: every record the filters take, newest first, a batch at a time. */
    async report(auth: Caller, body: EnergyReportBody): Promise<AsyncIterable<EnergyRecord[]>> {
      const range = recordRange(body);
      const { place } = await placeOf(auth, body);
      const batches = repo.recordBatches(place, range);
      return (async function* () {
        for await (const rows of batches) yield rows.map(recordOf);
      })();
    },
  };
}
export type EnergyStatsService = ReturnType<typeof createEnergyStatsService>;
