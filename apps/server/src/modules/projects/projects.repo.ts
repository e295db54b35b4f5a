import { and, asc, count, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import { buildings, maps, projectMembers, projects } from '../../db/schema/index.ts';
import { siteTimeZoneSql } from './site-time-zone.ts';
import { countChildren, placeLevelQueries } from './place-level.ts';

export type ProjectRow = typeof projects.$inferSelect & { buildCount: number; mapCount: number; timeZone: string | null };
export type BuildingRow = typeof buildings.$inferSelect & { mapCount: number };

// Columns of a single-table query render unqualified, so the subqueries name the outer table themselves.
const projectColumnsOf = (reads: Pick<OwnedReads, 'gateways'>) => ({
  ...getTableColumns(projects),
  buildCount: sql<number>`(select count(*)::int from ${buildings} b where b.project_id = ${projects}.id)`,
  mapCount: sql<number>`(select count(*)::int from ${maps} m where m.project_id = ${projects}.id)`,
  timeZone: siteTimeZoneSql(reads, { tenantId: sql`${projects}.tenant_id`, projectId: sql`${projects}.id` }),
});
const buildingColumns = {
  ...getTableColumns(buildings),
  mapCount: sql<number>`(select count(*)::int from ${maps} m where m.build_id = ${buildings}.id)`,
};

/** Escapes LIKE wildcards so a search for "50%" finds exactly that. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A subquery answering the ids of a project and its sub-projects; the depth cap stops a corrupt cycle. */
function projectSubtreeSql(tenantId: bigint, rootId: bigint) {
  return sql`(
    with recursive tree(id, depth) as (
      select p.id, 0 from ${projects} p where p.tenant_id = ${tenantId} and p.id = ${rootId}
      union all
      select c.id, tree.depth + 1 from ${projects} c join tree on c.parent_id = tree.id where c.tenant_id = ${tenantId} and tree.depth < 1000
    )
    select id from tree)`;
}

/**
 * Queries on projects and buildings. Every query takes the tenant and filters by it, so an id of another
 * account finds nothing.
 */
/** The projects `roots` selects (as `id, 0`) with their sub-projects, and the maps in them. */
async function scopeBelow(db: Db, tenantId: bigint, roots: SQL): Promise<{ projectIds: bigint[]; mapIds: bigint[] }> {
  const result = (await db.execute(sql`
    with recursive tree(id, depth) as (
      ${roots}
      union
      select c.id, tree.depth + 1 from ${projects} c join tree on c.parent_id = tree.id
      where c.tenant_id = ${tenantId} and tree.depth < 1000
    )
    select distinct tree.id as project_id, mp.id as map_id from tree left join ${maps} mp on mp.project_id = tree.id and mp.tenant_id = ${tenantId}`)) as unknown as {
    rows: Array<{ project_id: string | bigint; map_id: string | bigint | null }>;
  };
  const projectIds = new Set<bigint>();
  const mapIds = new Set<bigint>();
  for (const row of result.rows) {
    projectIds.add(BigInt(row.project_id));
    if (row.map_id !== null) mapIds.add(BigInt(row.map_id));
  }
  return { projectIds: [...projectIds], mapIds: [...mapIds] };
}

/** Projects and buildings; a project's site time zone reads its gateways through `reads` (the gateways' owner). */
export function createProjectsRepo(db: Db, reads: Pick<OwnedReads, 'gateways'>) {
  const projectColumns = projectColumnsOf(reads);
  const projectLevel = placeLevelQueries(db, projects);
  const buildingLevel = placeLevelQueries(db, buildings);
  return {
    async findProject({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<ProjectRow | undefined> {
      const [row] = await db
        .select(projectColumns)
        .from(projects)
        .where(and(eq(projects.tenantId, tenantId), eq(projects.id, id)))
        .limit(1);
      return row;
    },

    findDefaultProject: projectLevel.findDefault,

    async searchProjects(q: { tenantId: bigint; projectIds?: bigint[]; text?: string; offset: number; limit: number }) {
      const { tenantId, text, offset, limit } = q;
      const where = and(
        eq(projects.tenantId, tenantId),
        q.projectIds !== undefined ? inArray(projects.id, q.projectIds) : undefined,
        text ? or(ilike(projects.name, likePattern(text)), ilike(projects.address, likePattern(text))) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(projects).where(where);
      const rows = await db
        .select(projectColumns)
        .from(projects)
        .where(where)
        .orderBy(sql`${projects.isDefault} desc`, asc(projects.id))
        .offset(offset)
        .limit(limit);
      return { total: total?.n ?? 0, rows };
    },

    async childProjects({ tenantId, parentId }: { tenantId: bigint; parentId: bigint }): Promise<ProjectRow[]> {
      return db
        .select(projectColumns)
        .from(projects)
        .where(and(eq(projects.tenantId, tenantId), eq(projects.parentId, parentId)))
        .orderBy(asc(projects.id));
    },

    /** The projects a member may see (those it is given, with their sub-projects) and the maps in them. */
    async memberScope({ tenantId, userId }: { tenantId: bigint; userId: bigint }): Promise<{ projectIds: bigint[]; mapIds: bigint[] }> {
      return scopeBelow(
        db,
        tenantId,
        sql`select p.id, 0 from ${projects} p join ${projectMembers} m on m.project_id = p.id
          where p.tenant_id = ${tenantId} and m.user_id = ${userId}`,
      );
    },

    /** Projects of the tenant among the ids, with their sub-projects, and the maps in them (an API key's limit). */
    async projectsScope({
      tenantId,
      projectIds,
    }: {
      tenantId: bigint;
      projectIds: readonly bigint[];
    }): Promise<{ projectIds: bigint[]; mapIds: bigint[] }> {
      if (projectIds.length === 0) return { projectIds: [], mapIds: [] };
      return scopeBelow(
        db,
        tenantId,
        sql`select p.id, 0 from ${projects} p where p.tenant_id = ${tenantId} and p.id = any(${sql.param(projectIds.map(String))}::bigint[])`,
      );
    },

    /** Projects of the tenant among the given ids (to check a member's projects before storing them). */
    async ownedProjectIds({ tenantId, ids }: { tenantId: bigint; ids: bigint[] }): Promise<bigint[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.tenantId, tenantId), inArray(projects.id, ids)));
      return rows.map((r) => r.id);
    },

    async membersOf({ userIds }: { userIds: bigint[] }): Promise<Array<{ userId: bigint; projectId: bigint }>> {
      if (userIds.length === 0) return [];
      return db
        .select({ userId: projectMembers.userId, projectId: projectMembers.projectId })
        .from(projectMembers)
        .where(inArray(projectMembers.userId, userIds))
        .orderBy(asc(projectMembers.projectId));
    },

    /** Replaces the projects a user is given, in one transaction. */
    async setMembers({ userId, projectIds }: { userId: bigint; projectIds: bigint[] }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(projectMembers).where(eq(projectMembers.userId, userId));
        if (projectIds.length > 0) await tx.insert(projectMembers).values(projectIds.map((projectId) => ({ userId, projectId })));
      });
    },

    /** The ids of a project and all its sub-projects at any depth. */
    async subtreeIds({ tenantId, rootId }: { tenantId: bigint; rootId: bigint }): Promise<bigint[]> {
      const rows = await db
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.tenantId, tenantId), sql`${projects.id} in ${projectSubtreeSql(tenantId, rootId)}`));
      return rows.map((r) => r.id);
    },

    /** A project and all its sub-projects at any depth, in one query. */
    async projectSubtree({ tenantId, rootId }: { tenantId: bigint; rootId: bigint }): Promise<ProjectRow[]> {
      return db
        .select(projectColumns)
        .from(projects)
        .where(and(eq(projects.tenantId, tenantId), sql`${projects.id} in ${projectSubtreeSql(tenantId, rootId)}`))
        .orderBy(asc(projects.id));
    },

    /** Projects by id (or every project of the tenant), parents before children where depth allows. */
    async projectsIn({ tenantId, ids }: { tenantId: bigint; ids?: bigint[] }): Promise<ProjectRow[]> {
      if (ids && ids.length === 0) return [];
      return db
        .select(projectColumns)
        .from(projects)
        .where(and(eq(projects.tenantId, tenantId), ids ? inArray(projects.id, ids) : undefined))
        .orderBy(asc(projects.id));
    },

    /** Inserts a project; answers undefined when a unique index refused it (name or default taken). */
    async insertProject(values: typeof projects.$inferInsert) {
      const [row] = await db.insert(projects).values(values).onConflictDoNothing().returning();
      return row;
    },

    updateProject: (q: {
      tenantId: bigint;
      id: bigint;
      set: Partial<Pick<typeof projects.$inferInsert, 'name' | 'address' | 'parentId' | 'longitude' | 'latitude' | 'carbonFactor'>>;
    }) => projectLevel.update(q),

    deleteProject: projectLevel.deleteUnlessDefault,

    countChildProjects: (q: { tenantId: bigint; id: bigint }) => countChildren(db, projects, q),

    async findBuilding({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<BuildingRow | undefined> {
      const [row] = await db
        .select(buildingColumns)
        .from(buildings)
        .where(and(eq(buildings.tenantId, tenantId), eq(buildings.id, id)))
        .limit(1);
      return row;
    },

    findDefaultBuilding: buildingLevel.findDefault,

    /** The buildings of some projects (or of every project of the tenant): one query for a whole tree level. */
    async buildingsOf({ tenantId, projectIds }: { tenantId: bigint; projectIds?: bigint[] }): Promise<BuildingRow[]> {
      if (projectIds && projectIds.length === 0) return [];
      return db
        .select(buildingColumns)
        .from(buildings)
        .where(and(eq(buildings.tenantId, tenantId), projectIds ? inArray(buildings.projectId, projectIds) : undefined))
        .orderBy(asc(buildings.id));
    },

    /** The ids of a building and its sub-buildings at any depth. */
    async buildingSubtreeIds({ tenantId, rootId }: { tenantId: bigint; rootId: bigint }): Promise<bigint[]> {
      const subtree = sql`(
        with recursive tree(id, depth) as (
          select b.id, 0 from ${buildings} b where b.tenant_id = ${tenantId} and b.id = ${rootId}
          union all
          select c.id, tree.depth + 1 from ${buildings} c join tree on c.parent_id = tree.id where c.tenant_id = ${tenantId} and tree.depth < 1000
        )
        select id from tree)`;
      const rows = await db
        .select({ id: buildings.id })
        .from(buildings)
        .where(and(eq(buildings.tenantId, tenantId), sql`${buildings.id} in ${subtree}`));
      return rows.map((r) => r.id);
    },

    async insertBuilding(values: typeof buildings.$inferInsert) {
      const [row] = await db.insert(buildings).values(values).onConflictDoNothing().returning();
      return row;
    },

    updateBuilding: (q: { tenantId: bigint; id: bigint; set: Partial<Pick<typeof buildings.$inferInsert, 'name' | 'parentId'>> }) =>
      buildingLevel.update(q),

    deleteBuilding: buildingLevel.deleteUnlessDefault,

    countChildBuildings: (q: { tenantId: bigint; id: bigint }) => countChildren(db, buildings, q),
  };
}

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;
