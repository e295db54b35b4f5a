import { describe, expect, it } from 'vitest';
import { alarmMail, mailStillDue, notificationPlan, type PlannedRule } from './alarm-notifications.ts';

const RAISED = new Date('2026-11-23T08:00:00Z');
const rules: PlannedRule[] = [
  {
    id: 7n,
    severities: ['critical', 'high'],
    steps: [
      { afterMinutes: 0, mails: ['ops@example.com'] },
      { afterMinutes: 15, mails: ['ops@example.com'] },
      { afterMinutes: 30, mails: ['boss@example.com'] },
    ],
  },
  { id: 8n, severities: ['low'], steps: [{ afterMinutes: 60, mails: ['daily@example.com'] }] },
];

describe('notification planning', () => {
  it('plans each step of each rule taking the severity, at its time after attention began', () => {
    const plan = notificationPlan({ id: 42n, severity: 'high', attentionRound: 0, attentionSince: RAISED }, rules);
    expect(plan.map((p) => [p.ruleId, p.step, p.runAt.toISOString()])).toEqual([
      [7n, 0, '2026-11-23T08:00:00.000Z'],
      [7n, 1, '2026-11-23T08:15:00.000Z'],
      [7n, 2, '2026-11-23T08:30:00.000Z'],
    ]);
  });

  it('gives each step of a round one key, so planning twice plans the same mails', () => {
    const alarm = { id: 42n, severity: 'high' as const, attentionRound: 0, attentionSince: RAISED };
    const keys = notificationPlan(alarm, rules).map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(notificationPlan(alarm, rules).map((p) => p.key)).toEqual(keys);
    const nextRound = notificationPlan({ ...alarm, attentionRound: 1, attentionSince: new Date(RAISED.getTime() + 3_600_000) }, rules);
    expect(nextRound.map((p) => p.key).filter((k) => keys.includes(k))).toEqual([]);
  });

  it('plans nothing for a severity no rule takes', () => {
    expect(notificationPlan({ id: 1n, severity: 'medium', attentionRound: 0, attentionSince: RAISED }, rules)).toEqual([]);
  });

  it('sends only while the alarm is active, unacknowledged, unshelved and in the round planned', () => {
    const now = new Date(RAISED.getTime() + 60_000);
    const standing = { state: 'activeUnacked' as const, shelvedUntil: null, attentionRound: 0 };
    expect(mailStillDue(standing, { round: 0 }, now)).toBe(true);
    expect(mailStillDue({ ...standing, state: 'activeAcked' }, { round: 0 }, now)).toBe(false);
    expect(mailStillDue({ ...standing, state: 'clearedUnacked' }, { round: 0 }, now)).toBe(false);
    expect(mailStillDue({ ...standing, shelvedUntil: new Date(now.getTime() + 1) }, { round: 0 }, now)).toBe(false);
    expect(mailStillDue({ ...standing, shelvedUntil: now }, { round: 0 }, now)).toBe(true);
    expect(mailStillDue({ ...standing, attentionRound: 1 }, { round: 0 }, now)).toBe(false);
  });

  it('writes the mail in the rule\u2019s language, telling of chattering', () => {
    const alarm = {
      name: 'Exit 3',
      gatewayName: 'Plant',
      code: 2,
      severity: 'critical' as const,
      raisedAt: RAISED,
      chattering: true,
      raiseCount: 5,
    };
    expect(alarmMail(alarm, 'en')).toEqual({
      subject: '[Critical] Alarm unacknowledged: Exit 3, Offline',
      body: 'Exit 3 on Plant: Offline, raised 2026-11-23T08:00:00.000Z and not acknowledged yet.\nThe fault keeps coming and going (raised 5 times).',
    });
    expect(alarmMail(alarm, 'ja').subject).toBe('[緊急] 未確認のアラーム：Exit 3、オフライン');
  });
});
