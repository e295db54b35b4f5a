import { deviceType } from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import { mapPlaces } from '../projects/maps.repo.ts';
import { localDateOf, localTimestampOf, spreadInterval, type EnergyPiece } from './energy-intervals.ts';

/** One device's telemetry sample as the energy rollups need it (a TelemetryRow fits). */
export interface EnergySample {
  /** The reporting gateway's MAC. */
  mac: string;
  addr: string;
  power: number | null;
  energyWh: number | null;
  /** The sample's time, ISO 8601. */
  reportedAt: string;
}

export interface EnergyRecordResult {
  /** Readings appended to the history (and counted in the rollups). */
  readings: number;
  /** Samples not newer than their device's last reading: duplicates or out of order, counted nowhere. */
  stale: number;
  /** Samples of devices not imported into an account, or carrying neither energy nor power. */
  skipped: number;
  /**
   * Map days that closed: a map's first reading of a later local day was recorded, so its day before (the
   * latest one with readings) is over. Each is told once across nodes: only the insert of the later day tells it.
   */
  closedDays: ClosedEnergyDay[];
}

/** A map's local day whose energy is complete (late samples of it still add to it). */
export interface ClosedEnergyDay {
  tenantId: bigint;
  projectId: bigint;
  mapId: bigint;
  localDate: string;
  energyWh: number;
  savedWh: number;
  onS: number;
}

interface ResolvedDevice {
  deviceId: string;
  tenantId: string;
  mapId: string | null;
  type: number;
  timeZone: string;
  /** The initial power of the device library type its part number matches, W, or null. */
  libraryPowerW: number | null;
}

interface DeviceState {
  readAt: number | null;
  counterWh: number | null;
  counterAt: number | null;
}

type Totals = { energyWh: number; savedWh: number; onS: number };

const MONTH_PARTITION = /^energy_readings_y\d{4}m\d{2}$/;

function addTo(map: Map<string, Totals & Record<string, unknown>>, key: string, base: Record<string, unknown>, p: EnergyPiece) {
  const row = map.get(key);
  if (row) {
    row.energyWh += p.energyWh;
    row.savedWh += p.savedWh;
    row.onS += p.onS;
  } else {
    map.set(key, { ...base, energyWh: p.energyWh, savedWh: p.savedWh, onS: p.onS });
  }
}

/** Sorted by key, so two server nodes upserting the same rollup rows take their locks in one order. */
const sortedRows = (map: Map<string, Totals & Record<string, unknown>>) =>
  [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => ({ ...row, onS: Math.round(row.onS) }));

/** A rollup's rows as the record set `r`: their keys (`keys`, as SQL column definitions), then the totals. */
const rollupRecords = (map: Map<string, Totals & Record<string, unknown>>, keys: string) =>
  sql`jsonb_to_recordset(${JSON.stringify(sortedRows(map))}::jsonb) as r(${sql.raw(keys)}, "energyWh" double precision, "savedWh" double precision, "onS" int)`;

/** A rollup row met again adds the new totals to its own. */
const ADD_TO_TOTALS = sql.raw(
  'energy_wh = t.energy_wh + excluded.energy_wh, saved_wh = t.saved_wh + excluded.saved_wh, on_s = t.on_s + excluded.on_s',
);

const epoch = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string | Date).getTime());

/** The month partition of energy_readings that holds `at` (epoch ms): its name and bounds. */
export function monthPartitionOf(at: number): { name: string; from: string; to: string } {
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  return {
    name: `energy_readings_y${y}m${String(m + 1).padStart(2, '0')}`,
    from: new Date(Date.UTC(y, m, 1)).toISOString(),
    to: new Date(Date.UTC(y, m + 1, 1)).toISOString(),
  };
}

/**
 * The energy history and its rollups (docs/decisions.md, "Energy from counters"). `record` takes a batch of
 * telemetry samples from the ingest path and, in one transaction, appends the readings and adds what each
 * interval between a device's readings used to its hourly and daily rollups.
 */
