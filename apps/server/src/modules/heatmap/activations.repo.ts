import { HEATMAP_WINDOW_MINUTES } from '@lumigrid/contract';
import { wallClock } from '@lumigrid/protocol';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devicesAnyTenant } from '../devices/devices.repo.ts';
import { gatewaysAnyTenant } from '../gateways/gateways.repo.ts';

/** A motion sensor that reported occupied, as the ingest path hands it over. */
export interface ActivationRow {
  /** The reporting gateway's MAC. */
  mac: string;
  addr: string;
  /** The event's time, ISO 8601 (the arrival time when the gateway's clock is impossible). */
  reportedAt: string;
}

const WINDOW_MS = HEATMAP_WINDOW_MINUTES * 60_000;

/** The start of the detection window an instant falls in (epoch ms). */
export function windowStartOf(at: number): number {
  return Math.floor(at / WINDOW_MS) * WINDOW_MS;
}

/** A wall-clock instant (epoch ms read as UTC) as a timestamp without time zone. */
const localTimestamp = (wall: number) => new Date(wall).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The activation windows of docs/decisions.md "Heatmap": each occupied report marks its sensor's 30-minute
 * window, at most once (a redelivered or replayed event finds the row there). Devices not imported into an
 * account are not counted.
 */
export function createActivationsRepo(db: Db) {
  return {
    async record(rows: readonly ActivationRow[]): Promise<{ written: number; unknownMacs: string[]; windows: number }> {
      if (rows.length === 0) return { written: 0, unknownMacs: [], windows: 0 };
      const keys = JSON.stringify([...new Set(rows.map((r) => `${r.mac}|${r.addr}`))].map((k) => k.split('|')));
      const resolved = (await db.execute(sql`
        select u.mac, u.addr, gw.id is not null as known_gateway, d.id::text as device_id, d.tenant_id::text as tenant_id,
          coalesce(gw.timezone, 'UTC') as time_zone
        from jsonb_array_elements(${keys}::jsonb) k
        cross join lateral (select k->>0 as mac, k->>1 as addr) u
        left join ${gatewaysAnyTenant()} on gw.mac = u.mac
        left join ${devicesAnyTenant()} on d.gateway_id = gw.id and d.addr = u.addr and d.tenant_id = gw.tenant_id
      `)) as unknown as {
        rows: Array<{
          mac: string;
          addr: string;
          known_gateway: boolean;
          device_id: string | null;
          tenant_id: string | null;
          time_zone: string;
        }>;
      };
      const byKey = new Map(resolved.rows.map((r) => [`${r.mac}|${r.addr}`, r]));
      const unknownMacs = new Set<string>();
      const windows = new Map<string, { deviceId: string; tenantId: string; windowStart: string; localStart: string }>();
      let written = 0;
      for (const row of rows) {
        const device = byKey.get(`${row.mac}|${row.addr}`);
        if (!device?.known_gateway) {
          unknownMacs.add(row.mac);
          continue;
        }
        written++;
        if (!device.device_id || !device.tenant_id) continue;
        const start = windowStartOf(Date.parse(row.reportedAt));
        windows.set(`${device.device_id}|${start}`, {
          deviceId: device.device_id,
          tenantId: device.tenant_id,
          windowStart: new Date(start).toISOString(),
          localStart: localTimestamp(wallClock(start, device.time_zone)),
        });
      }
      if (windows.size > 0) {
        // Sorted, so two nodes inserting the same windows take their locks in one order.
        const values = [...windows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
        await db.execute(sql`
          insert into sensor_activation_windows (device_id, tenant_id, window_start, local_start)
          select "deviceId", "tenantId", "windowStart", "localStart"
          from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
            as r("deviceId" bigint, "tenantId" bigint, "windowStart" timestamptz, "localStart" timestamp)
          on conflict do nothing
        `);
      }
      return { written, unknownMacs: [...unknownMacs], windows: windows.size };
    },
  };
}
export type ActivationsRepo = ReturnType<typeof createActivationsRepo>;
