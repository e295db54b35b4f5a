import type { AlarmRuleStep, AlarmSeverity, AlarmState, Lang } from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, refersTo, unreferencedId } from './columns.ts';
import { faultSource } from './alerts.ts';
import { projects } from './projects.ts';
import { tenantColumn, tenantRowKeys } from './tenant-columns.ts';

/**
 * Alarms (docs/alarms.md): what operators act on, made from faults by the alarm engine. A fault source (a
 * gateway, a device address on it, a code) has at most one alarm that is not over (the partial unique
 * index); a chattering fault stays one alarm however often it comes back. Names and places are kept as they
 * were when it was raised, as alerts keep theirs.
 */
export const alarms = pgTable(
  'alarms',
  {
    ...tenantRowKeys(),
    ...faultSource(),
    severity: text('severity').$type<AlarmSeverity>().notNull(),
    state: text('state').$type<AlarmState>().notNull(),
    chattering: boolean('chattering').notNull().default(false),
    raiseCount: integer('raise_count').notNull().default(1),
    name: text('name').notNull(),
    gatewayName: text('gateway_name').notNull(),
    projectId: unreferencedId('project_id'),
    mapId: unreferencedId('map_id'),
    raisedAt: instant('raised_at').notNull(),
    clearedAt: instant('cleared_at'),
    ackedAt: instant('acked_at'),
    ackedByName: text('acked_by_name'),
    shelvedUntil: instant('shelved_until'),
    shelvedReason: text('shelved_reason'),
    shelvedByName: text('shelved_by_name'),
    /** Counts the times the alarm came back from shelving: each time its notification rules start again. */
    attentionRound: integer('attention_round').notNull().default(0),
    /** When the current round of notifications started (raised, or unshelved). */
    attentionSince: instant('attention_since').notNull(),
  },
  (t) => [
    uniqueIndex('alarms_standing_key')
      .on(t.gatewayId, t.addr, t.code)
      .where(sql`${t.state} <> 'normal'`),
    index('alarms_tenant_state_idx').on(t.tenantId, t.state, t.raisedAt),
  ],
);

/** A project's choice for one fault code; codes without a row follow DEFAULT_ALARM_SETTINGS. */
export const alarmCodeSettings = pgTable(
  'alarm_code_settings',
  {
    tenantId: tenantColumn(),
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    code: smallint('code').notNull(),
    severity: text('severity').$type<AlarmSeverity>().notNull(),
    onDelaySec: integer('on_delay_sec').notNull(),
    offDelaySec: integer('off_delay_sec').notNull(),
    chatterCount: integer('chatter_count').notNull(),
    chatterWindowSec: integer('chatter_window_sec').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.code] })],
);

/** A project's notification rules, in order. */
export const alarmRules = pgTable(
  'alarm_rules',
  {
    ...tenantRowKeys(),
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    severities: jsonb('severities').$type<AlarmSeverity[]>().notNull(),
    steps: jsonb('steps').$type<AlarmRuleStep[]>().notNull(),
    lang: text('lang').$type<Lang>().notNull(),
  },
  (t) => [index('alarm_rules_project_idx').on(t.projectId, t.position)],
);
