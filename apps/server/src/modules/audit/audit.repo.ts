import { and, count, desc, eq, gte, inArray, isNotNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ResourceKind } from '@lumigrid/contract';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Subquery } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditTrail, buildings, groups, projects, scenes } from '../../db/schema/index.ts';
import { deviceRecordsAnyTenant, devicesAnyTenant } from '../devices/devices.repo.ts';
import { gatewayRecordsAnyTenant, gatewaysAnyTenant } from '../gateways/gateways.repo.ts';
import { mapPlaces, mapRecordsAnyTenant } from '../projects/maps.repo.ts';
import { parseTarget } from '../../http/audit-entry.ts';

export type AuditRow = typeof auditTrail.$inferSelect & { projectName: string | null };
export type AuditInsert = typeof auditTrail.$inferInsert;

/**
 * Which entries a caller reads (the role matrix applied to the trail): every one (the platform administrator),
 * an account's (its own users' and sub-accounts'), or a sub-account's: its own, and those on the projects it
 * sees (`projectIds` undefined: every project of its account).
 */
export type AuditVisibility =
  { all: true } | { all: false; tenantId: bigint; subAccount?: { userId: bigint; projectIds?: readonly bigint[] } };

export interface AuditFilter {
  from?: Date;
  to?: Date;
  userId?: bigint;
  projectId?: bigint;
  /** A domain (`devices`) or one endpoint (`devices.control`). */
  kind?: string;
  targetKind?: ResourceKind;
  targetId?: string;
  ok?: boolean;
}

/** How each kind of object finds its project: a scalar subquery on the id expression `id`. */
const PROJECT_OF: Record<ResourceKind, ((id: SQL) => SQL) | undefined> = {
  project: (id) => sql`(select p.id from projects p where p.id = ${id})`,
  building: (id) => sql`(select b.project_id from buildings b where b.id = ${id})`,
  map: (id) => sql`(select m.project_id from ${mapPlaces()} where m.id = ${id})`,
  gateway: (id) => sql`(select m.project_id from ${gatewaysAnyTenant('g')} join ${mapPlaces()} on m.id = g.map_id where g.id = ${id})`,
  device: (id) => sql`(select m.project_id from ${devicesAnyTenant()} join ${mapPlaces()} on m.id = d.map_id where d.id = ${id})`,
  group: (id) => sql`(select m.project_id from groups g join ${mapPlaces()} on m.id = g.map_id where g.id = ${id})`,
  scene: (id) => sql`(select s.project_id from scenes s where s.id = ${id})`,
  virtualDevice: (id) => sql`(select m.project_id from virtual_devices v join ${mapPlaces()} on m.id = v.map_id where v.id = ${id})`,
  emergencyTask: (id) => sql`(select t.project_id from emergency_tasks t where t.id = ${id})`,
  recipient: (id) => sql`(select r.project_id from mail_recipients r where r.id = ${id})`,
  paramTemplate: undefined,
  libraryType: undefined,
  pushApp: undefined,
  pushNews: undefined,
};

/** The order in which a call's targets name its project: the most direct first. */
const PROJECT_ORDER: ResourceKind[] = [
  'project',
  'scene',
  'emergencyTask',
  'recipient',
  'building',
  'map',
  'device',
  'gateway',
  'group',
  'virtualDevice',
];

/** The tables of the objects an edit's `before` is read from (contract `audit.before`). */
const map = mapRecordsAnyTenant();
const gateway = gatewayRecordsAnyTenant();
const device = deviceRecordsAnyTenant();
const EDITED: Partial<Record<ResourceKind, { table: PgTable | Subquery; id: AnyPgColumn }>> = {
  project: { table: projects, id: projects.id },
  building: { table: buildings, id: buildings.id },
  map: { table: map, id: map.id },
  gateway: { table: gateway, id: gateway.id },
  device: { table: device, id: device.id },
  group: { table: groups, id: groups.id },
  scene: { table: scenes, id: scenes.id },
};

/** A column's value as JSON keeps it: ids as strings, times as ISO text. */
function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}

