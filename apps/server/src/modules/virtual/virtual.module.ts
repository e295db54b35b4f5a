import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import type { GroupsService } from '../groups/groups.service.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { ScenesService } from '../scenes/scenes.service.ts';
import { createParamTemplatesService } from './param-templates.service.ts';
import { createVirtualDevicesService } from './virtual-devices.service.ts';
import { createVirtualRepo } from './virtual.repo.ts';
import { registerVirtualRoutes } from './virtual.routes.ts';

/**
 * Parameter templates and virtual devices. It comes after devices, groups and scenes: a relation hands a
 * virtual device's place, groups and scenes to a real device through their services.
 */
export function createVirtualModule(deps: {
  db: Db;
  access: Pick<ProjectAccess, 'requireMap'>;
  devices: Pick<DevicesService, 'moveIn' | 'moveOut' | 'setParams'>;
  groups: Pick<GroupsService, 'changeMembers'>;
  scenes: Pick<ScenesService, 'get' | 'update'>;
  gateways: Pick<GatewaysService, 'sync'>;
}) {
  const repo = createVirtualRepo(deps.db);
  const templates = createParamTemplatesService({ repo, devices: deps.devices });
  const virtuals = createVirtualDevicesService({ ...deps, repo, templates });
  return {
    templates,
    virtuals,
    register: (route) => registerVirtualRoutes(route, { templates, virtuals }),
  } satisfies DomainModule & Record<string, unknown>;
}
