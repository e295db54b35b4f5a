import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import { createImageStore } from '../../lib/image-store.ts';
import { createAccountsRepo, type UserRow } from './accounts.repo.ts';
import { registerAccountRoutes } from './accounts.routes.ts';
import { createAccountsService } from './accounts.service.ts';

export function createAccountsModule(deps: {
  db: Db;
  config: Pick<Config, 'adminAccount' | 'adminPassword' | 'serverIp' | 'company' | 'mode' | 'dataDir'> &
    Partial<Pick<Config, 'demo' | 'demoAccount'>>;
  logger: FastifyBaseLogger;
  /** Called once for every new account (user_auth 2), e.g. to create its default project. */
  onAccountCreated?: (row: UserRow) => Promise<void>;
}) {
  const images = createImageStore(deps.config.dataDir, 'accounts');
  const accounts = createAccountsService({ ...deps, images, repo: createAccountsRepo(deps.db) });
  return { service: accounts, register: (route) => registerAccountRoutes(route, { accounts }) } satisfies DomainModule &
    Record<string, unknown>;
}
