import type { Db } from '../../db/client.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { DomainModule } from '../../http/module.ts';
import type { GatewayConfigSource } from '../gateways/gateway-context.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import type { DevicesRepo } from '../devices/devices.repo.ts';
import type { AccessService } from '../access/access.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import { createGroupsRepo } from './groups.repo.ts';
import { registerGroupRoutes } from './groups.routes.ts';
import { createGroupsService, groupConfigSource } from './groups.service.ts';

/** The group table a gateway runs, read from the database alone, so the gateways module can be made first. */
export function groupsConfig(db: Db): GatewayConfigSource {
  return groupConfigSource(createGroupsRepo(db));
}

export function createGroupsModule(deps: {
  db: Db;
  devices: Pick<DevicesRepo, 'inGroups' | 'groupFacts' | 'groupCandidates'>;
  maps: Pick<ProjectAccess, 'requireMap'>;
  access: Pick<AccessService, 'requireOne'>;
  gateways: Pick<GatewaysService, 'configChanged' | 'sync'>;
  link: Pick<GatewayLink, 'bus'> | undefined;
  commandTimeoutMs?: number;
}) {
  const groups = createGroupsService({ ...deps, repo: createGroupsRepo(deps.db) });
  return { service: groups, register: (route) => registerGroupRoutes(route, { groups }) } satisfies DomainModule & Record<string, unknown>;
}
