import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import type { DomainModule } from '../../http/module.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RaisedAlert } from '../alerts/alert-tracker.ts';
import type { Messenger } from '../outbox/messenger.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import { createProjectsRepo } from '../projects/projects.repo.ts';
import { createRecipientsRepo } from './recipients.repo.ts';
import { registerRecipientRoutes } from './recipients.routes.ts';
import { createRecipientsService } from './recipients.service.ts';
import { createReportSender } from './report-sender.ts';

/** Report recipients and the mails they get: scheduled reports and real-time fault mails, on durable jobs. */
export function createReportsModule(deps: {
  db: Db;
  clock: Clock;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  messenger: Pick<Messenger, 'send'>;
  access: Pick<ProjectAccess, 'requireProject'>;
  /** The gateways as their owner shares them (a project's site time zone). */
  reads: Pick<OwnedReads, 'gateways'>;
  logger: FastifyBaseLogger;
}) {
  const repo = createRecipientsRepo(deps.db);
  const recipients = createRecipientsService({ ...deps, repo });
  const sender = createReportSender({ ...deps, repo, projects: createProjectsRepo(deps.db, deps.reads), schedule: recipients.schedule });
  sender.register(deps.jobs);
  return {
    service: recipients,
    /** For the alert tracker: every alert raised may be mailed to the project's recipients. */
    alertRaised: (alert: RaisedAlert) =>
      void sender.alertRaised(alert).catch((err: unknown) => deps.logger.warn({ err }, 'real-time fault mail not scheduled')),
    register: (route) => registerRecipientRoutes(route, { recipients }),
  } satisfies DomainModule & Record<string, unknown>;
}
