import {
  DEFAULT_NAMES,
  type Building,
  type BuildingAddBody,
  type BuildingDetail,
  type BuildingUpdateBody,
  type Lang,
  type Project,
  type ProjectAddBody,
  type ProjectDetail,
  type ProjectPage,
  type ProjectSearchBody,
  type ProjectTree,
  type ProjectUpdateBody,
} from '@lumigrid/contract';
import { AppError, duplicateAs } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertCarbonFactor, assertCoordinate, cleanName, cleanOptional } from './access.ts';
import { denyAccess, found, seesProject, toId, visibleProjectIds } from '../access/access.ts';
import type { ProjectAccess } from './project-access.ts';
import type { MapDevicesPort } from './map-devices-port.ts';
import { mapBuilding, mapMap, mapProject } from './mappers.ts';
import type { MapsRepo } from './maps.repo.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import type { ProjectRow, ProjectsRepo } from './projects.repo.ts';
import { assertMay } from '../../http/authority.ts';
import { paging } from '../../lib/paging.ts';
import { groupBy } from '../../lib/group-by.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'lang' | 'scope'>;

/** Orders projects so that every parent comes before its children (parents may have larger ids after a move). */
function parentsFirst(rows: ProjectRow[]): ProjectRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const done = new Set<bigint>();
  const out: ProjectRow[] = [];
  const visit = (row: ProjectRow, depth: number) => {
    if (done.has(row.id) || depth > rows.length) return;
    const parent = row.parentId === null ? undefined : byId.get(row.parentId);
    if (parent) visit(parent, depth + 1);
    if (!done.has(row.id)) {
      done.add(row.id);
      out.push(row);
    }
  };
  for (const row of rows) visit(row, 0);
  return out;
}

