import { LIVE_TOPICS, ROLLOUT_TOPIC, isPlatformAdmin } from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { DomainModule } from '../../http/module.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import type { FirmwareCatalogue } from '../gateways/firmware-catalogue.ts';
import { createPlatformRepo } from './platform.repo.ts';
import { registerPlatformRoutes } from './platform.routes.ts';
import { createPlatformService } from './platform.service.ts';
import { createRolloutRunner } from './rollout-runner.ts';

/** The platform administrator's view across tenants and the fleet firmware rollouts on durable jobs. */
export function createPlatformModule(deps: {
  db: Db;
  clock: Clock;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  link: Pick<GatewayLink, 'firmware'> | undefined;
  firmware: FirmwareCatalogue;
  realtime: Pick<RealtimeHub, 'publish' | 'addDestination'>;
  logger: FastifyBaseLogger;
  /** How long a rollout step waits before it looks at its updates again. */
  rolloutCheckMs?: number;
}) {
  const repo = createPlatformRepo(deps.db);
  // Every change of a rollout goes to the live topic, which only platform administrators may watch.
  const changed = (rolloutId: bigint) =>
    void platform
      .summary(rolloutId)
      .then((summary) => summary && deps.realtime.publish(ROLLOUT_TOPIC, summary))
      .catch((err: unknown) => deps.logger.warn({ err }, 'rollout change not published'));
  const runner = createRolloutRunner({
    repo,
    jobs: deps.jobs,
    link: deps.link,
    firmware: deps.firmware,
    clock: deps.clock,
    changed,
    checkMs: deps.rolloutCheckMs,
  });
  const platform = createPlatformService({ repo, runner, firmware: deps.firmware, clock: deps.clock, changed });
  deps.realtime.addDestination({ pattern: LIVE_TOPICS.firmwareRollouts.pattern, allow: (auth) => isPlatformAdmin(auth) });
  return {
    service: platform,
    register: (route) => registerPlatformRoutes(route, { platform }),
  } satisfies DomainModule & Record<string, unknown>;
}
