import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt, instant, refersTo, unreferencedId } from './columns.ts';
import { projects } from './projects.ts';
import { tenantRowKeys } from './tenant-columns.ts';

/**
 * Who gets a project's mailed reports (spec section 3, Recipient), and when the next one goes out. The send
 * itself is a `report` job keyed by the occurrence (docs/decisions.md, "Mailed reports").
 */
export const mailRecipients = pgTable(
  'mail_recipients',
  {
    ...tenantRowKeys(),
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    name: text('name').notNull(),
    mail: text('mail').notNull(),
    /** year, month, week or day. */
    unit: text('unit').notNull(),
    /** first, fifteenth or last, for a monthly unit. */
    monthDay: text('month_day'),
    /** 1 Monday ... 7 Sunday, for a weekly unit. */
    weekday: smallint('weekday'),
    /** HH:mm in time_zone. */
    sendTime: text('send_time').notNull(),
    timeZone: text('time_zone').notNull(),
    /** energy, faults, emergency. */
    contents: text('contents').array().notNull(),
    realtimeFaults: boolean('realtime_faults').notNull().default(false),
    lang: text('lang').notNull(),
    /** The occurrence the pending `report` job is for; a job for any other occurrence is stale and sends nothing. */
    nextSendAt: instant('next_send_at').notNull(),
    lastSentAt: instant('last_sent_at'),
    lastError: text('last_error'),
    /**
     * The last alert mailed in real time (the newest alert of all when the switch was turned on): alerts after it
     * are the next fault mail's. An id, not a raise time, since raise times come from gateway clocks.
     */
    faultsMailedThrough: unreferencedId('faults_mailed_through'),
    /** When the last real-time fault mail went out: the next waits RECIPIENT_LIMITS.realtimeIntervalMinutes. */
    lastFaultMailAt: instant('last_fault_mail_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_recipients_tenant_project_idx').on(t.tenantId, t.projectId, t.id),
    check('mail_recipients_unit_check', sql`${t.unit} in ('year', 'month', 'week', 'day')`),
  ],
);

/** The occurrences each recipient was sent: a job that runs again for one of them sends nothing. */
export const mailReportSends = pgTable(
  'mail_report_sends',
  {
    recipientId: refersTo('recipient_id', () => mailRecipients.id, 'cascade'),
    occurrence: instant('occurrence').notNull(),
    sentAt: instant('sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipientId, t.occurrence] })],
);