export function createProjectsService(deps: {
  repo: ProjectsRepo;
  mapsRepo: MapsRepo;
  devices: MapDevicesPort;
  /** The project and building rows a caller may touch (the access module decides). */
  access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding'>;
}) {
  const { repo, mapsRepo, devices } = deps;
  /** Tenants whose defaults are known to exist in this process; defaults can never be deleted. */
  const haveDefaults = new Set<bigint>();

  /**
   * Inserts a default row, or finds the one a concurrent request inserted. The partial unique index on
   * (tenant) where is_default makes a second default impossible; a name already taken by an ordinary row
   * gets a number appended.
   */
  async function insertDefault<T>(
    base: string,
    insert: (name: string) => Promise<T | undefined>,
    find: () => Promise<T | undefined>,
  ): Promise<T> {
    for (let attempt = 1; attempt <= 20; attempt++) {
      const row = await insert(attempt === 1 ? base : `${base} ${attempt}`);
      if (row) return row;
      const existing = await find();
      if (existing) return existing;
    }
    throw new Error('could not create a default row');
  }

  /** Makes sure the tenant has its default project, building and map; safe to call concurrently. */
  async function ensureDefaults(tenantId: bigint, lang: Lang): Promise<void> {
    if (haveDefaults.has(tenantId)) return;
    const findProject = () => repo.findDefaultProject({ tenantId });
    const project =
      (await findProject()) ??
      (await insertDefault(DEFAULT_NAMES.project[lang], (name) => repo.insertProject({ tenantId, name, isDefault: true }), findProject));
    const findBuilding = () => repo.findDefaultBuilding({ tenantId });
    const building =
      (await findBuilding()) ??
      (await insertDefault(
        DEFAULT_NAMES.build[lang],
        (name) => repo.insertBuilding({ tenantId, projectId: project.id, name, isDefault: true }),
        findBuilding,
      ));
    const findMap = () => mapsRepo.findDefaultMap({ tenantId });
    if (!(await findMap())) {
      await insertDefault(
        DEFAULT_NAMES.map[lang],
        (name) => mapsRepo.insertMap({ tenantId, projectId: building.projectId, buildId: building.id, name, isDefault: true }),
        findMap,
      );
    }
    haveDefaults.add(tenantId);
  }

  const { requireProject, requireBuilding } = deps.access;

  async function projectOut(auth: Caller, id: bigint): Promise<Project> {
    return mapProject(found(await repo.findProject({ tenantId: auth.tenantId, id })));
  }

  async function buildingOut(auth: Caller, id: bigint): Promise<Building> {
    return mapBuilding(found(await repo.findBuilding({ tenantId: auth.tenantId, id })));
  }

  async function mapsWithCounts(tenantId: bigint, rows: Awaited<ReturnType<MapsRepo['mapsOf']>>) {
    const counts = await devices.deviceCounts({ tenantId, mapIds: rows.map((r) => r.id) });
    return rows.map((r) => mapMap(r, counts.get(r.id) ?? 0));
  }

  return {
    ensureDefaults,

    async projectDetail(auth: Caller, id: string): Promise<ProjectDetail> {
      await ensureDefaults(auth.tenantId, auth.lang);
      const project = await requireProject(auth, id);
      const [children, builds] = await Promise.all([
        repo.childProjects({ tenantId: auth.tenantId, parentId: project.id }),
        repo.buildingsOf({ tenantId: auth.tenantId, projectIds: [project.id] }),
      ]);
      return { project: mapProject(project), children: children.map(mapProject), builds: builds.map(mapBuilding) };
    },

    async buildingDetail(auth: Caller, projectId: string, buildId: string): Promise<BuildingDetail> {
      await ensureDefaults(auth.tenantId, auth.lang);
      const pid = toId(projectId);
      const build = await requireBuilding(auth, buildId);
      if (build.projectId !== pid) denyAccess();
      const maps = await mapsRepo.mapsOf({ tenantId: auth.tenantId, buildIds: [build.id] });
      return { build: mapBuilding(build), maps: await mapsWithCounts(auth.tenantId, maps) };
    },

    /**
     * The tree under a project (or, for id 0, the whole account) in three queries, one per level:
     * projects (a recursive query), their buildings, their maps. Never one query per node.
     */
    async tree(auth: Caller, id: string): Promise<ProjectTree> {
      await ensureDefaults(auth.tenantId, auth.lang);
      const { tenantId } = auth;
      const all = /^0+$/.test(id) && !auth.scope;
      const projectRows = /^0+$/.test(id)
        ? await repo.projectsIn({ tenantId, ids: visibleProjectIds(auth) })
        : (await repo.projectSubtree({ tenantId, rootId: toId(id) })).filter((p) => seesProject(auth, p.id));
      if (projectRows.length === 0) denyAccess();
      const buildRows = await repo.buildingsOf({ tenantId, projectIds: all ? undefined : projectRows.map((p) => p.id) });
      const mapRows = await mapsRepo.mapsOf({ tenantId, buildIds: all ? undefined : buildRows.map((b) => b.id) });
      const maps = await mapsWithCounts(tenantId, mapRows);
      const mapsByBuild = groupBy(maps, (m) => m.buildId);
      const buildsByProject = groupBy(
        buildRows.map((b) => ({ ...mapBuilding(b), maps: mapsByBuild.get(String(b.id)) ?? [] })),
        (b) => b.projectId,
      );
      // A limited sub-account's projects whose parent it does not see stand at the top of its tree.
      const shown = new Set(projectRows.map((p) => p.id));
      return {
        projects: parentsFirst(projectRows).map((p) => ({
          ...mapProject(p.parentId !== null && !shown.has(p.parentId) ? { ...p, parentId: null } : p),
          builds: buildsByProject.get(String(p.id)) ?? [],
        })),
      };
    },

    async searchProjects(auth: Caller, body: ProjectSearchBody): Promise<ProjectPage> {
      await ensureDefaults(auth.tenantId, auth.lang);
      const { total, rows } = await repo.searchProjects({
        tenantId: auth.tenantId,
        projectIds: visibleProjectIds(auth),
        text: body.name?.trim() || undefined,
        ...paging(body),
      });
      return { total, list: rows.map(mapProject) };
    },

    async addProject(auth: Caller, body: ProjectAddBody): Promise<Project> {
      assertMay(auth, 'write');
      await ensureDefaults(auth.tenantId, auth.lang);
      assertCoordinate(body.longitude);
      assertCoordinate(body.latitude);
      assertCarbonFactor(body.carbonFactor);
      // A sub-account limited to some projects adds sub-projects under them, never a project it would not see.
      if (auth.scope && !body.parentId) throw new AppError(110003);
      const parent = body.parentId ? await requireProject(auth, body.parentId) : undefined;
      const row = await repo.insertProject({
        tenantId: auth.tenantId,
        name: cleanName(body.name),
        address: cleanOptional(body.address) ?? null,
        parentId: parent?.id ?? null,
        longitude: body.longitude ?? null,
        latitude: body.latitude ?? null,
        carbonFactor: body.carbonFactor,
      });
      if (!row) throw new AppError(110007);
      return projectOut(auth, row.id);
    },

    async updateProject(auth: Caller, body: ProjectUpdateBody): Promise<Project> {
      assertMay(auth, 'write');
      await ensureDefaults(auth.tenantId, auth.lang);
      const project = await requireProject(auth, body.id);
      assertCoordinate(body.longitude);
      assertCoordinate(body.latitude);
      assertCarbonFactor(body.carbonFactor);
      let parentId: bigint | null | undefined;
      if (body.parentId === null) parentId = null;
      else if (body.parentId !== undefined) {
        const parent = await requireProject(auth, body.parentId);
        // A project cannot move under itself or one of its own sub-projects.
        const subtree = await repo.subtreeIds({ tenantId: auth.tenantId, rootId: project.id });
        if (subtree.includes(parent.id)) throw new AppError(280001);
        parentId = parent.id;
      }
      await duplicateAs(110007, () =>
        repo.updateProject({
          tenantId: auth.tenantId,
          id: project.id,
          set: {
            name: body.name === undefined ? undefined : cleanName(body.name),
            address: cleanOptional(body.address),
            parentId,
            longitude: body.longitude,
            latitude: body.latitude,
            carbonFactor: body.carbonFactor,
          },
        }),
      );
      return projectOut(auth, project.id);
    },

    async deleteProject(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'write');
      await ensureDefaults(auth.tenantId, auth.lang);
      const project = await requireProject(auth, id);
      if (project.isDefault) throw new AppError(280009);
      if (project.buildCount > 0 || project.mapCount > 0) throw new AppError(280003);
      if ((await repo.countChildProjects({ tenantId: auth.tenantId, id: project.id })) > 0) throw new AppError(100015);
      try {
        await repo.deleteProject({ tenantId: auth.tenantId, id: project.id });
      } catch (error) {
        // A building or sub-project was added between the checks and the delete: the foreign keys refuse.
        if (isForeignKeyViolation(error)) throw new AppError(280003);
        throw error;
      }
    },

    async addBuilding(auth: Caller, body: BuildingAddBody): Promise<Building> {
      assertMay(auth, 'write');
      await ensureDefaults(auth.tenantId, auth.lang);
      const project = await requireProject(auth, body.projectId);
      let parentId: bigint | null = null;
      if (body.parentId) {
        const parent = await requireBuilding(auth, body.parentId);
        if (parent.projectId !== project.id) throw new AppError(100001, 'parentId');
        parentId = parent.id;
      }
      const row = await repo.insertBuilding({ tenantId: auth.tenantId, projectId: project.id, parentId, name: cleanName(body.name) });
      if (!row) throw new AppError(110007);
      return buildingOut(auth, row.id);
    },

    async updateBuilding(auth: Caller, body: BuildingUpdateBody): Promise<Building> {
      assertMay(auth, 'write');
      await ensureDefaults(auth.tenantId, auth.lang);
      const building = await requireBuilding(auth, body.id);
      let parentId: bigint | null | undefined;
      if (body.parentId === null) parentId = null;
      else if (body.parentId !== undefined) {
        const parent = await requireBuilding(auth, body.parentId);
        if (parent.projectId !== building.projectId) throw new AppError(100001, 'parentId');
        const subtree = await repo.buildingSubtreeIds({ tenantId: auth.tenantId, rootId: building.id });
        if (subtree.includes(parent.id)) throw new AppError(100001, 'parentId');
        parentId = parent.id;
      }
      await duplicateAs(110007, () =>
        repo.updateBuilding({
          tenantId: auth.tenantId,
          id: building.id,
          set: { name: body.name === undefined ? undefined : cleanName(body.name), parentId },
        }),
      );
      return buildingOut(auth, building.id);
    },

    async deleteBuilding(auth: Caller, id: string): Promise<void> {
      assertMay(auth, 'write');
      await ensureDefaults(auth.tenantId, auth.lang);
      const building = await requireBuilding(auth, id);
      if (building.isDefault) throw new AppError(280010);
      if (building.mapCount > 0) throw new AppError(280004);
      if ((await repo.countChildBuildings({ tenantId: auth.tenantId, id: building.id })) > 0) throw new AppError(100016);
      try {
        await repo.deleteBuilding({ tenantId: auth.tenantId, id: building.id });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new AppError(280004);
        throw error;
      }
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
