import type { DeviceState } from '@lumigrid/protocol';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deviceReports, deviceStates } from '../../db/schema/index.ts';

/** One reported device state on its way into the database. */
export interface ReportRow {
  /** The reporting gateway's MAC (topic segment); resolved to the gateway row inside the write. */
  mac: string;
  addr: string;
  kind: string;
  online: boolean;
  fault: number;
  state: DeviceState;
  /** The report's timestamp, ISO 8601 (gateway clock). */
  reportedAt: string;
  /** When the server received it, ISO 8601. */
  receivedAt: string;
}

export interface WriteResult {
  /** History rows appended. */
  reports: number;
  /** Current-state rows inserted or replaced. */
  states: number;
  /** MACs in the batch that name no gateway row; their rows were not written. */
  unknownMacs: string[];
}

/** Queries of reported device states: the ingest write and tenant-scoped reads. */
export function createDeviceReportsRepo(db: Db) {
  return {
    /**
     * Appends the rows to the history and upserts the current states, in one statement (so one round trip
     * and all or nothing). Rows are in arrival order: within the batch the last row of a device wins, and a
     * stored state is replaced only by one received at the same time or later. The gateway (and so the
     * tenant) is looked up by MAC inside the statement, so a rebinding takes effect with the next report.
     */
    async write(rows: readonly ReportRow[]): Promise<WriteResult> {
      if (rows.length === 0) return { reports: 0, states: 0, unknownMacs: [] };
      const json = JSON.stringify(rows.map((r, seq) => ({ ...r, seq })));
      // Both drivers answer { rows }; the shared Db type cannot say so.
      const result = (await db.execute(sql`
        with u as (
          select * from jsonb_to_recordset(${json}::jsonb) as u(
            seq int, "mac" text, "addr" text, "kind" text, "online" boolean, "fault" smallint, "state" jsonb,
            "reportedAt" timestamptz, "receivedAt" timestamptz)
        ),
        g as (
          select u.*, gw.id as gateway_id, gw.tenant_id from u join gateways gw on gw.mac = u.mac
        ),
        ins as (
          insert into device_reports (gateway_id, tenant_id, addr, kind, online, fault, state, reported_at, received_at)
          select gateway_id, tenant_id, addr, kind, online, fault, state, "reportedAt", "receivedAt" from g order by seq
          returning 1
        ),
        up as (
          insert into device_states as s (gateway_id, addr, tenant_id, kind, online, fault, state, reported_at, received_at)
          select distinct on (gateway_id, addr) gateway_id, addr, tenant_id, kind, online, fault, state, "reportedAt", "receivedAt"
          from g order by gateway_id, addr, seq desc
          on conflict (gateway_id, addr) do update set
            tenant_id = excluded.tenant_id, kind = excluded.kind, online = excluded.online, fault = excluded.fault,
            state = excluded.state, reported_at = excluded.reported_at, received_at = excluded.received_at
          where s.received_at <= excluded.received_at
          returning 1
        )
        select
          (select count(*) from ins)::int as reports,
          (select count(*) from up)::int as states,
          (select array_agg(distinct u.mac) from u where not exists (select 1 from gateways gw where gw.mac = u.mac)) as unknown_macs
      `)) as unknown as { rows: Array<{ reports: number; states: number; unknown_macs: string[] | null }> };
      const row = result.rows[0];
      return { reports: Number(row?.reports ?? 0), states: Number(row?.states ?? 0), unknownMacs: row?.unknown_macs ?? [] };
    },

    /** The current state of every device of a gateway the tenant holds. */
    statesOf(q: { tenantId: bigint; gatewayId: bigint }) {
      return db
        .select()
        .from(deviceStates)
        .where(and(eq(deviceStates.tenantId, q.tenantId), eq(deviceStates.gatewayId, q.gatewayId)))
        .orderBy(asc(deviceStates.addr));
    },

    /** A device's reported states in the order they became queryable, after a known id (paging). */
    historyOf(q: { tenantId: bigint; gatewayId: bigint; addr: string; afterId?: bigint; limit: number }) {
      return db
        .select()
        .from(deviceReports)
        .where(
          and(
            eq(deviceReports.tenantId, q.tenantId),
            eq(deviceReports.gatewayId, q.gatewayId),
            eq(deviceReports.addr, q.addr),
            q.afterId === undefined ? undefined : gt(deviceReports.id, q.afterId),
          ),
        )
        .orderBy(asc(deviceReports.id))
        .limit(q.limit);
    },
  };
}
export type DeviceReportsRepo = ReturnType<typeof createDeviceReportsRepo>;
