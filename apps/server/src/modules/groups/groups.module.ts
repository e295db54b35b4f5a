import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { GatewayConfigSource } from '../gateways/gateway-context.ts';
import { createGroupsRepo } from './groups.repo.ts';
import { registerGroupRoutes } from './groups.routes.ts';
import { createGroupsService, groupConfigSource } from './groups.service.ts';

/** The group table a gateway runs, read from the database alone, so the gateways module can be made first. */
export function groupsConfig(db: Db): GatewayConfigSource {
  return groupConfigSource(createGroupsRepo(db));
}

/** The groups domain: its service on the database's own repo, and its routes. */
export function createGroupsModule(deps: Omit<Parameters<typeof createGroupsService>[0], 'repo'> & { db: Db }) {
  const groups = createGroupsService({ ...deps, repo: createGroupsRepo(deps.db) });
  return { service: groups, register: (route) => registerGroupRoutes(route, { groups }) } satisfies DomainModule & Record<string, unknown>;
}
