import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { DomainModule } from '../../http/module.ts';
import { registerBrandingRoutes } from './branding.routes.ts';
import { createBrandingService } from './branding.service.ts';

export function createBrandingModule(deps: {
  config: Pick<Config, 'brandingDir' | 'webDist' | 'company'>;
  logger: FastifyBaseLogger;
}): DomainModule {
  const branding = createBrandingService({ ...deps.config, logger: deps.logger });
  return { register: (route) => registerBrandingRoutes(route, { branding }) };
}
