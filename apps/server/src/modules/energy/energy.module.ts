import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import { createEnergyStatsRepo } from './energy-stats.repo.ts';
import { createEnergyStatsService } from './energy-stats.service.ts';
import { registerEnergyRoutes } from './energy.routes.ts';

/** The energy statistics, records and report, read from the rollups the telemetry ingest writes (energy.repo.ts). */
export function createEnergyModule(deps: { db: Db; access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding' | 'requireMap'> }) {
  const stats = createEnergyStatsService({ repo: createEnergyStatsRepo(deps.db), access: deps.access });
  return {
    stats,
    register: (route) => registerEnergyRoutes(route, { stats }),
  } satisfies DomainModule & Record<string, unknown>;
}
