import type { RouteOf } from './endpoint-route.ts';

/**
 * What each domain module hands the composition root: its routes, registered from the endpoint table, and
 * what it must do when the server closes. Services the next modules need are named fields beside these.
 */
export interface DomainModule {
  register(route: RouteOf): void;
  close?(): void | Promise<void>;
}
