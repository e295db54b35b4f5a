import { ALERT_LIMITS } from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { DomainModule } from '../../http/module.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RealtimeBus } from '../../realtime/realtime-bus.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { AccessService } from '../access/access.ts';
import type { DevicesRepo } from '../devices/devices.repo.ts';
import type { GatewaysRepo } from '../gateways/gateways.repo.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import { createAlertTracker, type RaisedAlert } from './alert-tracker.ts';
import { createAlertsRepo } from './alerts.repo.ts';
import { registerAlertRoutes } from './alerts.routes.ts';
import { createAlertsService } from './alerts.service.ts';
import { createDeviceStatusService } from './device-status.service.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import type { GatewaysService } from '../gateways/gateways.service.ts';
import type { ProjectsService } from '../projects/projects.service.ts';

export function createAlertsModule(deps: {
  db: Db;
  clock: Clock;
  hub: Pick<RealtimeHub, 'publishToUser'>;
  accounts: Pick<AccountsService, 'findById'>;
  access: Pick<ProjectAccess, 'requireProject' | 'requireBuilding' | 'requireMap'>;
  objects: Pick<AccessService, 'requireOne'>;
  /** Where reporting gateways and devices stand, for the alerts they raise. */
  gatewayRows: Pick<GatewaysRepo, 'placeAnyTenant'>;
  deviceRows: Pick<DevicesRepo, 'atAddress'>;
  devices: Pick<DevicesService, 'matching' | 'list' | 'report'>;
  gateways: Pick<GatewaysService, 'list' | 'detail' | 'ofMap'>;
  projects: Pick<ProjectsService, 'tree'>;
  link: Pick<GatewayLink, 'onUp' | 'presence'> | undefined;
  bus: RealtimeBus;
  /** This node's name on the bus (the faults it raises and clears are told to the others under it). */
  node?: string;
  logger: FastifyBaseLogger;
  /** How long offline must last before it is an alert (tests shorten it). */
  offlineGraceMs?: number;
  /** Told of every alert raised on this node, beside the defective-device notice (real-time fault mails). */
  onAlertRaised?: (alert: RaisedAlert) => void;
  /** Told of faults cleared on this node (the alarm engine). */
  onAlertsCleared?: (cleared: { gatewayId: bigint; addr: string; codes: number[] }) => void;
}) {
  const repo = createAlertsRepo(deps.db);
  const alerts = createAlertsService({
    ...deps,
    repo,
    nameOf: async (userId) => {
      const user = await deps.accounts.findById(userId);
      return user?.name || user?.account || '';
    },
  });
  const status = createDeviceStatusService({ devices: deps.devices, gateways: deps.gateways, projects: deps.projects, repo });
  const tracker = createAlertTracker({
    repo,
    gateways: deps.gatewayRows,
    devices: deps.deviceRows,
    clock: deps.clock,
    graceMs: deps.offlineGraceMs ?? ALERT_LIMITS.offlineGraceMs,
    bus: deps.bus,
    node: deps.node,
    onRaised: (alert) => {
      void alerts.notify(alert).catch((err: unknown) => deps.logger.warn({ err }, 'defective-device notice not sent'));
      deps.onAlertRaised?.(alert);
    },
    onCleared: deps.onAlertsCleared,
    logger: deps.logger,
  });
  // Reports and fault events raise and clear alerts; the tracker keeps each gateway's order without holding the link.
  const unsubscribe = deps.link?.onUp((message) => tracker.onUp(message));
  // Unknown (the server lost its broker) is neither: no gateway is paged for the server's own outage.
  const unsubscribePresence = deps.link?.presence.onChange((p) => {
    if (p.reason === 'unknown') return;
    // An offline the link held for its own grace is as old as it says (the link's clock), dated on the tracker's.
    const age = Math.max(0, Date.now() - p.since);
    tracker.presence(p.mac, p.online, new Date(deps.clock.now().getTime() - age));
  });
  return {
    service: alerts,
    tracker,
    register: (route) => registerAlertRoutes(route, { alerts, status, devices: deps.devices }),
    close: async () => {
      unsubscribe?.();
      unsubscribePresence?.();
      await tracker.close();
    },
  } satisfies DomainModule & Record<string, unknown>;
}
