import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { toId } from './access.ts';
import type { MapsRepo } from './maps.repo.ts';
import type { ProjectsRepo } from './projects.repo.ts';

type Caller = Pick<AuthContext, 'tenantId'>;

/**
 * Whether a caller may touch a project, building or map: the one check every domain asks the projects domain.
 * An id of another account, an unknown id and an id past 64 bits all answer 110011, so existence is never told.
 */
export function createProjectAccess(deps: {
  mapsRepo: Pick<MapsRepo, 'findMap'>;
  projectsRepo: Pick<ProjectsRepo, 'findProject' | 'findBuilding'>;
}) {
  const id = (value: string | bigint) => (typeof value === 'bigint' ? value : toId(value));
  return {
    async requireProject(auth: Caller, projectId: string | bigint) {
      const row = await deps.projectsRepo.findProject({ tenantId: auth.tenantId, id: id(projectId) });
      if (!row) throw new AppError(110011);
      return row;
    },
    async requireBuilding(auth: Caller, buildId: string | bigint) {
      const row = await deps.projectsRepo.findBuilding({ tenantId: auth.tenantId, id: id(buildId) });
      if (!row) throw new AppError(110011);
      return row;
    },
    async requireMap(auth: Caller, mapId: string | bigint) {
      const row = await deps.mapsRepo.findMap({ tenantId: auth.tenantId, id: id(mapId) });
      if (!row) throw new AppError(110011);
      return row;
    },
  };
}

export type ProjectAccess = ReturnType<typeof createProjectAccess>;
