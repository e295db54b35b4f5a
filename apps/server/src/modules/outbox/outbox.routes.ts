import { Envelope, OutboxPageSchema, PageQuerySchema } from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { BEARER, type Authenticate, requireAuth } from '../../http/guards.ts';
import type { App } from '../../http/types.ts';
import type { OutboxService } from './outbox.service.ts';

export function registerOutboxRoutes(app: App, deps: { outbox: OutboxService; authenticate: Authenticate }) {
  app.get('/api1/outbox/v1/list', {
    schema: {
      tags: ['outbox'],
      summary: 'Messages kept in the outbox, newest first (platform administrator)',
      security: BEARER,
      querystring: PageQuerySchema,
      response: { 200: Envelope(OutboxPageSchema) },
    },
    onRequest: requireAuth(deps.authenticate),
    handler: async (request) => ok(request, await deps.outbox.page(caller(request), request.query)),
  });
}
