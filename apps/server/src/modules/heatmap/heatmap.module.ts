import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { DomainModule } from '../../http/module.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { IngestOptions } from '../device-reports/device-reports.module.ts';
import { createActivationWriter } from './activation-writer.ts';
import { createActivationsRepo } from './activations.repo.ts';
import { createHeatmapRepo } from './heatmap.repo.ts';
import { registerHeatmapRoutes } from './heatmap.routes.ts';
import { createHeatmapService } from './heatmap.service.ts';

/**
 * The sensor heatmap: motion sensors' occupied reports from the gateway link become activation windows as they
 * arrive, and the heatmap calls read them with each project's colour levels.
 */
export function createHeatmapModule(deps: {
  db: Db;
  access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding' | 'requireMap'>;
  link?: Pick<GatewayLink, 'onUp'>;
  options?: IngestOptions;
  logger: FastifyBaseLogger;
}) {
  const heatmap = createHeatmapService({ repo: createHeatmapRepo(deps.db), access: deps.access });
  const writer = deps.link
    ? createActivationWriter({ ...deps.options, repo: createActivationsRepo(deps.db), logger: deps.logger })
    : undefined;
  deps.link?.onUp((m) => (m.channel === 'event' ? writer?.accept(m.mac, m.message) : undefined));
  return {
    heatmap,
    activations: writer,
    register: (route) => registerHeatmapRoutes(route, { heatmap }),
    close: () => writer?.close(),
  } satisfies DomainModule & Record<string, unknown>;
}
