import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { toId } from './access.ts';
import type { MapsRepo } from './maps.repo.ts';
import type { ProjectsRepo } from './projects.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'scope'>;

/** Whether the caller sees a project: every project of its account, or a limited sub-account only its own. */
export function seesProject(auth: Pick<AuthContext, 'scope'>, projectId: bigint): boolean {
  return !auth.scope || auth.scope.projectIds.has(projectId);
}

/**
 * Whether the caller sees what stands on a map (a gateway, a device, a group); a limited sub-account sees
 * nothing that stands on no map of its projects.
 */
export function seesMap(auth: Pick<AuthContext, 'scope'>, mapId: bigint | null): boolean {
  return !auth.scope || (mapId !== null && auth.scope.mapIds.has(mapId));
}

/** The maps a list may show a limited sub-account; undefined when the caller sees its whole account. */
export function visibleMapIds(auth: Pick<AuthContext, 'scope'>): bigint[] | undefined {
  return auth.scope ? [...auth.scope.mapIds] : undefined;
}

/** The projects a list may show a limited sub-account; undefined when the caller sees its whole account. */
export function visibleProjectIds(auth: Pick<AuthContext, 'scope'>): bigint[] | undefined {
  return auth.scope ? [...auth.scope.projectIds] : undefined;
}

/**
 * Whether a caller may touch a project, building or map: the one check every domain asks the projects domain.
 * An id of another account, of a project a limited sub-account is not given, an unknown id and an id past 64
 * bits all answer 110011, so existence is never told.
 */
export function createProjectAccess(deps: {
  mapsRepo: Pick<MapsRepo, 'findMap'>;
  projectsRepo: Pick<ProjectsRepo, 'findProject' | 'findBuilding'>;
}) {
  const id = (value: string | bigint) => (typeof value === 'bigint' ? value : toId(value));
  return {
    async requireProject(auth: Caller, projectId: string | bigint) {
      const row = await deps.projectsRepo.findProject({ tenantId: auth.tenantId, id: id(projectId) });
      if (!row || !seesProject(auth, row.id)) throw new AppError(110011);
      return row;
    },
    async requireBuilding(auth: Caller, buildId: string | bigint) {
      const row = await deps.projectsRepo.findBuilding({ tenantId: auth.tenantId, id: id(buildId) });
      if (!row || !seesProject(auth, row.projectId)) throw new AppError(110011);
      return row;
    },
    async requireMap(auth: Caller, mapId: string | bigint) {
      const row = await deps.mapsRepo.findMap({ tenantId: auth.tenantId, id: id(mapId) });
      if (!row || !seesMap(auth, row.id)) throw new AppError(110011);
      return row;
    },
  };
}

export type ProjectAccess = ReturnType<typeof createProjectAccess>;

/** What a statistic counts over: a project, or one building or map of it, within the maps the caller sees. */
export interface StatsPlace {
  tenantId: bigint;
  projectId: bigint;
  buildId?: bigint;
  mapId?: bigint;
  /** A limited sub-account's maps; undefined for the whole account. */
  mapIds?: bigint[];
}

/**
 * The place a statistics query names, with its project row. A building or map of another project answers 110011,
 * as one of another account does.
 */
export async function requireStatsPlace(
  access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding' | 'requireMap'>,
  auth: Caller,
  query: { projectId: string; buildId?: string; mapId?: string },
) {
  const project = await access.requireProject(auth, query.projectId);
  const build = query.buildId === undefined ? undefined : await access.requireBuilding(auth, query.buildId);
  if (build && build.projectId !== project.id) throw new AppError(110011);
  const map = query.mapId === undefined ? undefined : await access.requireMap(auth, query.mapId);
  if (map && (map.projectId !== project.id || (build && map.buildId !== build.id))) throw new AppError(110011);
  const place: StatsPlace = {
    tenantId: auth.tenantId,
    projectId: project.id,
    buildId: build?.id,
    mapId: map?.id,
    mapIds: visibleMapIds(auth),
  };
  return { place, project };
}
