import type { DeviceState } from '@lumigrid/protocol';
import { and, asc, desc, eq, gt, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type pg from 'pg';
import { pgliteOf, poolOf, type Db } from '../../db/client.ts';
import { copyRows, copyRowsToPglite, type CopyValue } from '../../db/copy.ts';
import { deviceReports, deviceStates, gateways } from '../../db/schema/index.ts';
import { uncachedGatewayDirectory, type GatewayDirectory, type GatewayRef } from './gateway-directory.ts';
import { selectChanges, type Taken } from './history-filter.ts';

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

export interface HistoryResult {
  /** History rows appended. */
  reports: number;
  /** MACs in the batch that name no gateway row; their rows were not written. */
  unknownMacs: string[];
}

/** A change-only history write: `unchanged` counts the rows of known gateways left out as repeats. */
export interface ChangesResult extends HistoryResult {
  unchanged: number;
}

/** The rows as a relation `u` (seq = their order), from one JSON parameter: one round trip for the batch. */
function recordsOf(rows: readonly ReportRow[]) {
  const json = JSON.stringify(rows.map((r, seq) => ({ ...r, seq })));
  return sql`select * from jsonb_to_recordset(${json}::jsonb) as u(
    seq int, "mac" text, "addr" text, "kind" text, "online" boolean, "fault" smallint, "state" jsonb,
    "reportedAt" timestamptz, "receivedAt" timestamptz)`;
}

const HISTORY_COLUMNS = ['gateway_id', 'tenant_id', 'addr', 'kind', 'online', 'fault', 'state', 'reported_at', 'received_at'];

/** The gateways of these MACs as they are now (id and account as text), whoever holds them: the ingest's lookup. */
export async function gatewaysByMacAnyTenant(db: Db, macs: readonly string[]): Promise<Array<GatewayRef & { mac: string }>> {
  if (macs.length === 0) return [];
  const rows = await db
    .select({ mac: gateways.mac, id: sql<string>`${gateways.id}::text`, tenantId: sql<string | null>`${gateways.tenantId}::text` })
    .from(gateways)
    .where(inArray(gateways.mac, [...macs]));
  return rows;
}

/** SQLSTATE class 23 (integrity): on the history, a gateway gone since its MAC was resolved (foreign key). */
const isIntegrityError = (error: unknown) => /^23/.test(String((error as { code?: unknown }).code ?? ''));

/** Loads rows into a table with one COPY, in their order; answers the rows written. */
type CopyInto = (table: string, columns: readonly string[], rows: readonly (readonly CopyValue[])[]) => Promise<number>;

/** COPY on a connection of the PostgreSQL pool, released (or dropped, when the database did not answer) after. */
function copyThroughPool(pool: pg.Pool): CopyInto {
  return async (table, columns, rows) => {
    const client = await pool.connect();
    let failure: unknown;
    try {
      return await copyRows(client, table, columns, rows);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // After an error the database answered (it has a SQLSTATE) the connection is ready again; otherwise drop it.
      client.release(failure !== undefined && typeof (failure as { code?: unknown }).code !== 'string');
    }
  };
}

/** A plain query with parameters, answered with its rows: pg.Pool and PGlite (on this thread or in its worker) alike. */
type QueryRows = <T>(text: string, params: unknown[]) => Promise<{ rows: T[] }>;

/**
 * The history's write: the batch's gateways resolved (from memory once known), then the rows with one COPY. A
 * gateway deleted since it was resolved fails the COPY on the foreign key, a data error: the batch's MACs are
 * resolved again, and the writer splits the batch, whose rows of that MAC then count as unknown.
 */
async function copyHistory(copy: CopyInto, directory: GatewayDirectory, rows: readonly ReportRow[]): Promise<HistoryResult> {
  const macs = [...new Set(rows.map((r) => r.mac))];
  const { byMac, unknownMacs } = await directory.resolve(macs);
  const values: CopyValue[][] = [];
  for (const r of rows) {
    const gw = byMac.get(r.mac);
    if (gw) values.push([gw.id, gw.tenantId, r.addr, r.kind, r.online, r.fault, JSON.stringify(r.state), r.reportedAt, r.receivedAt]);
  }
  if (values.length === 0) return { reports: 0, unknownMacs };
  try {
    return { reports: await copy('device_reports', HISTORY_COLUMNS, values), unknownMacs };
  } catch (error) {
    if (isIntegrityError(error)) directory.forgetMacs(macs);
    throw error;
  }
}

/**
 * The current states' write: the gateways resolved first, each device's last row of the batch
 * picked here, and the rows passed as one array per column (cheaper for the database than a JSON document to
 * take apart and join).
 */
async function upsertStatesByIds(query: QueryRows, directory: GatewayDirectory, rows: readonly ReportRow[]): Promise<number> {
  const macs = [...new Set(rows.map((r) => r.mac))];
  const { byMac } = await directory.resolve(macs);
  const latest = new Map<string, { gw: GatewayRef; row: ReportRow }>();
  const seen = new Map<string, string>();
  for (const row of rows) {
    const gw = byMac.get(row.mac);
    if (!gw) continue;
    latest.set(`${gw.id}/${row.addr}`, { gw, row });
    const at = seen.get(gw.id);
    if (at === undefined || Date.parse(row.receivedAt) > Date.parse(at)) seen.set(gw.id, row.receivedAt);
  }
  if (latest.size === 0) return 0;
  const columns: CopyValue[][] = Array.from({ length: 9 }, () => []);
  // In key order, as the change-only history writes them (addresses by code unit, its `collate "C"`, whatever the
  // database's collation), so the two never wait on each other in a circle.
  const ordered = [...latest.values()].sort(
    (a, b) => compareIds(a.gw.id, b.gw.id) || (a.row.addr < b.row.addr ? -1 : a.row.addr > b.row.addr ? 1 : 0),
  );
  for (const { gw, row } of ordered) {
    const values = [
      gw.id,
      row.addr,
      gw.tenantId,
      row.kind,
      row.online,
      row.fault,
      JSON.stringify(row.state),
      row.reportedAt,
      row.receivedAt,
    ];
    values.forEach((value, i) => columns[i]!.push(value));
  }
  const result = await query<{ states: number }>(
    `with up as (
       insert into device_states as s (gateway_id, addr, tenant_id, kind, online, fault, state, reported_at, received_at)
       select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::boolean[], $6::smallint[], $7::jsonb[], $8::timestamptz[], $9::timestamptz[])
       on conflict (gateway_id, addr) do update set
         tenant_id = excluded.tenant_id, kind = excluded.kind, online = excluded.online, fault = excluded.fault,
         state = excluded.state, reported_at = excluded.reported_at, received_at = excluded.received_at
       where s.received_at <= excluded.received_at
       returning 1
     ),
     seen as (
       update gateways gw set last_seen_at = greatest(gw.last_seen_at, m.at)
       from unnest($10::bigint[], $11::timestamptz[]) as m(id, at)
       where gw.id = m.id
       returning 1
     )
     select count(*)::int as states from up`,
    [...columns, [...seen.keys()], [...seen.values()]],
  ).catch((error: unknown) => {
    if (isIntegrityError(error)) directory.forgetMacs(macs);
    throw error;
  });
  return Number(result.rows[0]?.states ?? 0);
}

/** Two bigint ids given as decimal text, compared as numbers. */
const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** A device's key in the change-only history's records. */
export const deviceKey = (row: { mac: string; addr: string }) => `${row.mac}/${row.addr}`;

/** The first key of the change-only history's advisory locks (the second is the gateway's); no other user has it. */
const HISTORY_LOCKS = 0x4c474831;

/**
 * Takes the change-only history's lock of each of the rows' gateways (advisory, until the transaction ends) in
 * one order, so two writers never wait on each other in a circle; answers the gateways known, by MAC.
 */
async function lockHistoryOfGateways(tx: Db, rows: readonly ReportRow[]): Promise<Set<string>> {
  const macs = JSON.stringify([...new Set(rows.map((r) => r.mac))]);
  const result = (await tx.execute(sql`
    select g.mac, pg_advisory_xact_lock(${HISTORY_LOCKS}, g.lock_key)::text as locked
    from (
      select gw.mac, (gw.id % 2147483647)::int as lock_key from gateways gw
      where gw.mac in (select jsonb_array_elements_text(${macs}::jsonb))
      order by 2
    ) g
  `)) as unknown as { rows: Array<{ mac: string }> };
  return new Set(result.rows.map((r) => r.mac));
}

/** What the history last took of each of the rows' devices that has one: the digest and receipt of its last row. */
async function historyTaken(tx: Db, rows: readonly ReportRow[]): Promise<Map<string, Taken>> {
  const keys = JSON.stringify([...new Map(rows.map((r) => [deviceKey(r), { mac: r.mac, addr: r.addr }])).values()]);
  const result = (await tx.execute(sql`
    select gw.mac, s.addr, s.history_digest::text as digest, (extract(epoch from s.history_at) * 1000)::bigint::text as at
    from jsonb_to_recordset(${keys}::jsonb) as k(mac text, addr text)
    join gateways gw on gw.mac = k.mac
    join device_states s on s.gateway_id = gw.id and s.addr = k.addr
    where s.history_digest is not null
  `)) as unknown as { rows: Array<{ mac: string; addr: string; digest: string; at: string }> };
  return new Map(result.rows.map((r) => [deviceKey(r), { digest: Number(r.digest), at: Number(r.at) }]));
}

/** Queries of reported device states: the ingest write and tenant-scoped reads. */
export function createDeviceReportsRepo(db: Db, options: { gateways?: GatewayDirectory } = {}) {
  // Without a directory told of the gateways' changes, every write looks its gateways up again.
  const directory = options.gateways ?? uncachedGatewayDirectory((macs) => gatewaysByMacAnyTenant(db, macs));
  const pool = poolOf(db);
  const pglite = pgliteOf(db);
  const client = (pool ?? pglite) as { query: QueryRows } | undefined;
  const queryRows: QueryRows = (text, params) =>
    client ? client.query(text, params) : Promise.reject(new Error('device reports: the database is neither PostgreSQL nor PGlite'));
  const copyInto: CopyInto = pool
    ? copyThroughPool(pool)
    : (table, columns, rows) =>
        pglite ? copyRowsToPglite(pglite, table, columns, rows) : Promise.reject(new Error('device reports: no COPY on this database'));
  return {
    /**
     * Appends the rows to the history in one COPY, in arrival order, with the gateway (and so the tenant) its MAC
     * has at the write (resolved by the directory), so a rebinding takes effect with the next report.
     */
    appendHistory(rows: readonly ReportRow[]): Promise<HistoryResult> {
      if (rows.length === 0) return Promise.resolve({ reports: 0, unknownMacs: [] });
      return copyHistory(copyInto, directory, rows);
    },

    /**
     * Change-only history (history-filter.ts): appends the rows whose state differs from their device's last
     * history row, or whose heartbeat is due, in one transaction that holds the history's lock of the batch's
     * gateways, reads what the history last took of each device from device_states and moves it there. Every
     * node sharing the database decides against the same record, one after another, so a device returning to a
     * state another node wrote last gets its row, and two nodes never both write or both leave out the same
     * change. A device new to device_states gets its row (the state of its row taken) with it. Rows of an
     * unknown MAC are not written.
     */
    async appendChangedHistory(rows: readonly ReportRow[], heartbeatMs: number): Promise<ChangesResult> {
      if (rows.length === 0) return { reports: 0, unchanged: 0, unknownMacs: [] };
      return db.transaction(async (tx) => {
        // Read after the locks, by a statement of its own: it sees what a writer that held them committed.
        const knownMacs = await lockHistoryOfGateways(tx, rows);
        const known = rows.filter((r) => knownMacs.has(r.mac));
        const unknownMacs = [...new Set(rows.filter((r) => !knownMacs.has(r.mac)).map((r) => r.mac))];
        if (known.length === 0) return { reports: 0, unchanged: 0, unknownMacs };
        const selection = selectChanges(known, await historyTaken(tx, known), deviceKey, heartbeatMs);
        if (selection.kept.length === 0) return { reports: 0, unchanged: selection.unchanged, unknownMacs };
        // Each device's last row taken, with what it took.
        const lastKept = new Map(selection.kept.map((r) => [deviceKey(r), r]));
        const moved = [...selection.taken].map(([key, t]) => ({
          ...lastKept.get(key)!,
          digest: t.digest,
          takenAt: new Date(t.at).toISOString(),
        }));
        const result = (await tx.execute(sql`
          with h as (${recordsOf(selection.kept)}),
          ins as (
            insert into device_reports (gateway_id, tenant_id, addr, kind, online, fault, state, reported_at, received_at)
            select gw.id, gw.tenant_id, h.addr, h.kind, h.online, h.fault, h.state, h."reportedAt", h."receivedAt"
            from h join gateways gw on gw.mac = h.mac order by h.seq
            returning 1
          ),
          t as (
            select * from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as t(
              "mac" text, "addr" text, "kind" text, "online" boolean, "fault" smallint, "state" jsonb,
              "reportedAt" timestamptz, "receivedAt" timestamptz, "digest" bigint, "takenAt" timestamptz)
          ),
          moved as (
            insert into device_states as s (gateway_id, addr, tenant_id, kind, online, fault, state, reported_at, received_at, history_digest, history_at)
            select gw.id, t.addr, gw.tenant_id, t.kind, t.online, t.fault, t.state, t."reportedAt", t."receivedAt", t.digest, t."takenAt"
            from t join gateways gw on gw.mac = t.mac order by gw.id, t.addr collate "C"
            on conflict (gateway_id, addr) do update set history_digest = excluded.history_digest, history_at = excluded.history_at
            returning 1
          )
          select (select count(*) from ins)::int as reports
        `)) as unknown as { rows: Array<{ reports: number }> };
        return { reports: Number(result.rows[0]?.reports ?? 0), unchanged: selection.unchanged, unknownMacs };
      });
    },

    /**
     * Makes the rows the current states of their devices, in one statement (on PostgreSQL with the gateways the
     * directory resolves): the last row of a device in the batch wins, and a stored state is replaced only by one received
     * at the same time or later. Rows of an unknown MAC are skipped. The reporting gateways' last seen moves to the batch's latest receipt. Answers
     * how many states were inserted or replaced.
     */
    upsertStates(rows: readonly ReportRow[]): Promise<number> {
      if (rows.length === 0) return Promise.resolve(0);
      return upsertStatesByIds(queryRows, directory, rows);
    },

    /** The current state of every device of a gateway the tenant holds. */
    statesOf(q: { tenantId: bigint; gatewayId: bigint }) {
      return db
        .select()
        .from(deviceStates)
        .where(and(eq(deviceStates.tenantId, q.tenantId), eq(deviceStates.gatewayId, q.gatewayId)))
        .orderBy(asc(deviceStates.addr));
    },

    /** Removes up to `limit` history rows received before `before` (retention), answers how many. */
    purgeHistoryAnyTenant(q: { before: Date; limit: number }): Promise<number> {
      return purgeReceivedBefore(db, 'device_reports', q);
    },

    /**
     * A device's states over a time range (reported time) for a chart: the row in force at `from` (its last
     * one before, however old), then every row up to `to`. With change-only history a state holds until the
     * next row, so the first row carries the state into the range instead of leaving its start empty.
     */
    async historyBetween(q: { tenantId: bigint; gatewayId: bigint; addr: string; from: Date; to: Date; limit: number }) {
      const ofDevice = and(
        eq(deviceReports.tenantId, q.tenantId),
        eq(deviceReports.gatewayId, q.gatewayId),
        eq(deviceReports.addr, q.addr),
      );
      const before = await db
        .select()
        .from(deviceReports)
        .where(and(ofDevice, lt(deviceReports.reportedAt, q.from)))
        .orderBy(desc(deviceReports.reportedAt), desc(deviceReports.id))
        .limit(1);
      const within = await db
        .select()
        .from(deviceReports)
        .where(and(ofDevice, gte(deviceReports.reportedAt, q.from), lte(deviceReports.reportedAt, q.to)))
        .orderBy(asc(deviceReports.reportedAt), asc(deviceReports.id))
        .limit(q.limit);
      return [...before, ...within];
    },

    /**
     * A device's history rows in the order they became queryable, after a known id (paging). Change-only: each
     * row's state holds until the next one (historyBetween).
     */
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

/** Removes up to `limit` rows of an ingest history table received before `before` (retention); answers how many. */
export async function purgeReceivedBefore(
  db: Db,
  table: 'device_reports' | 'device_events',
  q: { before: Date; limit: number },
): Promise<number> {
  const name = sql.raw(table);
  const result = (await db.execute(sql`
    with gone as (
      delete from ${name} where id in (
        select id from ${name} where received_at < ${q.before.toISOString()}::timestamptz limit ${q.limit}
      )
      returning 1
    )
    select count(*)::int as n from gone
  `)) as unknown as { rows: Array<{ n: number }> };
  return Number(result.rows[0]?.n ?? 0);
}
