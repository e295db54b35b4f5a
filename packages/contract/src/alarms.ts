import { Type, type Static } from 'typebox';
import { IdSchema, LangSchema, Nullable, PageOf, pageFields } from './common.ts';
import { LIMITS } from './limits.ts';
import { MAIL_PATTERN } from './validation.ts';

/**
 * Alarm management over the fault list, after ISA-18.2 / IEC 62682 (docs/alarms.md). A fault (an alert) is
 * what a gateway says; an alarm is what an operator must act on: raised only when a fault lasts its code's
 * on-delay, cleared only when it stays away for the off-delay, one "chattering" alarm for a fault that comes
 * and goes, acknowledged apart from clearing, shelvable for a while with a reason, and mailed by rules.
 */

export const ALARM_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** The alarm states of ISA-18.2; `normal` is an alarm that is over (cleared and acknowledged). */
export const ALARM_STATES = ['activeUnacked', 'activeAcked', 'clearedUnacked', 'normal'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** The fault codes of spec section 4 that alarms are kept for (1-9). */
export const ALARM_CODES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

export const ALARM_LIMITS = {
  delaySec: { max: 3600 },
  chatterCount: { min: 2, max: 50 },
  chatterWindowSec: { min: 60, max: 86_400 },
  /** Shelving is always for a while (ISA-18.2): at most a week. */
  shelveMinutes: { min: 1, max: 7 * 24 * 60 },
  reason: { max: 200 },
  note: { max: 500 },
  rules: { max: 20 },
  steps: { max: 5 },
  mails: { max: 10 },
  afterMinutes: { max: 7 * 24 * 60 },
  ruleName: { max: 50 },
  batch: { max: 200 },
} as const;

const Severity = Type.Unsafe<AlarmSeverity>({ type: 'string', enum: [...ALARM_SEVERITIES], description: 'critical, high, medium or low' });
const State = Type.Unsafe<AlarmState>({
  type: 'string',
  enum: [...ALARM_STATES],
  description: 'activeUnacked, activeAcked, clearedUnacked or normal',
});
const Code = Type.Integer({ minimum: 1, maximum: 9, description: 'Fault code of spec section 4' });

/** How one fault code becomes an alarm in a project. */
export const AlarmCodeSettingSchema = Type.Object({
  code: Code,
  severity: Severity,
  /** The fault must last this long before it is an alarm (0: at once). */
  onDelaySec: Type.Integer({ minimum: 0, maximum: ALARM_LIMITS.delaySec.max }),
  /** The fault must stay away this long before the alarm clears (0: at once). */
  offDelaySec: Type.Integer({ minimum: 0, maximum: ALARM_LIMITS.delaySec.max }),
  /** This many raises within the window make the fault one chattering alarm. */
  chatterCount: Type.Integer({ minimum: ALARM_LIMITS.chatterCount.min, maximum: ALARM_LIMITS.chatterCount.max }),
  chatterWindowSec: Type.Integer({ minimum: ALARM_LIMITS.chatterWindowSec.min, maximum: ALARM_LIMITS.chatterWindowSec.max }),
});
export type AlarmCodeSetting = Static<typeof AlarmCodeSettingSchema>;

const FIFTEEN_MINUTES = 15 * 60;
/**
 * What a project starts with. Offline has waited out its grace period (60 s) before it is a fault, so it needs
 * no on-delay of its own; sensors flicker, so they wait a minute; an emergency light that cannot run is critical.
 */
export const DEFAULT_ALARM_SETTINGS: readonly AlarmCodeSetting[] = [
  { code: 1, severity: 'high', onDelaySec: 10, offDelaySec: 30, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 2, severity: 'medium', onDelaySec: 0, offDelaySec: 30, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 3, severity: 'low', onDelaySec: 60, offDelaySec: 60, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 4, severity: 'low', onDelaySec: 60, offDelaySec: 60, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 5, severity: 'low', onDelaySec: 60, offDelaySec: 60, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 6, severity: 'critical', onDelaySec: 0, offDelaySec: 60, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 7, severity: 'high', onDelaySec: 30, offDelaySec: 60, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 8, severity: 'high', onDelaySec: 10, offDelaySec: 30, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
  { code: 9, severity: 'critical', onDelaySec: 0, offDelaySec: 60, chatterCount: 3, chatterWindowSec: FIFTEEN_MINUTES },
];

const Mail = Type.String({ maxLength: LIMITS.mail.max, pattern: MAIL_PATTERN, description: 'An e-mail address' });

/** One step of a notification rule: mailed once when the alarm has gone unacknowledged this long. */
export const AlarmRuleStepSchema = Type.Object({
  afterMinutes: Type.Integer({ minimum: 0, maximum: ALARM_LIMITS.afterMinutes.max }),
  mails: Type.Array(Mail, { minItems: 1, maxItems: ALARM_LIMITS.mails.max }),
});
export type AlarmRuleStep = Static<typeof AlarmRuleStepSchema>;

/**
 * Who is mailed about alarms of which severities. Steps run in order of their time: a later step to the same
 * people repeats the mail, one to others escalates it. Acknowledging (or shelving) the alarm stops the rest.
 */
export const AlarmRuleSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: ALARM_LIMITS.ruleName.max }),
  severities: Type.Array(Severity, { minItems: 1, maxItems: ALARM_SEVERITIES.length, uniqueItems: true }),
  steps: Type.Array(AlarmRuleStepSchema, { minItems: 1, maxItems: ALARM_LIMITS.steps.max }),
  /** The mails' language. */
  lang: LangSchema,
});
export type AlarmRule = Static<typeof AlarmRuleSchema>;

