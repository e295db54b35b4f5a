import { accountEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { AccountsService } from './accounts.service.ts';

/** The signed-in user's own account (contract endpoints/accounts.ts). */
export function registerAccountRoutes(route: RouteOf, deps: { accounts: AccountsService; auth: AuthService }) {
  const { accounts } = deps;

  route(E.accountExists, async ({ params }) => ({ exists: await accounts.accountExists(params.account) }));

  route(E.profile, ({ auth }) => accounts.profile(auth));

  route(E.changePassword, async ({ auth, body }) => {
    await deps.auth.changePassword(auth, body);
    return null;
  });

  route(E.setLang, async ({ auth, body }) => {
    await accounts.setLang(auth, body.lang);
    return null;
  });
}
