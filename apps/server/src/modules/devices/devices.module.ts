import { LIVE_TOPICS } from '@lumigrid/contract';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { DomainModule } from '../../http/module.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import type { TelemetryRepo } from '../device-reports/telemetry.repo.ts';
import type { GatewayConfigVersions } from './device-config.service.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { DevicesRepo } from './devices.repo.ts';
import { registerDeviceRoutes } from './devices.routes.ts';
import { createDevicesService, type DeviceLifeSource } from './devices.service.ts';

/** Device reads, naming, placement, control and configuration, and the live topic of each map's devices. */
export function createDevicesModule(deps: {
  repo: DevicesRepo;
  access: Pick<ProjectAccess, 'requireMap'>;
  link: Pick<GatewayLink, 'bus'> | undefined;
  realtime: Pick<RealtimeHub, 'publish' | 'addDestination'>;
  gateways: GatewayConfigVersions;
  telemetry: Pick<TelemetryRepo, 'ofDevices'>;
  life?: DeviceLifeSource;
  commandTimeoutMs?: number;
}) {
  const devices = createDevicesService(deps);
  // One topic per map: only users of the map's account may watch it.
  deps.realtime.addDestination({ pattern: LIVE_TOPICS.map.pattern, allow: (auth, { mapId }) => devices.canSeeMap(auth, mapId ?? '') });
  return { service: devices, register: (route) => registerDeviceRoutes(route, { devices }) } satisfies DomainModule &
    Record<string, unknown>;
}
