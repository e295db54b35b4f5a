import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { Messenger } from '../outbox/messenger.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import { createUsersRepo } from './users.repo.ts';
import { registerUserRoutes } from './users.routes.ts';
import { createUsersService } from './users.service.ts';

/** The account screens: administrators and accounts for the platform administrator, sub-accounts for owners. */
export function createUsersModule(deps: {
  db: Db;
  accounts: AccountsService;
  sessions: Pick<AuthService, 'endUserSessions'>;
  members: ProjectMembers;
  messenger: Messenger;
  config: Pick<Config, 'publicUrl'>;
  clock: Clock;
}) {
  const users = createUsersService({ ...deps, repo: createUsersRepo(deps.db) });
  return { service: users, register: (route) => registerUserRoutes(route, { users }) } satisfies DomainModule & Record<string, unknown>;
}
