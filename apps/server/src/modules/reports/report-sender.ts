import { RECIPIENT_LIMITS, XLSX_MIME, type Lang, type ReportContent, type ReportUnit } from '@lumigrid/contract';
import type { Json, JobContext, JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Messenger } from '../outbox/messenger.ts';
import type { ProjectsRepo } from '../projects/projects.repo.ts';
import type { RaisedAlert } from '../alerts/alert-tracker.ts';
import type { RecipientRow, RecipientsRepo } from './recipients.repo.ts';
import { FAULT_MAIL_JOB, REPORT_ATTEMPTS, REPORT_JOB, ruleOf } from './recipients.service.ts';
import { buildFaultMail, buildReportMail, FAULTS_LISTED } from './report-content.ts';
import { isoDate, nextOccurrence, reportPeriod } from './report-schedule.ts';

const INTERVAL_MS = RECIPIENT_LIMITS.realtimeIntervalMinutes * 60_000;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * The job handlers of mailed reports and real-time fault mails (docs/decisions.md, "Mailed reports"). A report
 * job is for one occurrence; it sends only if the recipient still has that occurrence next and it was not sent
 * before, then schedules the next. A fault-mail job mails the faults raised since the recipient's mark.
 */
export function createReportSender(deps: {
  repo: RecipientsRepo;
  projects: Pick<ProjectsRepo, 'findProject'>;
  messenger: Pick<Messenger, 'send'>;
  jobs: Pick<JobRunner, 'schedule'>;
  schedule: (row: RecipientRow) => Promise<void>;
  clock: Clock;
}) {
  const { repo, clock } = deps;

  async function projectName(row: RecipientRow): Promise<string> {
    return (await deps.projects.findProject({ tenantId: row.tenantId, id: row.projectId }))?.name ?? '';
  }

  /** Moves the recipient on to its next occurrence after this one (or after now, when the job ran late). */
  async function advance(row: RecipientRow, occurrence: Date, outcome: { lastSentAt?: Date; lastError: string | null }) {
    const after = new Date(Math.max(occurrence.getTime(), clock.now().getTime()));
    const next = nextOccurrence(ruleOf(row), after);
    if (await repo.recordOutcome({ id: row.id, occurrence, next, ...outcome })) await deps.schedule({ ...row, nextSendAt: next });
  }

  async function sendReport(payload: Json, context: JobContext): Promise<Json> {
    const { recipientId, occurrence: at } = payload as { recipientId: string; occurrence: string };
    const occurrence = new Date(at);
    const row = await repo.byId({ id: BigInt(recipientId) });
    // Removed, or changed since this job was scheduled: the job of its new occurrence sends instead.
    if (!row) return { skipped: 'removed' };
    if (row.nextSendAt.getTime() !== occurrence.getTime()) return { skipped: 'rescheduled' };
    if (await repo.wasSent({ recipientId: row.id, occurrence })) {
      await advance(row, occurrence, { lastError: null });
      return { skipped: 'sent before' };
    }
    try {
      const rule = ruleOf(row);
      const period = reportPeriod(rule, occurrence);
      const contents = row.contents as ReportContent[];
      const scope = { tenantId: row.tenantId, projectId: row.projectId };
      const mail = await buildReportMail({
        recipientName: row.name,
        projectName: await projectName(row),
        unit: row.unit as ReportUnit,
        lang: row.lang as Lang,
        timeZone: row.timeZone,
        contents,
        firstDay: period.firstDay,
        endDay: period.endDay,
        energy: contents.includes('energy')
          ? await repo.energyDays({ ...scope, firstDay: isoDate(period.firstDay), endDay: isoDate(period.endDay) })
          : [],
        faults: contents.includes('faults')
          ? await repo.faults({ ...scope, from: period.from, to: period.to, limit: FAULTS_LISTED })
          : { byCode: [], list: [] },
        emergency: contents.includes('emergency')
          ? await repo.emergencyRuns({ ...scope, from: period.from, to: period.to, limit: FAULTS_LISTED })
          : [],
      });
      await deps.messenger.send({
        channel: 'mail',
        recipient: row.mail,
        subject: mail.subject,
        body: mail.text,
        html: mail.html,
        attachments: [{ filename: mail.attachment.filename, content: mail.attachment.content, contentType: XLSX_MIME }],
      });
    } catch (error) {
      const lastError = errorText(error);
      // The last attempt gives this occurrence up, so the recipient's later reports still go out.
      if (context.attempt >= REPORT_ATTEMPTS) {
        await advance(row, occurrence, { lastError });
        return { failed: lastError };
      }
      await repo.recordError({ id: row.id, occurrence, error: lastError });
      throw error;
    }
    const sentAt = clock.now();
    await repo.markSent({ recipientId: row.id, occurrence, sentAt });
    await advance(row, occurrence, { lastSentAt: sentAt, lastError: null });
    return { sent: row.mail.replace(/^(.).*@/, '$1***@') };
  }

  async function scheduleFaultMail(row: RecipientRow, at: Date) {
    await deps.jobs.schedule({
      kind: FAULT_MAIL_JOB,
      key: `recipient:${row.id}:${at.toISOString()}`,
      runAt: at,
      payload: { recipientId: String(row.id) },
    });
  }

  /** The earliest a recipient may get its next fault mail. */
  const nextFaultMailAt = (row: RecipientRow, now: Date) =>
    row.lastFaultMailAt && now.getTime() < row.lastFaultMailAt.getTime() + INTERVAL_MS
      ? new Date(row.lastFaultMailAt.getTime() + INTERVAL_MS)
      : now;

  async function sendFaults(payload: Json): Promise<Json> {
    const id = BigInt((payload as { recipientId: string }).recipientId);
    const now = clock.now();
    const current = await repo.byId({ id });
    if (!current?.realtimeFaults) return { skipped: 'off' };
    const allowedAt = nextFaultMailAt(current, now);
    if (allowedAt.getTime() > now.getTime()) {
      await scheduleFaultMail(current, allowedAt);
      return { deferred: allowedAt.toISOString() };
    }
    const taken = await repo.takeFaults({ id, limit: FAULTS_LISTED });
    if (!taken) return { skipped: 'nothing new' };
    const { row, list, total, through } = taken;
    try {
      const mail = buildFaultMail({ projectName: await projectName(row), lang: row.lang as Lang, timeZone: row.timeZone, faults: list });
      await deps.messenger.send({ channel: 'mail', recipient: row.mail, subject: mail.subject, body: mail.text, html: mail.html });
    } catch (error) {
      await repo.returnFaults({ id, through, taken: list.at(-1)!.id });
      throw error;
    }
    await repo.markFaultMail({ id, at: now });
    // More than one mail lists: the rest go out when the next mail may.
    if (total > list.length) await scheduleFaultMail(row, new Date(now.getTime() + INTERVAL_MS));
    return { faults: list.length };
  }

  return {
    register(jobs: Pick<JobRunner, 'register'>) {
      jobs.register(REPORT_JOB, sendReport);
      jobs.register(FAULT_MAIL_JOB, sendFaults);
    },

    /** Called for each alert raised: its project's recipients with the switch on get a fault mail soon. */
    async alertRaised(alert: RaisedAlert): Promise<void> {
      if (alert.projectId === null) return;
      const now = clock.now();
      for (const row of await repo.realtimeOfProject({ tenantId: alert.tenantId, projectId: alert.projectId })) {
        await scheduleFaultMail(row, nextFaultMailAt(row, now));
      }
    },
  };
}

export type ReportSender = ReturnType<typeof createReportSender>;
