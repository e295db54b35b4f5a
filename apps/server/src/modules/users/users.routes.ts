import { userEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { UsersService } from './users.service.ts';

/** The account screens' calls (contract endpoints/users.ts). */
export function registerUserRoutes(route: RouteOf, deps: { users: UsersService }) {
  const { users } = deps;
  route(E.list, ({ auth, params, query }) => users.list(auth, params, query));
  route(E.subAccounts, ({ auth }) => users.subAccounts(auth));
  route(E.detail, ({ auth, params }) => users.detail(auth, params.id));
  route(E.add, ({ auth, body }) => users.add(auth, body));
  route(E.update, ({ auth, body }) => users.update(auth, body));
  route(E.remove, async ({ auth, body }) => {
    await users.remove(auth, body.id);
    return null;
  });
  route(E.resetPassword, async ({ auth, body }) => {
    await users.resetPassword(auth, body);
    return null;
  });
}
