import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import { createMessenger } from './messenger.ts';
import { createOutboxRepo } from './outbox.repo.ts';
import { registerOutboxRoutes } from './outbox.routes.ts';
import { createOutboxService } from './outbox.service.ts';

/** Mail and text messages: the messenger other domains send through, and the outbox the administrator reads. */
export function createOutboxModule(deps: { db: Db; config: Pick<Config, 'smtpUrl' | 'smtpFrom'>; logger: FastifyBaseLogger }) {
  const repo = createOutboxRepo(deps.db);
  const messenger = createMessenger({ repo, config: deps.config, logger: deps.logger });
  const outbox = createOutboxService({ repo });
  return {
    messenger,
    register: (route) => registerOutboxRoutes(route, { outbox }),
    close: () => messenger.close(),
  } satisfies DomainModule & Record<string, unknown>;
}
