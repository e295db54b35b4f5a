import { groupEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { GroupsService } from './groups.service.ts';

/** The zone calls of the endpoint table (contract endpoints/groups.ts). */
export function registerGroupRoutes(route: RouteOf, deps: { groups: GroupsService }) {
  const { groups } = deps;

  route(E.list, ({ auth, params }) => groups.list(auth, params.id));

  route(E.forGateway, ({ auth, params }) => groups.forGateway(auth, params.id));

  route(E.get, ({ auth, params }) => groups.get(auth, params.id));

  route(E.add, ({ auth, body }) => groups.add(auth, body));

  route(E.update, ({ auth, body }) => groups.update(auth, body));

  route(E.changeMembers, ({ auth, body }) => groups.changeMembers(auth, body));

  route(E.remove, ({ auth, params }) => groups.remove(auth, params.id));

  route(E.removeAndSync, ({ auth, params }) => groups.removeAndSync(auth, params.id));

  route(E.candidates, ({ auth, params }) => groups.candidates(auth, params));

  route(E.control, ({ auth, body }) => groups.control(auth, body));
}
