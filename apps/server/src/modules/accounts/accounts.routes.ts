import { accountEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { AccountsService } from './accounts.service.ts';

/** The signed-in user's own account (contract endpoints/accounts.ts); its password is the auth module's. */
export function registerAccountRoutes(route: RouteOf, deps: { accounts: AccountsService }) {
  const { accounts } = deps;

  route(E.profile, ({ auth }) => accounts.profile(auth));

  route(E.updateProfile, ({ auth, body }) => accounts.updateProfile(auth, body));

  route(E.setLang, async ({ auth, body }) => {
    await accounts.setLang(auth, body.lang);
    return null;
  });
}