function visible(v: AuditVisibility): SQL | undefined {
  if (v.all) return undefined;
  const tenant = eq(auditTrail.tenantId, v.tenantId);
  if (!v.subAccount) return tenant;
  const { userId, projectIds } = v.subAccount;
  const onProjects =
    projectIds === undefined
      ? isNotNull(auditTrail.projectId)
      : projectIds.length === 0
        ? sql`false`
        : inArray(auditTrail.projectId, [...projectIds]);
  return and(tenant, or(eq(auditTrail.userId, userId), onProjects));
}

function matching(f: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (f.from) where.push(gte(auditTrail.at, f.from));
  if (f.to) where.push(lte(auditTrail.at, f.to));
  if (f.userId !== undefined) where.push(eq(auditTrail.userId, f.userId));
  if (f.projectId !== undefined) where.push(eq(auditTrail.projectId, f.projectId));
  if (f.kind) where.push(f.kind.includes('.') ? eq(auditTrail.endpoint, f.kind) : eq(auditTrail.kind, f.kind));
  if (f.targetId !== undefined) {
    const kinds = f.targetKind ? [f.targetKind] : Object.keys(PROJECT_OF);
    const keys = kinds.map((k) => `${k}:${f.targetId}`);
    // Overlap with the GIN index: any of the kinds the id may be of.
    where.push(sql`${auditTrail.targets} && ${sql.param(keys)}::text[]`);
  } else if (f.targetKind) {
    where.push(sql`exists (select 1 from unnest(${auditTrail.targets}) t where t like ${`${f.targetKind}:%`})`);
  }
  if (f.ok === true) where.push(eq(auditTrail.code, 0));
  if (f.ok === false) where.push(ne(auditTrail.code, 0));
  return where;
}

const COLUMNS = {
  id: auditTrail.id,
  at: auditTrail.at,
  tenantId: auditTrail.tenantId,
  userId: auditTrail.userId,
  userName: auditTrail.userName,
  actor: auditTrail.actor,
  apiKeyId: auditTrail.apiKeyId,
  via: auditTrail.via,
  ip: auditTrail.ip,
  endpoint: auditTrail.endpoint,
  kind: auditTrail.kind,
  method: auditTrail.method,
  path: auditTrail.path,
  targets: auditTrail.targets,
  projectId: auditTrail.projectId,
  request: auditTrail.request,
  before: auditTrail.before,
  code: auditTrail.code,
  projectName: projects.name,
};

async function query<T>(db: Db, statement: SQL): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}

