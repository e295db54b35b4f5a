import { platformEndpoints as P } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { PlatformService } from './platform.service.ts';

/** The platform administrator's calls of the endpoint table (contract endpoints/platform.ts). */
export function registerPlatformRoutes(route: RouteOf, deps: { platform: PlatformService }) {
  const { platform } = deps;
  route(P.overview, ({ auth }) => platform.overview(auth));
  route(P.firmwareFiles, async ({ auth }) => platform.firmwareFiles(auth));
  route(P.rollouts, ({ auth }) => platform.rollouts(auth));
  route(P.rollout, ({ auth, params }) => platform.rollout(auth, params.id));
  route(P.startRollout, ({ auth, body }) => platform.startRollout(auth, body));
  route(P.pauseRollout, ({ auth, params }) => platform.pauseRollout(auth, params.id));
  route(P.resumeRollout, ({ auth, params }) => platform.resumeRollout(auth, params.id));
  route(P.rollBack, ({ auth, params }) => platform.rollBack(auth, params.id));
}
