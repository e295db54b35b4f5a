import {
  RECIPIENT_LIMITS,
  isTimeZone,
  type Lang,
  type MonthDay,
  type Recipient,
  type RecipientAddBody,
  type RecipientEditBody,
  type ReportContent,
  type ReportUnit,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import { cleanName } from '../projects/access.ts';
import { denyAccess, found, toId } from '../access/access.ts';
import type { ProjectAccess } from '../projects/project-access.ts';
import type { RecipientRow, RecipientsRepo } from './recipients.repo.ts';
import { nextOccurrence, type ReportRule } from './report-schedule.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'operateAuth' | 'scope'>;

/** The job that mails one occurrence of a recipient's report. */
export const REPORT_JOB = 'report';
/** The job that mails the faults raised since a recipient's last fault mail. */
export const FAULT_MAIL_JOB = 'report.faults';

/** Attempts of one report before it is given up and the next occurrence scheduled. */
export const REPORT_ATTEMPTS = 5;

export const reportJobKey = (id: bigint, occurrence: Date) => `recipient:${id}:${occurrence.toISOString()}`;

export function ruleOf(row: Pick<RecipientRow, 'unit' | 'monthDay' | 'weekday' | 'sendTime' | 'timeZone'>): ReportRule {
  return {
    unit: row.unit as ReportUnit,
    monthDay: row.monthDay as MonthDay | null,
    weekday: row.weekday,
    sendTime: row.sendTime,
    timeZone: row.timeZone,
  };
}

export function mapRecipient(row: RecipientRow): Recipient {
  return {
    id: String(row.id),
    projectId: String(row.projectId),
    name: row.name,
    mail: row.mail,
    unit: row.unit as ReportUnit,
    monthDay: row.monthDay as MonthDay | null,
    weekday: row.weekday,
    sendTime: row.sendTime,
    timeZone: row.timeZone,
    contents: row.contents as ReportContent[],
    realtimeFaults: row.realtimeFaults,
    lang: row.lang as Lang,
    nextSendAt: row.nextSendAt.toISOString(),
    lastSentAt: row.lastSentAt?.toISOString() ?? null,
    lastError: row.lastError,
  };
}

/** The stored form of a recipient's fields: the day that does not belong to the unit is dropped. */
function valuesOf(body: Omit<RecipientAddBody, 'projectId'>, lang: Lang) {
  if (!isTimeZone(body.timeZone)) throw new AppError(100302, body.timeZone);
  if (body.unit === 'month' && body.monthDay === undefined) throw new AppError(100303, 'monthDay');
  if (body.unit === 'week' && body.weekday === undefined) throw new AppError(100303, 'weekday');
  return {
    name: cleanName(body.name),
    mail: body.mail.trim(),
    unit: body.unit,
    monthDay: body.unit === 'month' ? body.monthDay! : null,
    weekday: body.unit === 'week' ? body.weekday! : null,
    sendTime: body.sendTime,
    // Intl's own spelling, so a zone given in another case reads the same everywhere.
    timeZone: new Intl.DateTimeFormat('en', { timeZone: body.timeZone }).resolvedOptions().timeZone,
    contents: [...new Set(body.contents)],
    realtimeFaults: body.realtimeFaults ?? false,
    lang: body.lang ?? lang,
  };
}

/**
 * Report recipients of spec section 7 "Mail recipients": who gets a project's reports and when. Each change
 * schedules the recipient's next occurrence as a `report` job; the job for an occurrence the recipient no longer
 * has sends nothing (report-sender.ts).
 */
export function createRecipientsService(deps: {
  repo: RecipientsRepo;
  clock: Clock;
  jobs: Pick<JobRunner, 'schedule'>;
  access: Pick<ProjectAccess, 'requireProject'>;
}) {
  const { repo, clock } = deps;

  async function schedule(row: RecipientRow) {
    await deps.jobs.schedule({
      kind: REPORT_JOB,
      key: reportJobKey(row.id, row.nextSendAt),
      runAt: row.nextSendAt,
      payload: { recipientId: String(row.id), occurrence: row.nextSendAt.toISOString() },
      maxAttempts: REPORT_ATTEMPTS,
    });
  }

  /** The recipient the route has checked (contract objects), loaded under the account; gone since: 110011. */
  async function requireRecipient(auth: Caller, id: string): Promise<RecipientRow> {
    return found(await repo.find({ tenantId: auth.tenantId, id: toId(id) }));
  }

  return {
    schedule,

    async list(auth: Caller, projectId: string): Promise<Recipient[]> {
      const project = await deps.access.requireProject(auth, projectId);
      return (await repo.list({ tenantId: auth.tenantId, projectId: project.id })).map(mapRecipient);
    },

    async add(auth: Caller, body: RecipientAddBody, lang: Lang): Promise<Recipient> {
      assertMay(auth, 'write');
      const project = await deps.access.requireProject(auth, body.projectId);
      const values = valuesOf(body, lang);
      // Checked before the insert, not locked: two racing adds may pass 50 by one, which harms nobody.
      if ((await repo.countOfProject({ tenantId: auth.tenantId, projectId: project.id })) >= RECIPIENT_LIMITS.perProject) {
        throw new AppError(100301);
      }
      const now = clock.now();
      const row = await repo.insert({
        ...values,
        tenantId: auth.tenantId,
        projectId: project.id,
        nextSendAt: nextOccurrence(ruleOf(values), now),
        faultsMailedThrough: values.realtimeFaults ? await repo.latestAlertId() : null,
      });
      await schedule(row);
      return mapRecipient(row);
    },

    async edit(auth: Caller, body: RecipientEditBody): Promise<Recipient> {
      assertMay(auth, 'write');
      const current = await requireRecipient(auth, body.id);
      const values = valuesOf(body, current.lang as Lang);
      const now = clock.now();
      const row = await repo.update({
        tenantId: auth.tenantId,
        id: current.id,
        values: {
          ...values,
          nextSendAt: nextOccurrence(ruleOf(values), now),
          // Faults from before the switch was turned on are not mailed.
          ...(values.realtimeFaults && !current.realtimeFaults ? { faultsMailedThrough: await repo.latestAlertId() } : {}),
        },
      });
      if (!row) denyAccess();
      await schedule(row);
      return mapRecipient(row);
    },

    async remove(auth: Caller, id: string): Promise<null> {
      assertMay(auth, 'write');
      const row = await requireRecipient(auth, id);
      await repo.remove({ tenantId: auth.tenantId, id: row.id });
      return null;
    },

    async setRealtime(auth: Caller, id: string, on: boolean): Promise<Recipient> {
      assertMay(auth, 'write');
      const current = await requireRecipient(auth, id);
      if (current.realtimeFaults === on) return mapRecipient(current);
      const row = await repo.update({
        tenantId: auth.tenantId,
        id: current.id,
        values: on ? { realtimeFaults: true, faultsMailedThrough: await repo.latestAlertId() } : { realtimeFaults: false },
      });
      if (!row) denyAccess();
      return mapRecipient(row);
    },
  };
}

export type RecipientsService = ReturnType<typeof createRecipientsService>;
