import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import { createApiKeysRepo } from './api-keys.repo.ts';
import { registerApiKeyRoutes } from './api-keys.routes.ts';
import { createApiKeysService } from './api-keys.service.ts';

/** API keys for integrators; its service resolves every presented key (http/endpoint-route.ts). */
export function createApiKeysModule(deps: {
  db: Db;
  accounts: Pick<AccountsService, 'findById'>;
  members: Pick<ProjectMembers, 'scopeOf' | 'scopeOfProjects' | 'requireProjects'>;
  clock: Clock;
}) {
  const apiKeys = createApiKeysService({ ...deps, repo: createApiKeysRepo(deps.db) });
  return { service: apiKeys, register: (route) => registerApiKeyRoutes(route, { apiKeys }) } satisfies DomainModule &
    Record<string, unknown>;
}
