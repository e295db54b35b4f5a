import { Type, type Static } from 'typebox';
import { IdSchema, LangSchema, Nullable } from './common.ts';
import { MAIL_PATTERN } from './validation.ts';
import { LIMITS } from './limits.ts';

/** Whether a string names a time zone this runtime knows (IANA names, as Intl takes them). */
export { isTimeZone } from '@lumigrid/protocol';

/**
 * Report recipients, spec sections 2 (report management), 3 (Recipient), 7 ("Mail recipients") and 9 (report
 * frequencies): who gets a project's report by mail, how often, with what in it, and whether faults are mailed
 * as they are raised.
 */

export const REPORT_UNITS = ['year', 'month', 'week', 'day'] as const;
export type ReportUnit = (typeof REPORT_UNITS)[number];

/** The days a monthly report may go out on (spec section 9). */
export const MONTH_DAYS = ['first', 'fifteenth', 'last'] as const;
export type MonthDay = (typeof MONTH_DAYS)[number];

/** What a report may hold: energy statistics, the faults raised, emergency tests. */
export const REPORT_CONTENTS = ['energy', 'faults', 'emergency'] as const;
export type ReportContent = (typeof REPORT_CONTENTS)[number];

export const RECIPIENT_LIMITS = {
  name: { min: 1, max: 50 },
  /** Recipients of one project (100301 past it). */
  perProject: 50,
  /**
   * A recipient gets at most one real-time fault mail per this many minutes; faults raised meanwhile go out
   * together when the time is up.
   */
  realtimeIntervalMinutes: 10,
  /** Faults one mail lists; the count by code covers all of them. */
  faultsListed: 200,
} as const;

const Unit = Type.Union([Type.Literal('year'), Type.Literal('month'), Type.Literal('week'), Type.Literal('day')], {
  description: 'How often: year (1 January), month (monthDay), week (weekday), day',
});
const MonthDaySchema = Type.Union([Type.Literal('first'), Type.Literal('fifteenth'), Type.Literal('last')], {
  description: 'Monthly reports: the 1st, the 15th or the last day of the month',
});
const Weekday = Type.Integer({ minimum: 1, maximum: 7, description: 'Weekly reports: 1 Monday ... 7 Sunday' });
const SendTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'Local time of day, HH:mm (24 h)' });
const TimeZone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone the send time is in (Asia/Tokyo); the web sends the browser\u2019s. 100302 when unknown',
});
const ContentSchema = Type.Union([Type.Literal('energy'), Type.Literal('faults'), Type.Literal('emergency')]);
const Contents = Type.Array(ContentSchema, {
  minItems: 1,
  maxItems: REPORT_CONTENTS.length,
  uniqueItems: true,
  description: 'At least one of energy, faults, emergency',
});
const Mail = Type.String({ maxLength: LIMITS.mail.max, pattern: MAIL_PATTERN, description: 'The e-mail address' });
const Name = Type.String({
  minLength: RECIPIENT_LIMITS.name.min,
  maxLength: RECIPIENT_LIMITS.name.max,
  description: '1-50 characters; leading and trailing spaces are dropped',
});

/** One recipient as report management lists it. */
export const RecipientSchema = Type.Object({
  id: IdSchema,
  projectId: IdSchema,
  name: Type.String(),
  mail: Type.String(),
  unit: Unit,
  /** Set for monthly reports, null otherwise. */
  monthDay: Nullable(MonthDaySchema, 'The day of a monthly report, or null'),
  /** Set for weekly reports, null otherwise. */
  weekday: Nullable(Weekday, 'The day of a weekly report, or null'),
  sendTime: Type.String({ description: 'HH:mm in timeZone' }),
  timeZone: Type.String(),
  contents: Type.Array(ContentSchema),
  /** The real-time failure alert switch (edit_switch). */
  realtimeFaults: Type.Boolean(),
  /** The language the mails are written in. */
  lang: LangSchema,
  nextSendAt: Type.String({ format: 'date-time', description: 'When the next report goes out' }),
  lastSentAt: Nullable(Type.String({ format: 'date-time' }), 'When the last report went out, or null'),
  /** Why the last report could not be sent (it is retried, then skipped), or null after a success. */
  lastError: Nullable(Type.String(), 'The last sending error, or null'),
});
export type Recipient = Static<typeof RecipientSchema>;

/** The fields a recipient is made of; `monthDay` and `weekday` are required by their unit (100303). */
const recipientFields = {
  name: Name,
  mail: Mail,
  unit: Unit,
  monthDay: Type.Optional(MonthDaySchema),
  weekday: Type.Optional(Weekday),
  sendTime: SendTime,
  timeZone: TimeZone,
  contents: Contents,
  realtimeFaults: Type.Optional(Type.Boolean({ default: false, description: 'Mail faults as they are raised' })),
  /** The mails' language; the caller's by default. */
  lang: Type.Optional(LangSchema),
};

/** POST project/v1/add_mail_rec. */
export const RecipientAddBodySchema = Type.Object({ projectId: IdSchema, ...recipientFields });
export type RecipientAddBody = Static<typeof RecipientAddBodySchema>;

/** POST project/v1/edit_mail_rec: every field again (the form sends the whole recipient); the project stays. */
export const RecipientEditBodySchema = Type.Object({ id: IdSchema, ...recipientFields });
export type RecipientEditBody = Static<typeof RecipientEditBodySchema>;

/** GET project/v1/get_all_mail_rec?projectId=. */
export const RecipientListQuerySchema = Type.Object({ projectId: IdSchema });
export type RecipientListQuery = Static<typeof RecipientListQuerySchema>;

/** GET project/v1/del_mail_rec?id=. */
export const RecipientIdQuerySchema = Type.Object({ id: IdSchema });
export type RecipientIdQuery = Static<typeof RecipientIdQuerySchema>;

/** GET project/v1/edit_switch/{id}/{on}: 1 switches real-time fault mails on, 0 off. */
export const RecipientSwitchParamsSchema = Type.Object({
  id: IdSchema,
  on: Type.Union([Type.Literal('0'), Type.Literal('1')], { description: '1 on, 0 off' }),
});
export type RecipientSwitchParams = Static<typeof RecipientSwitchParamsSchema>;

export const RecipientListSchema = Type.Array(RecipientSchema);
export type RecipientList = Static<typeof RecipientListSchema>;
