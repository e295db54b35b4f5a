import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AccessService } from '../access/access.ts';
import type { MapDevicesPort } from './map-devices-port.ts';
import { createMapImageStore, defaultRenderQueue } from './map-image.ts';
import { createMapsRepo } from './maps.repo.ts';
import { registerMapRoutes } from './maps.routes.ts';
import { createMapsService } from './maps.service.ts';
import { createProjectAccess } from './project-access.ts';
import { createProjectMembers } from './project-members.ts';
import { createProjectsRepo } from './projects.repo.ts';
import { registerProjectRoutes } from './projects.routes.ts';
import { createProjectsService } from './projects.service.ts';
import { sweepEvery } from '../../lib/sweep.ts';

const SWEEP_EVERY_MS = 10 * 60_000;

/** Projects, buildings and maps, and the access check every other domain asks about them. */
export function createProjectsModule(deps: {
  db: Db;
  config: Pick<Config, 'dataDir' | 'pdfAnswerWaitMs'>;
  /** What projects needs to know of the devices on its maps (the devices domain answers). */
  devices: MapDevicesPort;
  /** Which objects a caller may touch (the access module). */
  access: AccessService;
  /** The gateways as their owner shares them (a project's site time zone). */
  reads: Pick<OwnedReads, 'gateways'>;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const repo = createProjectsRepo(deps.db, deps.reads);
  const mapsRepo = createMapsRepo(deps.db);
  const access = createProjectAccess({ access: deps.access, mapsRepo, projectsRepo: repo });
  const projects = createProjectsService({ repo, mapsRepo, devices: deps.devices, access });
  const maps = createMapsService({
    access,
    repo: mapsRepo,
    projects,
    devices: deps.devices,
    store: createMapImageStore(deps.config.dataDir),
    renderQueue: defaultRenderQueue(),
    renderAnswerWaitMs: deps.config.pdfAnswerWaitMs,
    clock: deps.clock,
    logger: deps.logger,
  });
  // Uploads nobody placed on a map go within the hour they are kept.
  const stopSweep = sweepEvery(SWEEP_EVERY_MS, () => maps.sweepUnusedUploads(), deps.logger, 'unused floor plans not swept');
  return {
    /** Which projects, buildings and maps a caller may touch: the projects domain answers for every domain. */
    access,
    /** The projects given to sub-accounts limited to some projects. */
    members: createProjectMembers(repo),
    projects,
    maps,
    register(route) {
      registerProjectRoutes(route, { projects });
      registerMapRoutes(route, { maps });
    },
    close: stopSweep,
  } satisfies DomainModule & Record<string, unknown>;
}
