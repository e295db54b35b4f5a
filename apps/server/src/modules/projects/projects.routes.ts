import { projectEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { ProjectsService } from './projects.service.ts';

/** The project and building calls of the endpoint table (contract endpoints/projects.ts). */
export function registerProjectRoutes(route: RouteOf, deps: { projects: ProjectsService }) {
  const { projects } = deps;

  route(E.projectDetail, ({ auth, params }) => projects.projectDetail(auth, params.id));

  route(E.buildingDetail, ({ auth, params }) => projects.buildingDetail(auth, params.id, params.buildId));

  route(E.tree, ({ auth, params }) => projects.tree(auth, params.id));

  route(E.searchProjects, ({ auth, body }) => projects.searchProjects(auth, body));

  route(E.addProject, ({ auth, body }) => projects.addProject(auth, body));

  route(E.updateProject, ({ auth, body }) => projects.updateProject(auth, body));

  route(E.deleteProject, async ({ auth, params }) => {
    await projects.deleteProject(auth, params.id);
    return null;
  });

  route(E.addBuilding, ({ auth, body }) => projects.addBuilding(auth, body));

  route(E.updateBuilding, ({ auth, body }) => projects.updateBuilding(auth, body));

  route(E.deleteBuilding, async ({ auth, body }) => {
    await projects.deleteBuilding(auth, body.id);
    return null;
  });
}
