import { FAULT_TEXT, type AlarmRuleStep, type AlarmSeverity, type AlarmState, type Lang } from '@lumigrid/contract';
import { fillText, serverTexts } from '../../i18n/server-texts.ts';

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
  const text = serverTexts(lang).alarmMail;
  const values = {
    severity: text.severity[alarm.severity],
    name: alarm.name,
    gateway: alarm.gatewayName,
    fault: FAULT_TEXT[alarm.code]?.[lang] ?? String(alarm.code),
    raisedAt: alarm.raisedAt.toISOString(),
    count: String(alarm.raiseCount),
  };
  const body = fillText(text.body, values) + (alarm.chattering ? `\n${fillText(text.chattering, values)}` : '');
  return { subject: fillText(text.subject, values), body };
}
