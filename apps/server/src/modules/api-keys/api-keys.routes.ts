import { apiKeyEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { ApiKeysService } from './api-keys.service.ts';

/** The API key calls of the endpoint table (contract endpoints/api-keys.ts). */
export function registerApiKeyRoutes(route: RouteOf, deps: { apiKeys: ApiKeysService }) {
  const { apiKeys } = deps;

  route(E.list, ({ auth }) => apiKeys.list(auth));

  route(E.create, ({ auth, body }) => apiKeys.create(auth, body));

  route(E.revoke, ({ auth, body }) => apiKeys.revoke(auth, body.id));
}
