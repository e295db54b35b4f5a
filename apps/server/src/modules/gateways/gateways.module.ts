import type { FastifyBaseLogger } from 'fastify';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FirmwareCatalogue } from './firmware-catalogue.ts';
import type { GatewayConfigSource, GatewayLinkPort, GatewayServiceDeps } from './gateway-context.ts';
import type { GatewayFleet } from './gateway-fleet.ts';
import type { GatewaysRepo } from './gateways.repo.ts';
import { registerGatewayRoutes } from './gateways.routes.ts';
import { createGatewaysService } from './gateways.service.ts';

/**
 * Gateway management as callers use it. The link-facing half (the fleet: credentials, presence, firmware
 * store) is made before the gateway link, which needs it, and handed in here; no route reaches it.
 */
export function createGatewaysModule(deps: {
  repo: GatewaysRepo;
  fleet: GatewayFleet;
  devices: GatewayServiceDeps['devices'];
  access: GatewayServiceDeps['access'];
  link: GatewayLinkPort | undefined;
  firmware: FirmwareCatalogue;
  /** The parts of a gateway's configuration, from the domains that own them (groups; scenes and schedules later). */
  configSources: GatewayConfigSource[];
  clock: Clock;
  logger: FastifyBaseLogger;
  commandTimeoutMs?: number;
}) {
  const gateways = createGatewaysService(deps);
  return {
    service: gateways,
    register: (route) => registerGatewayRoutes(route, { gateways }),
    close: () => gateways.closePushes(),
  } satisfies DomainModule & Record<string, unknown>;
}
