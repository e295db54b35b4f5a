import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import { createImageStore } from '../../lib/image-store.ts';
import type { GatewayConfigSource } from '../gateways/gateway-context.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { WebhookEvents } from '../webhooks/webhooks.service.ts';
import { createScenesRepo } from './scenes.repo.ts';
import { registerSceneRoutes } from './scenes.routes.ts';
import { createScenesService, sceneConfigSource } from './scenes.service.ts';

/** The scenes part of a gateway's configuration, read from the database alone, so the gateways module can be made first. */
export function scenesConfig(db: Db): GatewayConfigSource {
  return sceneConfigSource(createScenesRepo(db));
}

export function createScenesModule(deps: {
  db: Db;
  access: Pick<ProjectAccess, 'requireProject' | 'requireMap'>;
  gateways: Pick<GatewaysService, 'configChanged' | 'pushConfig' | 'sync'>;
  link: Pick<GatewayLink, 'bus' | 'onUp'> | undefined;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** DATA_DIR: scene pictures live in its uploads/scenes. */
  dataDir: string;
  targetsPerGateway?: number;
  commandTimeoutMs?: number;
  /** Told every scene run (webhooks). */
  events?: WebhookEvents;
}) {
  const scenes = createScenesService({ ...deps, repo: createScenesRepo(deps.db), images: createImageStore(deps.dataDir, 'scenes') });
  // Runs the gateways start on their own arrive as events; the link holds the next message until one is stored.
  const unsubscribe = deps.link?.onUp((message) => scenes.onUp(message));
  return {
    service: scenes,
    register: (route) => registerSceneRoutes(route, { scenes }),
    close: () => unsubscribe?.(),
  } satisfies DomainModule & Record<string, unknown>;
}
