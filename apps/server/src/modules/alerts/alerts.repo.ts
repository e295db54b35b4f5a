import { and, desc, eq, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alerts, buildings, projects } from '../../db/schema/index.ts';
import { mapPlaces } from '../projects/maps.repo.ts';
import type { PlaceFilter } from '../projects/project-access.ts';
import { usersSeeingMap } from '../projects/map-audience.ts';

/** What an alert is raised on, as it stands when raised. */
export interface AlertSubject {
  tenantId: bigint;
  gatewayId: bigint;
  gatewayName: string;
  deviceId: bigint | null;
  addr: string;
  name: string;
  deviceType: number | null;
  projectId: bigint | null;
  buildId: bigint | null;
  mapId: bigint | null;
}

export interface AlertFilter extends PlaceFilter {
  code?: number;
  state?: 'pending' | 'handled';
  open?: boolean;
  from?: Date;
  to?: Date;
}

/** An alert just marked handled: what another domain needs to know of it. */
export interface HandledAlert {
  id: bigint;
  tenantId: bigint;
  deviceId: bigint | null;
  deviceType: number | null;
  code: number;
}

/** Queries of alerts. Every read and change takes the account, so another account's ids match nothing. */
export function createAlertsRepo(db: Db) {
  /** The names of alerts' maps. */
  const onMap = mapPlaces();
  function where(f: AlertFilter): SQL | undefined {
    return and(
      eq(alerts.tenantId, f.tenantId),
      f.mapIds ? (f.mapIds.length ? inArray(alerts.mapId, f.mapIds) : sql`false`) : undefined,
      f.projectId !== undefined ? eq(alerts.projectId, f.projectId) : undefined,
      f.buildId !== undefined ? eq(alerts.buildId, f.buildId) : undefined,
      f.mapId !== undefined ? eq(alerts.mapId, f.mapId) : undefined,
      f.gatewayId !== undefined ? eq(alerts.gatewayId, f.gatewayId) : undefined,
      f.code !== undefined ? eq(alerts.code, f.code) : undefined,
      f.state === 'handled' ? isNotNull(alerts.handledAt) : f.state === 'pending' ? isNull(alerts.handledAt) : undefined,
      f.open === true ? isNull(alerts.clearedAt) : f.open === false ? isNotNull(alerts.clearedAt) : undefined,
      f.from ? gte(alerts.raisedAt, f.from) : undefined,
      f.to ? lte(alerts.raisedAt, f.to) : undefined,
    );
  }

  /** Alerts with the names of their places, as the list shows them. */
  function listed() {
    return db
      .select({ alert: alerts, projectName: projects.name, buildName: buildings.name, mapName: onMap.name })
      .from(alerts)
      .leftJoin(projects, eq(projects.id, alerts.projectId))
      .leftJoin(buildings, eq(buildings.id, alerts.buildId))
      .leftJoin(onMap, eq(onMap.id, alerts.mapId));
  }

  /**
   * The rows after a row in the list's order (newest first). A row comparison, which PostgreSQL takes as a bound
   * of the (tenant, raised_at, id) index scan, so a page however deep starts at its first row.
   */
  function olderThan(row: { raisedAt: Date; id: bigint }): SQL {
    return sql`(${alerts.raisedAt}, ${alerts.id}) < (${row.raisedAt}, ${row.id})`;
  }

  return {
    /** The codes open on each address of a gateway ('' the gateway itself). */
    async openOfGateway(q: { gatewayId: bigint }): Promise<Map<string, Set<number>>> {
      const rows = await db
        .select({ addr: alerts.addr, code: alerts.code })
        .from(alerts)
        .where(and(eq(alerts.gatewayId, q.gatewayId), isNull(alerts.clearedAt)));
      const open = new Map<string, Set<number>>();
      for (const r of rows) open.set(r.addr, (open.get(r.addr) ?? new Set()).add(r.code));
      return open;
    },

    /** Raises an alert unless the same one is open already (another node, a redelivery); answers it when new. */
    async raise(q: AlertSubject & { code: number; raisedAt: Date }) {
      const rows = await db.execute(sql`
        insert into ${alerts} (tenant_id, gateway_id, device_id, addr, code, name, device_type, gateway_name, project_id, build_id, map_id, raised_at)
        values (${q.tenantId}, ${q.gatewayId}, ${q.deviceId}, ${q.addr}, ${q.code}, ${q.name}, ${q.deviceType}, ${q.gatewayName},
                ${q.projectId}, ${q.buildId}, ${q.mapId}, ${q.raisedAt})
        on conflict (gateway_id, addr, code) where cleared_at is null do nothing
        returning id`);
      const [row] = (rows as unknown as { rows: Array<{ id: string | bigint }> }).rows;
      return row ? BigInt(row.id) : undefined;
    },

    /** Clears the open alerts of an address (one code, or every code). */
    async clear(q: { gatewayId: bigint; addr: string; code?: number; at: Date }) {
      await db
        .update(alerts)
        .set({ clearedAt: q.at })
        .where(
          and(
            eq(alerts.gatewayId, q.gatewayId),
            eq(alerts.addr, q.addr),
            isNull(alerts.clearedAt),
            q.code === undefined ? undefined : eq(alerts.code, q.code),
          ),
        );
    },

    /** The users who are told about an alert on a map. */
    audience(q: { tenantId: bigint; mapId: bigint | null }) {
      return usersSeeingMap(db, q);
    },

    /**
     * A page of alerts, newest first, with the names of their places. `after` continues from a row by the index
     * (keyset); otherwise `offset` rows are skipped.
     */
    async page(f: AlertFilter & { limit: number; offset: number; after?: { raisedAt: Date; id: bigint } }) {
      const keyset = f.after ? olderThan(f.after) : undefined;
      const offset = f.after ? 0 : f.offset;
      // The total is counted up to this many rows past the page's offset, so a page costs the same at a million
      // alerts as at ten thousand; past it the answer says `totalCapped` and `total` is a lower bound.
      const COUNT_CAP = 10_000;
      const countLimit = offset + COUNT_CAP;
      const [rows, [counted]] = await Promise.all([
        listed()
          .where(and(where(f), keyset))
          .orderBy(desc(alerts.raisedAt), desc(alerts.id))
          .limit(f.limit)
          .offset(offset),
        db.select({ n: sql<number>`count(*)::int` }).from(
          db
            .select({ one: sql`1`.as('one') })
            .from(alerts)
            .where(where(f))
            .limit(countLimit + 1)
            .as('counted'),
        ),
      ]);
      const n = counted?.n ?? 0;
      return { rows, total: Math.min(n, countLimit), totalCapped: n > countLimit };
    },

    /** Fault statistics of the alerts a filter takes (raised in its range), and the faults open now. */
    async statistics(f: AlertFilter & { from: Date; to: Date; unit: 'day' | 'week' | 'month'; utcOffsetMin: number }) {
      const inRange = where(f);
      const [totals] = await db
        .select({
          total: sql<number>`count(*)::int`,
          pending: sql<number>`(count(*) filter (where ${alerts.handledAt} is null))::int`,
          meanMinutes: sql<
            number | null
          >`avg(extract(epoch from ${alerts.clearedAt} - ${alerts.raisedAt}) / 60) filter (where ${alerts.clearedAt} is not null)`,
        })
        .from(alerts)
        .where(inRange);
      const [open] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(alerts)
        .where(and(where({ ...f, from: undefined, to: undefined }), isNull(alerts.clearedAt)));
      const byCode = await db
        .select({ code: alerts.code, count: sql<number>`count(*)::int` })
        .from(alerts)
        .where(inRange)
        .groupBy(alerts.code)
        .orderBy(alerts.code);
      const byMap = await db
        .select({
          mapId: alerts.mapId,
          mapName: sql<string>`coalesce(max(${onMap.name}), '')`,
          buildName: sql<string>`coalesce(max(${buildings.name}), '')`,
          count: sql<number>`count(*)::int`,
        })
        .from(alerts)
        .leftJoin(onMap, eq(onMap.id, alerts.mapId))
        .leftJoin(buildings, eq(buildings.id, alerts.buildId))
        .where(inRange)
        .groupBy(alerts.mapId)
        .orderBy(sql`count(*) desc`, alerts.mapId)
        .limit(20);
      const bucket = sql<string>`to_char(date_trunc(${f.unit}, (${alerts.raisedAt} at time zone 'UTC') + make_interval(mins => ${f.utcOffsetMin})), 'YYYY-MM-DD')`;
      const overTime = await db
        .select({ bucket, count: sql<number>`count(*)::int` })
        .from(alerts)
        .where(inRange)
        .groupBy(sql`1`)
        .orderBy(sql`1`);
      return {
        total: totals?.total ?? 0,
        pending: totals?.pending ?? 0,
        open: open?.n ?? 0,
        meanMinutes: totals?.meanMinutes === null || totals?.meanMinutes === undefined ? null : Number(totals.meanMinutes),
        byCode,
        byMap,
        overTime,
      };
    },

    /** Of these ids, those of the account (and, for a limited sub-account, on its maps). */
    async owned(q: { tenantId: bigint; mapIds?: bigint[]; ids: bigint[] }): Promise<bigint[]> {
      const rows = await db
        .select({ id: alerts.id })
        .from(alerts)
        .where(and(where({ tenantId: q.tenantId, mapIds: q.mapIds }), inArray(alerts.id, q.ids)));
      return rows.map((r) => r.id);
    },

    /**
     * Marks the pending ones of these alerts handled and answers them; `within` runs in the same transaction with
     * them and its database, for another domain's writes that must stand or fall with the marking.
     */
    async handle(
      q: { tenantId: bigint; ids: bigint[]; userId: bigint; userName: string; note: string; at: Date },
      within: (tx: Db, handled: HandledAlert[]) => Promise<void> = async () => undefined,
    ): Promise<HandledAlert[]> {
      return db.transaction(async (tx) => {
        const handled = await tx
          .update(alerts)
          .set({ handledBy: q.userId, handledByName: q.userName, handledAt: q.at, note: q.note })
          .where(and(eq(alerts.tenantId, q.tenantId), inArray(alerts.id, q.ids), isNull(alerts.handledAt)))
          .returning({
            id: alerts.id,
            tenantId: alerts.tenantId,
            deviceId: alerts.deviceId,
            deviceType: alerts.deviceType,
            code: alerts.code,
          });
        await within(tx as unknown as Db, handled);
        return handled;
      });
    },

    async remove(q: { tenantId: bigint; ids: bigint[] }): Promise<number> {
      const rows = await db
        .delete(alerts)
        .where(and(eq(alerts.tenantId, q.tenantId), inArray(alerts.id, q.ids)))
        .returning({ id: alerts.id });
      return rows.length;
    },

    /** Every alert a filter takes, newest first, a batch at a time by the index (the failure report). */
    async *batches(f: AlertFilter, size = 1000) {
      let after: { raisedAt: Date; id: bigint } | undefined;
      for (;;) {
        const rows = await listed()
          .where(and(where(f), after && olderThan(after)))
          .orderBy(desc(alerts.raisedAt), desc(alerts.id))
          .limit(size);
        if (rows.length > 0) yield rows;
        if (rows.length < size) return;
        const last = rows.at(-1)!.alert;
        after = { raisedAt: last.raisedAt, id: last.id };
      }
    },

    /** Alerts whose fault lasts, per map (null: not on a map), of those a filter takes. */
    async openByMap(q: AlertFilter): Promise<Map<bigint | null, number>> {
      const rows = await db
        .select({ mapId: alerts.mapId, n: sql<number>`count(*)::int` })
        .from(alerts)
        .where(and(where(q), isNull(alerts.clearedAt)))
        .groupBy(alerts.mapId);
      return new Map(rows.map((r) => [r.mapId, r.n]));
    },

    /** Open alerts per gateway: its own (offline) and its devices'. */
    async openByGateway(q: AlertFilter): Promise<Map<bigint, number>> {
      const rows = await db
        .select({ gatewayId: alerts.gatewayId, n: sql<number>`count(*)::int` })
        .from(alerts)
        .where(and(where(q), isNull(alerts.clearedAt)))
        .groupBy(alerts.gatewayId);
      return new Map(rows.flatMap((r) => (r.gatewayId === null ? [] : [[r.gatewayId, r.n] as const])));
    },
  };
}
export type AlertsRepo = ReturnType<typeof createAlertsRepo>;