export function createAuditRepo(db: Db) {
  return {
    /**
     * Appends entries, in their order, in one statement with one parameter: on PGlite a VALUES list (17
     * parameters and a name lookup a row) cost several times as much to parse and plan as the insert itself.
     * A signed-in caller's name is read as it is now, in the same statement.
     */
    async insert(rows: AuditInsert[]): Promise<void> {
      if (rows.length === 0) return;
      const entries = rows.map((row) => ({
        at: row.at.toISOString(),
        tenant_id: row.tenantId?.toString() ?? null,
        user_id: row.userId?.toString() ?? null,
        user_name: row.userName ?? '',
        actor: row.actor,
        api_key_id: row.apiKeyId?.toString() ?? null,
        via: row.via,
        ip: row.ip ?? '',
        endpoint: row.endpoint,
        kind: row.kind,
        method: row.method,
        path: row.path,
        targets: row.targets ?? [],
        project_id: row.projectId?.toString() ?? null,
        request: row.request ?? {},
        before: row.before ?? null,
        code: row.code,
      }));
      await db.execute(sql`
        insert into audit_trail (at, tenant_id, user_id, user_name, actor, api_key_id, via, ip, endpoint, kind, method, path, targets, project_id, request, before, code)
        select r.at, r.tenant_id, r.user_id,
          case when r.user_id is null then r.user_name else coalesce((select u.name from users u where u.id = r.user_id), '') end,
          r.actor, r.api_key_id, r.via, r.ip, r.endpoint, r.kind, r.method, r.path, r.targets, r.project_id, r.request, r.before, r.code
        from rows from (jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as (
          at timestamptz, tenant_id bigint, user_id bigint, user_name text, actor text, api_key_id bigint, via text, ip text,
          endpoint text, kind text, method text, path text, targets text[], project_id bigint, request jsonb, before jsonb, code integer
        )) with ordinality as r(at, tenant_id, user_id, user_name, actor, api_key_id, via, ip, endpoint, kind, method, path,
          targets, project_id, request, before, code, n)
        order by r.n
      `);
    },

    /**
     * The project of each call's targets: the first target (PROJECT_ORDER) whose object stands in one, or null
     * (none does, or it is gone). One query per kind of object, however many calls.
     */
    async projectsOf(calls: ReadonlyArray<readonly string[]>): Promise<Array<bigint | null>> {
      const parsed = calls.map((targets) => targets.map(parseTarget).filter((t) => t !== undefined));
      const found = new Map<string, bigint>();
      for (const kind of PROJECT_ORDER) {
        const ids = [...new Set(parsed.flatMap((targets) => targets.filter((t) => t.kind === kind).map((t) => t.id)))];
        if (ids.length === 0) continue;
        const rows = await query<{ id: string; project: string | null }>(
          db,
          sql`select u.id::text as id, ${PROJECT_OF[kind]!(sql`u.id`)}::text as project from unnest(${sql.param(ids)}::bigint[]) as u(id)`,
        );
        for (const row of rows) if (row.project) found.set(`${kind}:${row.id}`, BigInt(row.project));
      }
      return parsed.map((targets) => {
        for (const kind of PROJECT_ORDER)
          for (const t of targets) if (t.kind === kind && found.has(`${kind}:${t.id}`)) return found.get(`${kind}:${t.id}`)!;
        return null;
      });
    },

    /** The object's values of those fields that are columns of its table; null when it is not there. */
    async valuesOf(kind: ResourceKind, id: string, fields: readonly string[]): Promise<Record<string, unknown> | null> {
      const edited = EDITED[kind];
      if (!edited) return null;
      const [row] = (await db
        .select()
        .from(edited.table)
        .where(eq(edited.id, BigInt(id)))
        .limit(1)) as Array<Record<string, unknown>>;
      if (!row) return null;
      const values = Object.fromEntries(fields.filter((f) => f in row).map((f) => [f, jsonValue(row[f])]));
      return Object.keys(values).length > 0 ? values : null;
    },

    async page(v: AuditVisibility, f: AuditFilter, page: { offset: number; limit: number }): Promise<{ total: number; rows: AuditRow[] }> {
      const where = and(visible(v), ...matching(f));
      const [totalRow] = await db.select({ n: count() }).from(auditTrail).where(where);
      const rows = await db
        .select(COLUMNS)
        .from(auditTrail)
        .leftJoin(projects, eq(projects.id, auditTrail.projectId))
        .where(where)
        .orderBy(desc(auditTrail.id))
        .offset(page.offset)
        .limit(page.limit);
      return { total: totalRow?.n ?? 0, rows };
    },

    /** Every entry the filter takes, newest first, a batch at a time (the export). */
    async *batches(v: AuditVisibility, f: AuditFilter, size = 1000): AsyncGenerator<AuditRow[]> {
      let before: bigint | undefined;
      for (;;) {
        const rows = await db
          .select(COLUMNS)
          .from(auditTrail)
          .leftJoin(projects, eq(projects.id, auditTrail.projectId))
          .where(and(visible(v), ...matching(f), before === undefined ? undefined : lt(auditTrail.id, before)))
          .orderBy(desc(auditTrail.id))
          .limit(size);
        if (rows.length === 0) return;
        yield rows;
        if (rows.length < size) return;
        before = rows.at(-1)!.id;
      }
    },

    /** Removes the entries older than a cutoff through the one function the database lets delete them. */
    async purge(before: Date): Promise<number> {
      const [row] = await query<{ removed: string }>(
        db,
        sql`select audit_trail_purge(${before.toISOString()}::timestamptz)::text as removed`,
      );
      return Number(row?.removed ?? 0);
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
