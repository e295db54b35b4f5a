import { recipientEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { requestLang } from '../../http/envelope.ts';
import type { RecipientsService } from './recipients.service.ts';

/** The mail recipient calls of the endpoint table (contract endpoints/recipients.ts). */
export function registerRecipientRoutes(route: RouteOf, deps: { recipients: RecipientsService }) {
  const { recipients } = deps;

  route(E.list, ({ auth, query }) => recipients.list(auth, query.projectId));

  route(E.add, ({ auth, body, request }) => recipients.add(auth, body, requestLang(request)));

  route(E.edit, ({ auth, body }) => recipients.edit(auth, body));

  route(E.remove, ({ auth, query }) => recipients.remove(auth, query.id));

  route(E.realtimeSwitch, ({ auth, params }) => recipients.setRealtime(auth, params.id, params.on === '1'));
}