/** A project's alarm settings: one entry per fault code, and its notification rules in order. */
export const AlarmSettingsSchema = Type.Object({
  projectId: IdSchema,
  codes: Type.Array(AlarmCodeSettingSchema, { maxItems: ALARM_CODES.length }),
  rules: Type.Array(AlarmRuleSchema, { maxItems: ALARM_LIMITS.rules.max }),
});
export type AlarmSettings = Static<typeof AlarmSettingsSchema>;

export const AlarmSettingsQuerySchema = Type.Object({ projectId: IdSchema });
export type AlarmSettingsQuery = Static<typeof AlarmSettingsQuerySchema>;

/** One alarm as the alarm list shows it. */
export const AlarmSchema = Type.Object({
  id: IdSchema,
  code: Code,
  severity: Severity,
  state: State,
  /** The fault came and went chatterCount times within the window: one alarm stands for all of them. */
  chattering: Type.Boolean(),
  /** How often the fault was raised while this alarm stood. */
  raiseCount: Type.Integer({ minimum: 1 }),
  deviceId: Nullable(IdSchema, 'The device, or null for a gateway alarm'),
  name: Type.String(),
  gatewayId: Nullable(IdSchema, 'The gateway, or null when it is gone'),
  gatewayName: Type.String(),
  projectId: Nullable(IdSchema, 'Where it stands, or null'),
  mapId: Nullable(IdSchema, 'Where it stands, or null'),
  raisedAt: Type.String({ format: 'date-time' }),
  clearedAt: Nullable(Type.String({ format: 'date-time' }), 'When it last cleared, or null while active'),
  ackedAt: Nullable(Type.String({ format: 'date-time' }), 'When it was acknowledged, or null'),
  ackedBy: Nullable(Type.String(), 'Who acknowledged it, or null'),
  shelvedUntil: Nullable(Type.String({ format: 'date-time' }), 'Shelved until then, or null'),
  shelvedReason: Nullable(Type.String(), 'Why it was shelved, or null'),
  shelvedBy: Nullable(Type.String(), 'Who shelved it, or null'),
});
export type Alarm = Static<typeof AlarmSchema>;

/** POST alarm/v1/page: the alarms of the account the caller sees, newest first. */
export const AlarmListBodySchema = Type.Object({
  projectId: Type.Optional(IdSchema),
  /** Alarms that are not over (every state but normal) by default. */
  states: Type.Optional(Type.Array(State, { minItems: 1, maxItems: ALARM_STATES.length, uniqueItems: true })),
  severity: Type.Optional(Severity),
  /** Only shelved (true) or only unshelved (false) alarms. */
  shelved: Type.Optional(Type.Boolean()),
  ...pageFields,
});
export type AlarmListBody = Static<typeof AlarmListBodySchema>;

export const AlarmPageSchema = PageOf(AlarmSchema);
export type AlarmPage = Static<typeof AlarmPageSchema>;

const SeverityCounts = Type.Object({
  critical: Type.Integer({ minimum: 0 }),
  high: Type.Integer({ minimum: 0 }),
  medium: Type.Integer({ minimum: 0 }),
  low: Type.Integer({ minimum: 0 }),
});

/** The banner: unacknowledged, unshelved alarms by severity, and how many are shelved. */
export const AlarmSummarySchema = Type.Object({
  unacked: SeverityCounts,
  shelved: Type.Integer({ minimum: 0 }),
});
export type AlarmSummary = Static<typeof AlarmSummarySchema>;

const AlarmIds = Type.Array(IdSchema, { minItems: 1, maxItems: ALARM_LIMITS.batch.max });

export const AlarmAckBodySchema = Type.Object({ ids: AlarmIds });
export type AlarmAckBody = Static<typeof AlarmAckBodySchema>;

export const AlarmShelveBodySchema = Type.Object({
  ids: AlarmIds,
  minutes: Type.Integer({ minimum: ALARM_LIMITS.shelveMinutes.min, maximum: ALARM_LIMITS.shelveMinutes.max }),
  reason: Type.String({ minLength: 1, maxLength: ALARM_LIMITS.reason.max, pattern: '\\S' }),
});
export type AlarmShelveBody = Static<typeof AlarmShelveBodySchema>;

export const AlarmUnshelveBodySchema = Type.Object({ ids: AlarmIds });
export type AlarmUnshelveBody = Static<typeof AlarmUnshelveBodySchema>;

export const AlarmCountSchema = Type.Object({ count: Type.Integer({ minimum: 0 }) });
export type AlarmCount = Static<typeof AlarmCountSchema>;

/** A message on /topic/alarms/{userId}: the account's alarms changed; the banner reads its summary again. */
export const AlarmsChangedNoticeSchema = Type.Object({ userId: IdSchema });
export type AlarmsChangedNotice = Static<typeof AlarmsChangedNoticeSchema>;

/** The settings a project has before anyone changed them, or with codes it never set filled in. */
export function withDefaultCodes(codes: readonly AlarmCodeSetting[]): AlarmCodeSetting[] {
  const byCode = new Map(codes.map((c) => [c.code, c]));
  return DEFAULT_ALARM_SETTINGS.map((d) => byCode.get(d.code) ?? d);
}
