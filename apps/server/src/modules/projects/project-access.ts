import type { AuthContext } from '../../http/auth.ts';
import { denyAccess, found, visibleMapIds, type AccessService } from '../access/access.ts';
import type { MapsRepo } from './maps.repo.ts';
import type { ProjectsRepo } from './projects.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'scope'>;

/**
 * The project, building and map rows a caller may touch, for every domain that needs the row and not just the
 * id: the access module decides (110011 for an id of another account, of a project a limited sub-account is
 * not given, an unknown id and one past 64 bits), the projects domain loads the row.
 */
export function createProjectAccess(deps: {
  access: Pick<AccessService, 'requireOne'>;
  mapsRepo: Pick<MapsRepo, 'findMap'>;
  projectsRepo: Pick<ProjectsRepo, 'findProject' | 'findBuilding'>;
}) {
  const { access } = deps;
  return {
    async requireProject(auth: Caller, projectId: string | bigint) {
      const id = await access.requireOne(auth, 'signedIn', 'project', projectId);
      return found(await deps.projectsRepo.findProject({ tenantId: auth.tenantId, id }));
    },
    async requireBuilding(auth: Caller, buildId: string | bigint) {
      const id = await access.requireOne(auth, 'signedIn', 'building', buildId);
      return found(await deps.projectsRepo.findBuilding({ tenantId: auth.tenantId, id }));
    },
    async requireMap(auth: Caller, mapId: string | bigint) {
      const id = await access.requireOne(auth, 'signedIn', 'map', mapId);
      return found(await deps.mapsRepo.findMap({ tenantId: auth.tenantId, id }));
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

/** A list's place filters: the account (a limited sub-account's maps of it), then a project, building, map or gateway. */
export interface PlaceFilter {
  tenantId: bigint;
  /** A limited sub-account's maps; undefined for the whole account. */
  mapIds?: bigint[];
  projectId?: bigint;
  buildId?: bigint;
  mapId?: bigint;
  gatewayId?: bigint;
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
  if (build && build.projectId !== project.id) denyAccess();
  const map = query.mapId === undefined ? undefined : await access.requireMap(auth, query.mapId);
  if (map && (map.projectId !== project.id || (build && map.buildId !== build.id))) denyAccess();
  const place: StatsPlace = {
    tenantId: auth.tenantId,
    projectId: project.id,
    buildId: build?.id,
    mapId: map?.id,
    mapIds: visibleMapIds(auth),
  };
  return { place, project };
}
