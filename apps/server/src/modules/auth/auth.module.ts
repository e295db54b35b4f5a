import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UserRow } from '../accounts/accounts.repo.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { Messenger } from '../outbox/messenger.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import { createAuthRepo } from './auth.repo.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import { captchaMaker } from './captcha-image.ts';
import { sweepEvery } from '../../lib/sweep.ts';

const SWEEP_EVERY_MS = 10 * 60_000;

/** Sign-up, sign-in, sessions and codes; its service checks every request's token. */
export function createAuthModule(deps: {
  db: Db;
  accounts: AccountsService;
  messenger: Messenger;
  config: Pick<Config, 'mode' | 'publicUrl' | 'captchaText'>;
  clock: Clock;
  scopes: Pick<ProjectMembers, 'scopeOf'>;
  logger: Pick<FastifyBaseLogger, 'warn'>;
  passwordSignInOff: (user: Pick<UserRow, 'parentId'>) => Promise<boolean>;
}) {
  const auth = createAuthService({
    repo: createAuthRepo(deps.db),
    accounts: deps.accounts,
    messenger: deps.messenger,
    makeCaptcha: captchaMaker(deps.config.captchaText),
    clock: deps.clock,
    config: deps.config,
    scopes: deps.scopes,
    passwordSignInOff: deps.passwordSignInOff,
  });
  // Counters and devices whose time has passed go, so guesses at made-up names cannot grow the tables for ever.
  const stopSweep = sweepEvery(SWEEP_EVERY_MS, () => auth.sweepSignInState(), deps.logger, 'sign-in counters not swept');
  return {
    service: auth,
    register: (route) => registerAuthRoutes(route, { auth }),
    close: stopSweep,
  } satisfies DomainModule & Record<string, unknown>;
}