export function createEnergyRepo(db: Db, reads: Pick<OwnedReads, 'devices' | 'gateways'>) {
  const knownPartitions = new Set<string>();

  async function ensurePartitions(times: readonly number[]): Promise<void> {
    const wanted = new Map<string, ReturnType<typeof monthPartitionOf>>();
    for (const at of times) {
      const p = monthPartitionOf(at);
      if (!knownPartitions.has(p.name)) wanted.set(p.name, p);
    }
    for (const p of wanted.values()) {
      if (!MONTH_PARTITION.test(p.name)) throw new Error(`unexpected partition name ${p.name}`);
      try {
        await db.execute(
          sql.raw(`create table if not exists ${p.name} partition of energy_readings for values from ('${p.from}') to ('${p.to}')`),
        );
      } catch (error) {
        // Another node created it at the same moment: that is as good.
        const exists = (await db.execute(sql`select to_regclass(${p.name}) is not null as exists`)) as unknown as {
          rows: Array<{ exists: boolean }>;
        };
        if (!exists.rows[0]?.exists) throw error;
      }
      knownPartitions.add(p.name);
    }
  }

  /** energy_readings' partitions, named and with their month's end where the name is one of ours. */
  async function readingPartitions(): Promise<Array<{ name: string; end: number | null }>> {
    const found = (await db.execute(sql`
      select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
      where p.relname = 'energy_readings' order by c.relname
    `)) as unknown as { rows: Array<{ name: string }> };
    return found.rows.map(({ name }) => {
      const month = /^energy_readings_y(\d{4})m(\d{2})$/.exec(name);
      return { name, end: month ? Date.UTC(Number(month[1]), Number(month[2]), 1) : null };
    });
  }

  return {
    /**
     * Drops the month partitions of the history that end at or before `before` (retention; rollups stay), and
     * answers their names. A later sample of such a month is refused by the database and logged by the writer.
     */
    async dropReadingMonthsAnyTenant(before: Date): Promise<string[]> {
      const dropped: string[] = [];
      for (const p of await readingPartitions()) {
        if (p.end === null || p.end > before.getTime() || !MONTH_PARTITION.test(p.name)) continue;
        await db.execute(sql.raw(`drop table if exists ${p.name}`));
        knownPartitions.delete(p.name);
        dropped.push(p.name);
      }
      return dropped;
    },

    /**
     * Removes up to `limit` readings older than `before` from the partitions that remain (the month that holds
     * the cutoff), partition by partition (a row's ctid is unique within one); answers how many.
     */
    async purgeReadingsAnyTenant(q: { before: Date; limit: number }): Promise<number> {
      let removed = 0;
      for (const p of await readingPartitions()) {
        if (removed >= q.limit) break;
        if (!/^[A-Za-z0-9_]{1,63}$/.test(p.name)) continue;
        const table = sql.raw(`"${p.name}"`);
        const result = (await db.execute(sql`
          with gone as (
            delete from ${table} where ctid = any(array(
              select ctid from ${table} where read_at < ${q.before.toISOString()}::timestamptz limit ${q.limit - removed}
            ))
            returning 1
          )
          select count(*)::int as n from gone
        `)) as unknown as { rows: Array<{ n: number }> };
        removed += Number(result.rows[0]?.n ?? 0);
      }
      return removed;
    },

    /**
     * Appends the samples that carry energy or power to the history and adds their energy to the rollups. Per
     * device, samples are taken in time order; one not newer than the device's last reading is dropped, so a
     * redelivered or late message never counts twice. Energy is the counter delta to the previous counter
     * reading (a reset counts from 0), spread evenly over the hours between them.
     */
    async record(samples: readonly EnergySample[]): Promise<EnergyRecordResult> {
      const measured = samples.filter((s) => s.energyWh !== null || s.power !== null);
      const result: EnergyRecordResult = { readings: 0, stale: 0, skipped: samples.length - measured.length, closedDays: [] };
      if (measured.length === 0) return result;

      const keys = JSON.stringify([...new Set(measured.map((s) => `${s.mac}|${s.addr}`))].map((k) => k.split('|')));
      const resolved = (await db.execute(sql`
        select u.mac, u.addr, d.id::text as device_id, d.tenant_id::text as tenant_id, d.map_id::text as map_id, d.type,
          coalesce(gw.timezone, 'UTC') as time_zone, lt.initial_power as library_power_w
        from jsonb_array_elements(${keys}::jsonb) k
        cross join lateral (select k->>0 as mac, k->>1 as addr) u
        join ${reads.gateways()} on gw.mac = u.mac
        join ${reads.devices()} on d.gateway_id = gw.id and d.addr = u.addr and d.tenant_id = gw.tenant_id
        left join library_types lt on lt.tenant_id = d.tenant_id and lt.part_number = upper(trim(d.model))
      `)) as unknown as {
        rows: Array<{
          mac: string;
          addr: string;
          device_id: string;
          tenant_id: string;
          map_id: string | null;
          type: number;
          time_zone: string;
          library_power_w: number | null;
        }>;
      };
      const devicesByKey = new Map<string, ResolvedDevice>();
      for (const r of resolved.rows) {
        devicesByKey.set(`${r.mac}|${r.addr}`, {
          deviceId: r.device_id,
          tenantId: r.tenant_id,
          mapId: r.map_id,
          type: Number(r.type),
          timeZone: r.time_zone,
          libraryPowerW: r.library_power_w === null ? null : Number(r.library_power_w),
        });
      }
      const byDevice = new Map<string, { device: ResolvedDevice; samples: Array<EnergySample & { at: number }> }>();
      for (const s of measured) {
        const device = devicesByKey.get(`${s.mac}|${s.addr}`);
        if (!device) {
          result.skipped++;
          continue;
        }
        const entry = byDevice.get(device.deviceId) ?? { device, samples: [] };
        entry.samples.push({ ...s, at: Date.parse(s.reportedAt) });
        byDevice.set(device.deviceId, entry);
      }
      if (byDevice.size === 0) return result;
      await ensurePartitions([...byDevice.values()].flatMap((e) => e.samples.map((s) => s.at)));

      const deviceIds = JSON.stringify([...byDevice.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into energy_device_state (device_id)
          select (jsonb_array_elements_text(${deviceIds}::jsonb))::bigint
          on conflict do nothing
        `);
        const locked = (await tx.execute(sql`
          select device_id::text as device_id, read_at, counter_wh, counter_at from energy_device_state
          where device_id in (select (jsonb_array_elements_text(${deviceIds}::jsonb))::bigint)
          order by device_id for update
        `)) as unknown as { rows: Array<{ device_id: string; read_at: unknown; counter_wh: unknown; counter_at: unknown }> };
        const states = new Map<string, DeviceState>();
        for (const r of locked.rows) {
          states.set(r.device_id, {
            readAt: epoch(r.read_at),
            counterWh: r.counter_wh === null ? null : Number(r.counter_wh),
            counterAt: epoch(r.counter_at),
          });
        }

        const readings: Array<{ deviceId: string; readAt: string; energyWh: number | null; powerW: number | null }> = [];
        const nextStates: Array<{ deviceId: string; readAt: string; counterWh: number | null; counterAt: string | null }> = [];
        const deviceHours = new Map<string, Totals & Record<string, unknown>>();
        const mapHours = new Map<string, Totals & Record<string, unknown>>();
        const mapDays = new Map<string, Totals & Record<string, unknown>>();
        for (const [deviceId, { device, samples: list }] of byDevice) {
          const state = states.get(deviceId) ?? { readAt: null, counterWh: null, counterAt: null };
          const before = state.readAt;
          list.sort((a, b) => a.at - b.at);
          // The library type's initial power is the savings baseline of a light whose part number it has.
          const lighting = deviceType(device.type)?.lighting ?? false;
          const ratedPowerW = (lighting ? device.libraryPowerW : null) ?? deviceType(device.type)?.ratedPowerW ?? 0;
          for (const s of list) {
            if (state.readAt !== null && s.at <= state.readAt) {
              result.stale++;
              continue;
            }
            readings.push({ deviceId, readAt: s.reportedAt, energyWh: s.energyWh, powerW: s.power });
            state.readAt = s.at;
            if (s.energyWh === null) continue;
            if (state.counterWh !== null && state.counterAt !== null) {
              const pieces = spreadInterval({
                from: { at: state.counterAt, counterWh: state.counterWh },
                to: { at: s.at, counterWh: s.energyWh },
                ratedPowerW,
                timeZone: device.timeZone,
              });
              const mapKey = device.mapId ?? '';
              for (const p of pieces) {
                addTo(
                  deviceHours,
                  `${deviceId}|${p.hour}`,
                  { deviceId, tenantId: device.tenantId, hour: new Date(p.hour).toISOString() },
                  p,
                );
                const localHour = localTimestampOf(p.localHour);
                const localDate = localDateOf(p.localHour);
                addTo(
                  mapHours,
                  `${device.tenantId}|${mapKey}|${localHour}`,
                  { tenantId: device.tenantId, mapId: device.mapId, localHour },
                  p,
                );
                addTo(
                  mapDays,
                  `${device.tenantId}|${mapKey}|${localDate}`,
                  { tenantId: device.tenantId, mapId: device.mapId, localDate },
                  p,
                );
              }
            }
            state.counterWh = s.energyWh;
            state.counterAt = s.at;
          }
          if (state.readAt !== before) {
            nextStates.push({
              deviceId,
              readAt: new Date(state.readAt!).toISOString(),
              counterWh: state.counterWh,
              counterAt: state.counterAt === null ? null : new Date(state.counterAt).toISOString(),
            });
          }
        }
        result.readings = readings.length;
        if (readings.length === 0) return;

        await tx.execute(sql`
          insert into energy_readings (device_id, read_at, energy_wh, power_w)
          select "deviceId", "readAt", "energyWh", "powerW"
          from jsonb_to_recordset(${JSON.stringify(readings)}::jsonb) as r("deviceId" bigint, "readAt" timestamptz, "energyWh" real, "powerW" real)
        `);
        await tx.execute(sql`
          update energy_device_state s set read_at = v."readAt", counter_wh = v."counterWh", counter_at = v."counterAt"
          from jsonb_to_recordset(${JSON.stringify(nextStates)}::jsonb) as v("deviceId" bigint, "readAt" timestamptz, "counterWh" double precision, "counterAt" timestamptz)
          where s.device_id = v."deviceId"
        `);
        if (deviceHours.size === 0) return;
        await tx.execute(sql`
          insert into energy_device_hours as t (device_id, tenant_id, hour, energy_wh, saved_wh, on_s)
          select "deviceId", "tenantId", "hour", "energyWh", "savedWh", "onS"
          from ${rollupRecords(deviceHours, '"deviceId" bigint, "tenantId" bigint, "hour" timestamptz')}
          on conflict (device_id, hour) do update set ${ADD_TO_TOTALS}
        `);
        await tx.execute(sql`
          insert into energy_map_hours as t (tenant_id, map_id, local_hour, energy_wh, saved_wh, on_s)
          select "tenantId", "mapId", "localHour", "energyWh", "savedWh", "onS"
          from ${rollupRecords(mapHours, '"tenantId" bigint, "mapId" bigint, "localHour" timestamp')}
          on conflict on constraint energy_map_hours_key do update set ${ADD_TO_TOTALS}
        `);
        const days = (await tx.execute(sql`
          insert into energy_map_days as t (tenant_id, map_id, local_date, energy_wh, saved_wh, on_s)
          select "tenantId", "mapId", "localDate", "energyWh", "savedWh", "onS"
          from ${rollupRecords(mapDays, '"tenantId" bigint, "mapId" bigint, "localDate" date')}
          on conflict on constraint energy_map_days_key do update set ${ADD_TO_TOTALS}
          returning t.tenant_id::text as tenant_id, t.map_id::text as map_id, t.local_date::text as local_date, (t.xmax = 0) as opened
        `)) as unknown as { rows: Array<{ tenant_id: string; map_id: string; local_date: string; opened: boolean }> };
        const opened = days.rows.filter((d) => d.opened);
        if (opened.length === 0) return;
        const closed = (await tx.execute(sql`
          select prev.tenant_id::text as tenant_id, m.project_id::text as project_id, prev.map_id::text as map_id,
            prev.local_date::text as local_date, prev.energy_wh, prev.saved_wh, prev.on_s
          from jsonb_to_recordset(${JSON.stringify(opened)}::jsonb) as o(tenant_id bigint, map_id bigint, local_date date)
          cross join lateral (
            select * from energy_map_days d
            where d.tenant_id = o.tenant_id and d.map_id = o.map_id and d.local_date < o.local_date
            order by d.local_date desc limit 1
          ) prev
          join ${mapPlaces()} on m.id = prev.map_id
        `)) as unknown as {
          rows: Array<{
            tenant_id: string;
            project_id: string;
            map_id: string;
            local_date: string;
            energy_wh: number;
            saved_wh: number;
            on_s: number;
          }>;
        };
        // Two later days opened in one batch name the same day before once.
        const seen = new Set<string>();
        for (const r of closed.rows) {
          if (seen.has(`${r.map_id}|${r.local_date}`)) continue;
          seen.add(`${r.map_id}|${r.local_date}`);
          result.closedDays.push({
            tenantId: BigInt(r.tenant_id),
            projectId: BigInt(r.project_id),
            mapId: BigInt(r.map_id),
            localDate: r.local_date,
            energyWh: Number(r.energy_wh),
            savedWh: Number(r.saved_wh),
            onS: Number(r.on_s),
          });
        }
      });
      return result;
    },
  };
}
export type EnergyRepo = ReturnType<typeof createEnergyRepo>;
