import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mapsOfPlace } from '../projects/maps.repo.ts';
import type { StatsPlace } from '../projects/project-access.ts';

/** Which maps an energy read takes: a project's, a building's or one map, within what the caller sees. */
export type EnergyPlace = StatsPlace;

/** Used and saved energy of a bucket, Wh. */
export interface EnergySums {
  bucket: string;
  energyWh: number;
  savedWh: number;
}

export interface EnergyRecordRow {
  date: string;
  mapId: string;
  projectName: string;
  buildName: string;
  mapName: string;
  energyWh: number;
  savedWh: number;
}

/** Local dates, inclusive, and whether records are a day or a month each. */
export interface RecordRange {
  from: string;
  to: string;
  unit: 'day' | 'month';
}

type Rows<T> = { rows: T[] };

/** The join and conditions that keep a rollup's rows to the place's maps (rows of no map or a deleted map drop out). */
function onPlace(p: EnergyPlace): SQL {
  return sql`join ${mapsOfPlace(p)} on m.id = r.map_id`;
}

const dateKey = (unit: RecordRange['unit']) =>
  unit === 'day' ? sql`to_char(r.local_date, 'YYYY-MM-DD')` : sql`to_char(r.local_date, 'YYYY-MM')`;

/**
 * The energy reads of the statistics and records pages, from the per-map rollups only (energy_map_hours for a
 * day, energy_map_days otherwise), never the readings. Every query takes the account.
 */
export function createEnergyStatsRepo(db: Db) {
  const sums = async (query: SQL): Promise<EnergySums[]> => {
    const result = (await db.execute(query)) as unknown as Rows<{ bucket: string; energy_wh: unknown; saved_wh: unknown }>;
    return result.rows.map((r) => ({ bucket: r.bucket, energyWh: Number(r.energy_wh), savedWh: Number(r.saved_wh) }));
  };

  function records(p: EnergyPlace, range: RecordRange, page: { offset: number; limit: number }): Promise<EnergyRecordRow[]> {
    return db
      .execute(
        sql`
        select ${dateKey(range.unit)} as date, m.id::text as map_id, pr.name as project_name, b.name as build_name,
          m.name as map_name, sum(r.energy_wh) as energy_wh, sum(r.saved_wh) as saved_wh
        from energy_map_days r ${onPlace(p)}
        join buildings b on b.id = m.build_id
        join projects pr on pr.id = m.project_id
        where r.tenant_id = ${String(p.tenantId)}::bigint and r.local_date between ${range.from}::date and ${range.to}::date
        group by 1, m.id, pr.name, b.name, m.name
        order by 1 desc, pr.name, b.name, m.name, m.id
        limit ${page.limit} offset ${page.offset}`,
      )
      .then((result) =>
        (
          result as unknown as Rows<{
            date: string;
            map_id: string;
            project_name: string;
            build_name: string;
            map_name: string;
            energy_wh: unknown;
            saved_wh: unknown;
          }>
        ).rows.map((r) => ({
          date: r.date,
          mapId: r.map_id,
          projectName: r.project_name,
          buildName: r.build_name,
          mapName: r.map_name,
          energyWh: Number(r.energy_wh),
          savedWh: Number(r.saved_wh),
        })),
      );
  }

  return {
    /** The day's local hours ('00'-'23') that have energy. */
    hours(p: EnergyPlace, date: string): Promise<EnergySums[]> {
      return sums(sql`
        select to_char(r.local_hour, 'HH24') as bucket, sum(r.energy_wh) as energy_wh, sum(r.saved_wh) as saved_wh
        from energy_map_hours r ${onPlace(p)}
        where r.tenant_id = ${String(p.tenantId)}::bigint
          and r.local_hour >= ${date}::date::timestamp and r.local_hour < (${date}::date + 1)::timestamp
        group by 1`);
    },

    /** The local days ('YYYY-MM-DD') or months ('YYYY-MM') from `from` to `to` that have energy. */
    days(p: EnergyPlace, range: RecordRange): Promise<EnergySums[]> {
      return sums(sql`
        select ${dateKey(range.unit)} as bucket, sum(r.energy_wh) as energy_wh, sum(r.saved_wh) as saved_wh
        from energy_map_days r ${onPlace(p)}
        where r.tenant_id = ${String(p.tenantId)}::bigint and r.local_date between ${range.from}::date and ${range.to}::date
        group by 1`);
    },

    /** Energy records: one row per map per day or month, newest first, then by project, building and map. */
    records,

    async countRecords(p: EnergyPlace, range: RecordRange): Promise<number> {
      const result = (await db.execute(sql`
        select count(*)::int as n from (
          select distinct ${dateKey(range.unit)}, r.map_id
          from energy_map_days r ${onPlace(p)}
          where r.tenant_id = ${String(p.tenantId)}::bigint and r.local_date between ${range.from}::date and ${range.to}::date
        ) x`)) as unknown as Rows<{ n: number }>;
      return Number(result.rows[0]?.n ?? 0);
    },

    /** Every record, a batch at a time, for the report. */
    async *recordBatches(p: EnergyPlace, range: RecordRange, batchSize = 2000): AsyncGenerator<EnergyRecordRow[]> {
      for (let offset = 0; ; offset += batchSize) {
        const rows = await records(p, range, { offset, limit: batchSize });
        if (rows.length) yield rows;
        if (rows.length < batchSize) return;
      }
    },
  };
}
export type EnergyStatsRepo = ReturnType<typeof createEnergyStatsRepo>;
