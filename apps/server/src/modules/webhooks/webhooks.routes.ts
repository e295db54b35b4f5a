import { webhookEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { WebhooksService } from './webhooks.service.ts';

/** The webhook calls of the endpoint table (contract endpoints/webhooks.ts). */
export function registerWebhookRoutes(route: RouteOf, deps: { webhooks: WebhooksService }) {
  const { webhooks } = deps;

  route(E.list, ({ auth }) => webhooks.list(auth));

  route(E.create, ({ auth, body }) => webhooks.create(auth, body));

  route(E.update, ({ auth, body }) => webhooks.update(auth, body));

  route(E.remove, ({ auth, body }) => webhooks.remove(auth, body.id));

  route(E.deliveries, ({ auth, body }) => webhooks.deliveries(auth, body.id));

  route(E.test, ({ auth, body }) => webhooks.test(auth, body.id));
}
