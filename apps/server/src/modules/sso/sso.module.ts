import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { createOidcClient } from './oidc-client.ts';
import { createSsoRepo } from './sso.repo.ts';
import { registerSsoRoutes } from './sso.routes.ts';
import { createSsoService } from './sso.service.ts';

/** Single sign-on with OpenID Connect: the owner's settings and the sign-in through the account's provider. */
export function createSsoModule(deps: {
  db: Db;
  accounts: Pick<AccountsService, 'findById' | 'findByLogin' | 'createAccount'>;
  sessions: Pick<AuthService, 'openSession'>;
  config: Pick<Config, 'mode' | 'publicUrl'>;
  clock: Clock;
}) {
  const sso = createSsoService({ ...deps, repo: createSsoRepo(deps.db), oidc: createOidcClient({ now: () => Date.now() }) });
  return { service: sso, register: (route) => registerSsoRoutes(route, { sso }) } satisfies DomainModule & Record<string, unknown>;
}
