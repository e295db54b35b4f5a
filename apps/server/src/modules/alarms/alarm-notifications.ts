import { FAULT_TEXT, type AlarmRuleStep, type AlarmSeverity, type AlarmState, type Lang } from '@lumigrid/contract';

/** A notification rule as the planner reads it. */
export interface PlannedRule {
  id: bigint;
  severities: readonly AlarmSeverity[];
  steps: readonly AlarmRuleStep[];
}

/** An alarm as the planner reads it: whom to mail counts from `attentionSince`, round by round. */
export interface AttentionOf {
  id: bigint;
  severity: AlarmSeverity;
  attentionRound: number;
  attentionSince: Date;
}

/** One mail of one rule step for one round of an alarm: its job key makes it go once, however often planned. */
export interface PlannedMail {
  key: string;
  runAt: Date;
  ruleId: bigint;
  step: number;
  round: number;
}

export const ALARM_MAIL_JOB = 'alarm-mail';

/** The job key of a rule step: the jobs table schedules a kind and key once, so each step mails once. */
export function alarmMailKey(alarmId: bigint, round: number, ruleId: bigint, step: number): string {
  return `alarm:${alarmId}/round:${round}/rule:${ruleId}/step:${step}`;
}

/** Every step of every rule that takes the alarm's severity, at its time after the alarm began to need attention. */
export function notificationPlan(alarm: AttentionOf, rules: readonly PlannedRule[]): PlannedMail[] {
  const planned: PlannedMail[] = [];
  for (const rule of rules) {
    if (!rule.severities.includes(alarm.severity)) continue;
    rule.steps.forEach((step, index) => {
      planned.push({
        key: alarmMailKey(alarm.id, alarm.attentionRound, rule.id, index),
        runAt: new Date(alarm.attentionSince.getTime() + step.afterMinutes * 60_000),
        ruleId: rule.id,
        step: index,
        round: alarm.attentionRound,
      });
    });
  }
  return planned;
}

/**
 * Whether a planned mail still goes when its time comes: only while the alarm is active and unacknowledged,
 * not shelved, and in the round it was planned for (a shelving in between started a new round).
 */
export function mailStillDue(
  alarm: { state: AlarmState; shelvedUntil: Date | null; attentionRound: number },
  mail: { round: number },
  now: Date,
): boolean {
  if (alarm.state !== 'activeUnacked') return false;
  if (alarm.shelvedUntil !== null && alarm.shelvedUntil.getTime() > now.getTime()) return false;
  return alarm.attentionRound === mail.round;
}

const SEVERITY_TEXT: Record<AlarmSeverity, Record<Lang, string>> = {
  critical: { en: 'Critical', cn: '紧急', tc: '緊急', ja: '緊急' },
  high: { en: 'High', cn: '高', tc: '高', ja: '高' },
  medium: { en: 'Medium', cn: '中', tc: '中', ja: '中' },
  low: { en: 'Low', cn: '低', tc: '低', ja: '低' },
};

const MAIL_TEXT: Record<Lang, { subject: string; body: string; chattering: string }> = {
  en: {
    subject: '[{severity}] Alarm unacknowledged: {name}, {fault}',
    body: '{name} on {gateway}: {fault}, raised {raisedAt} and not acknowledged yet.',
    chattering: 'The fault keeps coming and going (raised {count} times).',
  },
  cn: {
    subject: '[{severity}] 未确认告警：{name}，{fault}',
    body: '{gateway} 上的 {name}：{fault}，发生于 {raisedAt}，尚未确认。',
    chattering: '该故障反复出现（已发生 {count} 次）。',
  },
  tc: {
    subject: '[{severity}] 未確認告警：{name}，{fault}',
    body: '{gateway} 上的 {name}：{fault}，發生於 {raisedAt}，尚未確認。',
    chattering: '該故障反覆出現（已發生 {count} 次）。',
  },
  ja: {
    subject: '[{severity}] 未確認のアラーム：{name}、{fault}',
    body: '{gateway} の {name}：{fault}（{raisedAt} 発生）はまだ確認されていません。',
    chattering: 'この故障は発生と復旧を繰り返しています（{count} 回発生）。',
  },
};

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

/** The mail of one rule step, in the rule's language. */
export function alarmMail(
  alarm: {
    name: string;
    gatewayName: string;
    code: number;
    severity: AlarmSeverity;
    raisedAt: Date;
    chattering: boolean;
    raiseCount: number;
  },
  lang: Lang,
): { subject: string; body: string } {
  const text = MAIL_TEXT[lang];
  const values = {
    severity: SEVERITY_TEXT[alarm.severity][lang],
    name: alarm.name,
    gateway: alarm.gatewayName,
    fault: FAULT_TEXT[alarm.code]?.[lang] ?? String(alarm.code),
    raisedAt: alarm.raisedAt.toISOString(),
    count: String(alarm.raiseCount),
  };
  const body = fill(text.body, values) + (alarm.chattering ? `\n${fill(text.chattering, values)}` : '');
  return { subject: fill(text.subject, values), body };
}
