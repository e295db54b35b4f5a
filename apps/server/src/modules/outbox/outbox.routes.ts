import { outboxEndpoints } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { OutboxService } from './outbox.service.ts';

export function registerOutboxRoutes(route: RouteOf, deps: { outbox: OutboxService }) {
  route(outboxEndpoints.list, ({ auth, query }) => deps.outbox.page(auth, query));
}
