import { LIVE_TOPICS } from '@lumigrid/contract';
import type { DecodedUp } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { DomainModule } from '../../http/module.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RealtimeBus } from '../../realtime/realtime-bus.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { WebhookEvents } from '../webhooks/webhooks.service.ts';
import { createEmergencyLive } from './emergency-live.ts';
import type { AlertsHandledListener } from '../alerts/alerts.service.ts';
import { appendRepairsOfHandledAlerts } from './emergency-repairs.ts';
import { createEmergencyRunner } from './emergency-runner.ts';
import { createEmergencyRepo } from './emergency.repo.ts';
import { registerEmergencyRoutes } from './emergency.routes.ts';
import { createEmergencyService } from './emergency.service.ts';

/**
 * Emergency-light testing: tasks and their runs on the gateways, the records, the log book, compliance, and the
 * live topic of each map's emergency lights (/topic/emergency/{mapId}).
 */
export function createEmergencyModule(deps: {
  db: Db;
  clock: Clock;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  link: Pick<GatewayLink, 'bus' | 'onUp'> | undefined;
  access: Pick<ProjectAccess, 'requireProject' | 'requireMap'>;
  accounts: Pick<AccountsService, 'findById'>;
  realtime: Pick<RealtimeHub, 'publish' | 'addDestination'>;
  bus: Pick<RealtimeBus, 'subscribe'>;
  /** The alert tracker's door for `fault` events: failed tests raise their alert, a pass clears it. */
  faults: (message: DecodedUp) => void;
  /** Where the alerts module takes a part in handling alerts: an emergency failure handled with a note is a repair. */
  onAlertsHandled?: (listener: AlertsHandledListener) => void;
  logger: FastifyBaseLogger;
  commandTimeoutMs?: number;
  /** Told each test run that ended (webhooks). */
  events?: WebhookEvents;
}) {
  const repo = createEmergencyRepo(deps.db);
  const runner = createEmergencyRunner({ ...deps, repo });
  const nameOf = async (userId: bigint) => {
    const user = await deps.accounts.findById(userId);
    return user?.name || user?.account || '';
  };
  const emergency = createEmergencyService({ repo, runner, access: deps.access, clock: deps.clock, nameOf });
  // In the transaction that marks the alerts handled, so the repair and the handling are written together.
  deps.onAlertsHandled?.((handled) => appendRepairsOfHandledAlerts(createEmergencyRepo(handled.db), handled));
  const live = createEmergencyLive({ repo, bus: deps.bus, publish: (d, m) => deps.realtime.publish(d, m), logger: deps.logger });
  const unsubscribe = deps.link?.onUp((message) => live.onUp(message));
  // One topic per map: only users who may see the map watch its emergency lights.
  deps.realtime.addDestination({
    pattern: LIVE_TOPICS.emergency.pattern,
    allow: async (auth, { mapId }) =>
      deps.access
        .requireMap(auth, mapId ?? '')
        .then(() => true)
        .catch(() => false),
  });
  return {
    service: emergency,
    runner,
    repo,
    /**
     * The same service and runner on another clock, talking to a recorded gateway instead of the live link: a
     * site's past (the demo's months of tests) is written by the code that writes the present, with its own times.
     * Its jobs run on the recorded clock too; nothing is published live, and no alert is raised: the alarm engine
     * keeps the live clock, so a fault of last month would stand as an alarm raised today.
     */
    onRecord(clock: Clock, gateway: Pick<GatewayLink['bus'], 'send'>, jobs: Pick<JobRunner, 'schedule' | 'register'>) {
      const recorded = createEmergencyRunner({
        ...deps,
        repo,
        clock,
        jobs,
        link: { bus: gateway as GatewayLink['bus'], onUp: () => () => undefined },
        faults: () => undefined,
        realtime: { publish: () => undefined },
        events: undefined,
      });
      return { service: createEmergencyService({ repo, runner: recorded, access: deps.access, clock, nameOf }), runner: recorded };
    },
    register: (route) => registerEmergencyRoutes(route, { emergency }),
    close: () => {
      unsubscribe?.();
      live.close();
      runner.close();
    },
  } satisfies DomainModule & Record<string, unknown>;
}
