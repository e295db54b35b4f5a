import { LIMITS } from '@lumigrid/contract';
import svgCaptcha from 'svg-captcha';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { Messenger } from '../outbox/messenger.ts';
import { createAuthRepo } from './auth.repo.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { createAuthService, type CaptchaMaker } from './auth.service.ts';

function captchaMaker(fixedText: string | undefined): CaptchaMaker {
  return () => {
    const made = svgCaptcha.create({ size: LIMITS.captcha.length, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f0f5ff' });
    // With CAPTCHA_TEXT set (automated browser tests) the picture still varies but the answer is fixed.
    return { text: fixedText ?? made.text, svg: made.data };
  };
}

/** Sign-up, sign-in, sessions and codes; its service checks every request's token. */
export function createAuthModule(deps: {
  db: Db;
  accounts: AccountsService;
  messenger: Messenger;
  config: Pick<Config, 'mode' | 'publicUrl' | 'captchaText'>;
  clock: Clock;
}) {
  const auth = createAuthService({
    repo: createAuthRepo(deps.db),
    accounts: deps.accounts,
    messenger: deps.messenger,
    makeCaptcha: captchaMaker(deps.config.captchaText),
    clock: deps.clock,
    config: deps.config,
  });
  return { service: auth, register: (route) => registerAuthRoutes(route, { auth }) } satisfies DomainModule & Record<string, unknown>;
}
