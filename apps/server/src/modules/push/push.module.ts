import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import { createImageStore } from '../../lib/image-store.ts';
import { createPushRepo } from './push.repo.ts';
import { registerPushRoutes, type PublicRateLimit } from './push.routes.ts';
import { createPushService } from './push.service.ts';

/** Push-news management: apps, categories, news, their review, and the mobile apps' public read calls. */
export function createPushModule(deps: {
  db: Db;
  config: Pick<Config, 'mode' | 'publicUrl' | 'dataDir'>;
  clock: Clock;
  /** The public calls' limit per client address; tests lower it. */
  publicRateLimit?: PublicRateLimit;
}) {
  const push = createPushService({
    repo: createPushRepo(deps.db),
    images: createImageStore(deps.config.dataDir, 'push'),
    clock: deps.clock,
    config: deps.config,
  });
  return {
    service: push,
    register: (route) => registerPushRoutes(route, { push, publicRateLimit: deps.publicRateLimit }),
  } satisfies DomainModule & Record<string, unknown>;
}
