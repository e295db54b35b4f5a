import { Type } from 'typebox';
import {
  BuildingAddBodySchema,
  BuildingDeleteBodySchema,
  BuildingDetailSchema,
  BuildingSchema,
  BuildingUpdateBodySchema,
  EmptySchema,
  Envelope,
  IdSchema,
  ProjectAddBodySchema,
  ProjectDetailSchema,
  ProjectPageSchema,
  ProjectSchema,
  ProjectSearchBodySchema,
  ProjectTreeSchema,
  ProjectUpdateBodySchema,
} from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { BEARER, type Authenticate, requireAuth } from '../../http/guards.ts';
import type { App } from '../../http/types.ts';
import { ACCESS } from '../../http/route-docs.ts';
import type { ProjectsService } from './projects.service.ts';

const tags = ['projects'];
const ProjectId = { ...IdSchema, description: 'A project id of the caller\u2019s account' };
const BuildId = { ...IdSchema, description: 'A building id of the caller\u2019s account' };
const { write: WRITE, read: READ } = ACCESS;

/** The project and building calls of spec section 7 under /api4. */
export function registerProjectRoutes(app: App, deps: { projects: ProjectsService; authenticate: Authenticate }) {
  const { projects } = deps;
  const onRequest = requireAuth(deps.authenticate);

  app.get('/api4/project_user/v1/projects/:id', {
    schema: {
      tags,
      summary: 'A project with its direct sub-projects and all its buildings',
      description: `{id}: the project. ${READ}`,
      security: BEARER,
      params: Type.Object({ id: ProjectId }),
      response: { 200: Envelope(ProjectDetailSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.projectDetail(caller(request), request.params.id)),
  });

  app.get('/api4/project_user/v1/:id/builds/:buildId', {
    schema: {
      tags,
      summary: 'A building of a project, with its maps',
      description: `{id}: the project the building belongs to; {buildId}: the building. A building of another project answers 110011. ${READ}`,
      security: BEARER,
      params: Type.Object({ id: ProjectId, buildId: BuildId }),
      response: { 200: Envelope(BuildingDetailSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.buildingDetail(caller(request), request.params.id, request.params.buildId)),
  });

  app.get('/api4/project_user/v1/:id/sub_links', {
    schema: {
      tags,
      summary: 'The tree under a project: sub-projects at any depth, their buildings and maps',
      description: `{id}: the root project, or 0 for the whole account. Answers flat levels linked by parentId, loaded with one query per level. ${READ}`,
      security: BEARER,
      params: Type.Object({ id: { ...IdSchema, description: 'A project id, or 0 for every project of the account' } }),
      response: { 200: Envelope(ProjectTreeSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.tree(caller(request), request.params.id)),
  });

  app.post('/api4/project_user/v1/all_project_message', {
    schema: {
      tags,
      summary: 'The project list: search by name or address, paged',
      description: `The default project comes first, then the others by creation. ${READ}`,
      security: BEARER,
      body: ProjectSearchBodySchema,
      response: { 200: Envelope(ProjectPageSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.searchProjects(caller(request), request.body)),
  });

  app.post('/api4/project/v1/add', {
    schema: {
      tags,
      summary: 'Create a project',
      description: `Names are unique within the account (110007). A parent project of another account answers 110011. ${WRITE}`,
      security: BEARER,
      body: ProjectAddBodySchema,
      response: { 200: Envelope(ProjectSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.addProject(caller(request), request.body)),
  });

  app.post('/api4/project/v1/update', {
    schema: {
      tags,
      summary: 'Rename, re-address, move (new parent) or locate a project',
      description: `Moving a project under itself or its own sub-project answers 280001. ${WRITE}`,
      security: BEARER,
      body: ProjectUpdateBodySchema,
      response: { 200: Envelope(ProjectSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.updateProject(caller(request), request.body)),
  });

  app.delete('/api4/project/v1/delete/:id', {
    schema: {
      tags,
      summary: 'Delete an empty project',
      description: `{id}: the project. Refused for the default project (280009), a project with buildings or maps (280003) or with sub-projects (100015). ${WRITE}`,
      security: BEARER,
      params: Type.Object({ id: ProjectId }),
      response: { 200: Envelope(EmptySchema) },
    },
    onRequest,
    handler: async (request) => {
      await projects.deleteProject(caller(request), request.params.id);
      return ok(request, null);
    },
  });

  app.post('/api4/build/v1/add', {
    schema: {
      tags,
      summary: 'Create a building in a project',
      description: `Names are unique within the project (110007); a parent building must be in the same project. ${WRITE}`,
      security: BEARER,
      body: BuildingAddBodySchema,
      response: { 200: Envelope(BuildingSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.addBuilding(caller(request), request.body)),
  });

  app.post('/api4/build/v1/update', {
    schema: {
      tags,
      summary: 'Rename a building or give it another parent building in the same project',
      description: WRITE,
      security: BEARER,
      body: BuildingUpdateBodySchema,
      response: { 200: Envelope(BuildingSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await projects.updateBuilding(caller(request), request.body)),
  });

  app.post('/api4/build/v1/delete', {
    schema: {
      tags,
      summary: 'Delete an empty building',
      description: `Refused for the default building (280010), a building with maps (280004) or with sub-buildings (100016). ${WRITE}`,
      security: BEARER,
      body: BuildingDeleteBodySchema,
      response: { 200: Envelope(EmptySchema) },
    },
    onRequest,
    handler: async (request) => {
      await projects.deleteBuilding(caller(request), request.body.id);
      return ok(request, null);
    },
  });
}
