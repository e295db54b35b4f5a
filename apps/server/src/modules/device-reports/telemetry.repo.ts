import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';

/** One device's telemetry sample: what it measured, and when, as the device list and detail show its last one. */
export interface DeviceTelemetry {
  power: number | null;
  voltage: number | null;
  current: number | null;
  energyWh: number | null;
  battery: number | null;
  temperature: number | null;
  lux: number | null;
  /** The sample's timestamp, ISO 8601 (gateway clock, or the arrival time when that clock is impossible). */
  reportedAt: string;
  /** When the server received it, ISO 8601: a value's age is counted from here, never from the gateway's clock. */
  receivedAt: string;
}

/** One device's telemetry sample on its way into the database (docs/protocol.md, up/telemetry). */
export interface TelemetryRow extends DeviceTelemetry {
  /** The reporting gateway's MAC (topic segment); resolved to the gateway row inside the write. */
  mac: string;
  /** Upper case, as device_states keeps it. */
  addr: string;
}

export interface TelemetryWriteResult {
  /** Rows inserted or replaced (an older sample than the stored one replaces nothing). */
  written: number;
  /** Rows whose MAC names no gateway; not written. */
  unknown: number;
  unknownMacs: string[];
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/**
 * The last telemetry sample per device (device_telemetry): the ingest upsert and a tenant-scoped read. Gateways and
 * devices are read through their owners' subqueries (`reads`: their owners reach the ingest).
 */
export function createTelemetryRepo(db: Db, reads: Pick<OwnedReads, 'devices' | 'gateways'>) {
  return {
    /**
     * Upserts the last sample per device in one statement. Rows are in arrival order: within the batch the
     * last row of a device wins, and a stored sample is replaced only by one received at the same time or later.
     */
    async write(rows: readonly TelemetryRow[]): Promise<TelemetryWriteResult> {
      if (rows.length === 0) return { written: 0, unknown: 0, unknownMacs: [] };
      const json = JSON.stringify(rows.map((r, seq) => ({ ...r, seq })));
      const result = (await db.execute(sql`
        with u as (
          select * from jsonb_to_recordset(${json}::jsonb) as u(
            seq int, "mac" text, "addr" text, "power" real, "voltage" real, "current" real, "energyWh" double precision,
            "battery" real, "temperature" real, "lux" real, "reportedAt" timestamptz, "receivedAt" timestamptz)
        ),
        g as (
          select u.*, gw.id as gateway_id from u join ${reads.gateways()} on gw.mac = u.mac
        ),
        up as (
          insert into device_telemetry as t (gateway_id, addr, power, voltage, current, energy_wh, battery, temperature, lux, reported_at, received_at)
          select distinct on (gateway_id, addr) gateway_id, addr, power, voltage, current, "energyWh", battery, temperature, lux, "reportedAt", "receivedAt"
          from g order by gateway_id, addr, seq desc
          on conflict (gateway_id, addr) do update set
            power = excluded.power, voltage = excluded.voltage, current = excluded.current, energy_wh = excluded.energy_wh,
            battery = excluded.battery, temperature = excluded.temperature, lux = excluded.lux,
            reported_at = excluded.reported_at, received_at = excluded.received_at
          where t.received_at <= excluded.received_at
          returning 1
        )
        select
          (select count(*) from up)::int as written,
          (select count(*) from u where not exists (select 1 from ${reads.gateways()} where gw.mac = u.mac))::int as unknown,
          (select array_agg(distinct u.mac) from u where not exists (select 1 from ${reads.gateways()} where gw.mac = u.mac)) as unknown_macs
      `)) as unknown as { rows: Array<{ written: number; unknown: number; unknown_macs: string[] | null }> };
      const row = result.rows[0];
      return { written: Number(row?.written ?? 0), unknown: Number(row?.unknown ?? 0), unknownMacs: row?.unknown_macs ?? [] };
    },

    /**
     * The last telemetry of the tenant's devices among `deviceIds`, by device id. Only devices the tenant owns,
     * on a gateway bound to that tenant now, answer: another account never sees a sample.
     */
    async ofDevices(tenantId: bigint, deviceIds: readonly bigint[]): Promise<Map<string, DeviceTelemetry>> {
      const out = new Map<string, DeviceTelemetry>();
      if (deviceIds.length === 0) return out;
      const ids = JSON.stringify(deviceIds.map(String));
      const result = (await db.execute(sql`
        select d.id::text as id, t.power, t.voltage, t.current, t.energy_wh, t.battery, t.temperature, t.lux, t.reported_at, t.received_at
        from ${reads.devices()}
        join ${reads.gateways()} on gw.id = d.gateway_id and gw.tenant_id = d.tenant_id
        join device_telemetry t on t.gateway_id = d.gateway_id and t.addr = d.addr
        where d.tenant_id = ${tenantId} and d.id in (select (jsonb_array_elements_text(${ids}::jsonb))::bigint)
      `)) as unknown as { rows: Array<Record<string, unknown>> };
      for (const r of result.rows) {
        out.set(String(r.id), {
          power: num(r.power),
          voltage: num(r.voltage),
          current: num(r.current),
          energyWh: num(r.energy_wh),
          battery: num(r.battery),
          temperature: num(r.temperature),
          lux: num(r.lux),
          reportedAt: iso(r.reported_at),
          receivedAt: iso(r.received_at),
        });
      }
      return out;
    },
  };
}
export type TelemetryRepo = ReturnType<typeof createTelemetryRepo>;
