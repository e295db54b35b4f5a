import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { RaisedAlert } from '../alerts/alert-tracker.ts';
import type { Messenger } from '../outbox/messenger.ts';
import type { WebhookEvents } from '../webhooks/webhooks.service.ts';
import { createAlarmKeeper, type ClearedFaults } from './alarm-keeper.ts';
import { createAlarmsRepo } from './alarms.repo.ts';
import { registerAlarmRoutes } from './alarms.routes.ts';
import { createAlarmsService } from './alarms.service.ts';

/** Alarm management over the fault list: fed by the alert tracker's raises and clears (docs/alarms.md). */
export function createAlarmsModule(deps: {
  db: Db;
  clock: Clock;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  messenger: Pick<Messenger, 'send'>;
  hub: Pick<RealtimeHub, 'publishToUser'>;
  accounts: Pick<AccountsService, 'findById'>;
  logger: FastifyBaseLogger;
  /** Told alarms raised, cleared and acknowledged (webhooks). */
  events?: WebhookEvents;
  /** How often delays and shelving are looked at (tests tick by hand and pass 0 to start no timer). */
  tickMs?: number;
}) {
  const repo = createAlarmsRepo(deps.db);
  const keeper = createAlarmKeeper({
    repo,
    clock: deps.clock,
    jobs: deps.jobs,
    messenger: deps.messenger,
    hub: deps.hub,
    logger: deps.logger,
    events: deps.events,
    tickMs: deps.tickMs,
  });
  const alarms = createAlarmsService({
    repo,
    keeper,
    clock: deps.clock,
    nameOf: async (userId) => {
      const user = await deps.accounts.findById(userId);
      return user?.name || user?.account || '';
    },
  });
  const warn = (err: unknown) => deps.logger.warn({ err }, 'alarm not updated');
  return {
    service: alarms,
    keeper,
    /** For the alert tracker: a fault raised becomes an alarm by its code's rules. */
    alertRaised: (alert: RaisedAlert) => void keeper.faultRaised({ ...alert }).catch(warn),
    /** For the alert tracker: faults cleared. */
    alertsCleared: (cleared: ClearedFaults) => void keeper.faultCleared(cleared).catch(warn),
    start: () => keeper.start(),
    register: (route) => registerAlarmRoutes(route, { alarms }),
    close: () => keeper.close(),
  } satisfies DomainModule & Record<string, unknown>;
}
