import { alertEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { AlertsService } from './alerts.service.ts';

/** The alert calls of the endpoint table (contract endpoints/alerts.ts). */
export function registerAlertRoutes(route: RouteOf, deps: { alerts: AlertsService }) {
  const { alerts } = deps;

  route(E.page, ({ auth, body }) => alerts.page(auth, body));

  route(E.statistics, ({ auth, body }) => alerts.statistics(auth, body));

  route(E.handle, ({ auth, body }) => alerts.handle(auth, body));

  route(E.remove, ({ auth, body }) => alerts.remove(auth, body));
}
