import type { HeatLevel } from '@lumigrid/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devicesAnyTenant } from '../devices/devices.repo.ts';
import { mapsOfPlace } from '../projects/maps.repo.ts';
import type { StatsPlace } from '../projects/project-access.ts';

/** Which maps a heatmap read takes: a project's, a building's or one map, within what the caller sees. */
export type HeatPlace = StatsPlace;

/** Local dates, inclusive. */
export interface LocalRange {
  from: string;
  to: string;
}

export interface SensorCountRow {
  deviceId: string;
  name: string;
  mapId: string;
  mapName: string;
  buildName: string;
  x: number | null;
  y: number | null;
  count: number;
}

type Rows<T> = { rows: T[] };

/** The devices the heatmap counts: motion sensors, and any device that reported occupied (a sensor of another kind). */
const MOTION_KIND = 'sensor-motion';

/** The place's maps as `m`, joined on the row's map: rows of no map or a deleted map drop out. */
function onPlace(p: HeatPlace): SQL {
  return sql`join ${mapsOfPlace(p)} on m.id = d.map_id`;
}

/** The windows of a device in the range of local days. */
const inRange = (r: LocalRange) =>
  sql`w.device_id = d.id and w.local_start >= ${r.from}::date::timestamp and w.local_start < (${r.to}::date + 1)::timestamp`;

/**
 * The heatmap's reads over sensor_activation_windows, and the projects' colour levels. Every query takes the
 * account; sensors are the place's devices as they stand now (docs/decisions.md "Heatmap").
 */
export function createHeatmapRepo(db: Db) {
  const sensorsOf = (p: HeatPlace, r: LocalRange) => sql`
    select d.id, d.name, d.map_id, d.x, d.y, m.name as map_name, m.build_id,
      (select count(*) from sensor_activation_windows w where ${inRange(r)})::int as count
    from ${devicesAnyTenant()} ${onPlace(p)}
    where d.tenant_id = ${String(p.tenantId)}::bigint
      and (d.kind = ${MOTION_KIND} or exists (select 1 from sensor_activation_windows w where ${inRange(r)}))`;

  async function sensorRows(p: HeatPlace, r: LocalRange, page?: { offset: number; limit: number }): Promise<SensorCountRow[]> {
    const result = (await db.execute(sql`
      select s.id::text as device_id, s.name, s.map_id::text as map_id, s.map_name, b.name as build_name, s.x, s.y, s.count
      from (${sensorsOf(p, r)}) s
      join buildings b on b.id = s.build_id
      order by s.count desc, s.name, s.id
      ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`)) as unknown as Rows<{
      device_id: string;
      name: string;
      map_id: string;
      map_name: string;
      build_name: string;
      x: unknown;
      y: unknown;
      count: number;
    }>;
    return result.rows.map((row) => ({
      deviceId: row.device_id,
      name: row.name,
      mapId: row.map_id,
      mapName: row.map_name,
      buildName: row.build_name,
      x: row.x === null ? null : Number(row.x),
      y: row.y === null ? null : Number(row.y),
      count: Number(row.count),
    }));
  }

  return {
    /** The place's sensors with their activations, most active first; every one without a page. */
    sensorRows,

    /** How many sensors the place has, and the largest count among them. */
    async sensorTotals(p: HeatPlace, r: LocalRange): Promise<{ total: number; maxCount: number }> {
      const result = (await db.execute(sql`
        select count(*)::int as total, coalesce(max(s.count), 0)::int as max_count from (${sensorsOf(p, r)}) s`)) as unknown as Rows<{
        total: number;
        max_count: number;
      }>;
      return { total: Number(result.rows[0]?.total ?? 0), maxCount: Number(result.rows[0]?.max_count ?? 0) };
    },

    /** Activations by ISO weekday (1 Monday) and local hour, of the place's sensors or of one of them. */
    async week(p: HeatPlace, r: LocalRange, deviceId?: bigint): Promise<Array<{ weekday: number; hour: number; count: number }>> {
      const result = (await db.execute(sql`
        select extract(isodow from w.local_start)::int as weekday, extract(hour from w.local_start)::int as hour, count(*)::int as count
        from ${devicesAnyTenant()} ${onPlace(p)}
        join sensor_activation_windows w on ${inRange(r)}
        where d.tenant_id = ${String(p.tenantId)}::bigint
          ${deviceId === undefined ? sql`` : sql`and d.id = ${String(deviceId)}::bigint`}
        group by 1, 2`)) as unknown as Rows<{ weekday: number; hour: number; count: number }>;
      return result.rows.map((row) => ({ weekday: Number(row.weekday), hour: Number(row.hour), count: Number(row.count) }));
    },

    /** Whether a device stands on a map of the account. */
    async deviceOnMap(q: { tenantId: bigint; mapId: bigint; deviceId: bigint }): Promise<boolean> {
      const result = (await db.execute(sql`
        select 1 from ${devicesAnyTenant()} where d.id = ${String(q.deviceId)}::bigint and d.tenant_id = ${String(q.tenantId)}::bigint
          and d.map_id = ${String(q.mapId)}::bigint`)) as unknown as Rows<unknown>;
      return result.rows.length > 0;
    },

    async settings(q: { tenantId: bigint; projectId: bigint }): Promise<{ levels: HeatLevel[]; updatedAt: Date } | undefined> {
      const result = (await db.execute(sql`
        select levels, updated_at from heatmap_settings
        where project_id = ${String(q.projectId)}::bigint and tenant_id = ${String(q.tenantId)}::bigint`)) as unknown as Rows<{
        levels: HeatLevel[];
        updated_at: unknown;
      }>;
      const row = result.rows[0];
      return row && { levels: row.levels, updatedAt: new Date(row.updated_at as string) };
    },

    async saveSettings(q: { tenantId: bigint; projectId: bigint; levels: HeatLevel[] }): Promise<void> {
      await db.execute(sql`
        insert into heatmap_settings (project_id, tenant_id, levels, updated_at)
        values (${String(q.projectId)}::bigint, ${String(q.tenantId)}::bigint, ${JSON.stringify(q.levels)}::jsonb, now())
        on conflict (project_id) do update set levels = excluded.levels, updated_at = excluded.updated_at`);
    },

    async deleteSettings(q: { tenantId: bigint; projectId: bigint }): Promise<void> {
      await db.execute(sql`
        delete from heatmap_settings where project_id = ${String(q.projectId)}::bigint and tenant_id = ${String(q.tenantId)}::bigint`);
    },
  };
}
export type HeatmapRepo = ReturnType<typeof createHeatmapRepo>;
