import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { DomainModule } from '../../http/module.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MapsRepo } from '../projects/maps.repo.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import { createDeviceStateEvents } from './device-state-events.ts';
import { createWebhooksRepo } from './webhooks.repo.ts';
import { registerWebhookRoutes } from './webhooks.routes.ts';
import { createWebhooksService } from './webhooks.service.ts';

/** Signed webhooks: endpoints, and the events of every domain delivered to them as durable jobs. */
export function createWebhooksModule(deps: {
  db: Db;
  members: Pick<ProjectMembers, 'scopeOf'>;
  maps: Pick<MapsRepo, 'placeAnyTenant'>;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** SaaS mode: endpoints on loopback, private and link-local addresses are refused. */
  publicOnly: boolean;
  /** How long device changes of a map are gathered into one event (tests shorten it). */
  deviceGatherMs?: number;
}) {
  const repo = createWebhooksRepo(deps.db);
  const webhooks = createWebhooksService({ ...deps, repo });
  const deviceStates = createDeviceStateEvents({
    repo,
    maps: deps.maps,
    events: webhooks,
    clock: deps.clock,
    logger: deps.logger,
    gatherMs: deps.deviceGatherMs,
  });
  webhooks.onEndpointsChanged(() => void deviceStates.endpointsChanged());
  return {
    service: webhooks,
    /** For the map topics' publisher: device changes become `device.stateChanged` events. */
    deviceStates,
    register: (route) => registerWebhookRoutes(route, { webhooks }),
    close: async () => {
      deviceStates.flush();
      deviceStates.close();
      await webhooks.settled();
    },
  } satisfies DomainModule & Record<string, unknown>;
}
export type WebhooksModule = ReturnType<typeof createWebhooksModule>;
