import type { EmergencyFailure, EmergencySchedule, EmergencyStagger } from '@lumigrid/contract';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, linkTable, mayReferTo, refersTo, timestamps, unreferencedId } from './columns.ts';
import { devices } from './devices.ts';
import { gateways } from './gateways.ts';
import { buildings, maps, projects } from './projects.ts';
import { tenantRowKeys } from './tenant-columns.ts';

/**
 * Emergency test tasks (spec section 3): the lights of one gateway, a test kind and duration, and an optional
 * recurrence. Only the emergency repo queries the emergency tables (docs/decisions.md, "Emergency testing").
 */
export const emergencyTasks = pgTable(
  'emergency_tasks',
  {
    ...tenantRowKeys(),
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    buildId: refersTo('build_id', () => buildings.id, 'cascade'),
    mapId: refersTo('map_id', () => maps.id, 'cascade'),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    name: text('name').notNull(),
    /** function or life. */
    test: text('test').$type<'function' | 'life'>().notNull(),
    /** Seconds (function) or minutes (life), as the spec's ranges count. */
    duration: integer('duration').notNull(),
    batteryCells: smallint('battery_cells').notNull(),
    lightType: text('light_type').$type<'maintained' | 'non-maintained'>().notNull(),
    allowWhileCharging: boolean('allow_while_charging').notNull().default(false),
    schedule: jsonb('schedule').$type<EmergencySchedule>().notNull(),
    stagger: jsonb('stagger').$type<EmergencyStagger>().notNull(),
    /** The occurrence the recurrence's job is queued for; a job for another one is stale. */
    nextRunAt: instant('next_run_at'),
    ...timestamps(),
  },
  (t) => [
    // Spec section 8, 340001: task names are unique in the account.
    uniqueIndex('emergency_tasks_tenant_name_key').on(t.tenantId, t.name),
    index('emergency_tasks_tenant_project_idx').on(t.tenantId, t.projectId),
  ],
);

/** The lights of a task (the transfer list's right-hand side). */
export const emergencyTaskDevices = linkTable(
  'emergency_task_devices',
  { key: 'taskId', column: 'task_id', target: () => emergencyTasks.id },
  { key: 'deviceId', column: 'device_id', target: () => devices.id },
);

/**
 * One execution of a task, kept when the task is deleted (names are copied in). Split into waves by the stagger;
 * `currentWave` is the wave running or waiting to start.
 */
export const emergencyRuns = pgTable(
  'emergency_runs',
  {
    ...tenantRowKeys(),
    taskId: mayReferTo('task_id', () => emergencyTasks.id, 'set null'),
    /** Where the task was when the run started; no foreign keys, so the history outlives the places. */
    projectId: unreferencedId('project_id').notNull(),
    mapId: unreferencedId('map_id').notNull(),
    gatewayId: unreferencedId('gateway_id').notNull(),
    taskName: text('task_name').notNull(),
    projectName: text('project_name').notNull(),
    buildName: text('build_name').notNull().default(''),
    mapName: text('map_name').notNull(),
    gatewayName: text('gateway_name').notNull(),
    test: text('test').$type<'function' | 'life'>().notNull(),
    duration: integer('duration').notNull(),
    /** The duration on the wire, seconds. */
    durationS: integer('duration_s').notNull(),
    batteryCells: smallint('battery_cells').notNull(),
    allowWhileCharging: boolean('allow_while_charging').notNull(),
    trigger: text('trigger').$type<'manual' | 'schedule'>().notNull(),
    /** Who started it by hand, as named then ('' when its recurrence did); the user, while the account exists. */
    startedBy: text('started_by').notNull().default(''),
    startedByUserId: unreferencedId('started_by_user_id'),
    /** Who stopped it by hand ('' unless stopped). */
    stoppedBy: text('stopped_by').notNull().default(''),
    stoppedByUserId: unreferencedId('stopped_by_user_id'),
    state: text('state').$type<'running' | 'finished' | 'stopped'>().notNull(),
    result: text('result').$type<'pass' | 'failed' | 'stopped'>(),
    waves: integer('waves').notNull(),
    currentWave: integer('current_wave').notNull(),
    /** When the waiting wave starts; null while a wave runs or once ended. */
    nextWaveAt: instant('next_wave_at'),
    startedAt: instant('started_at').notNull(),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    index('emergency_runs_tenant_started_idx').on(t.tenantId, t.startedAt),
    index('emergency_runs_task_idx').on(t.taskId, t.startedAt),
    index('emergency_runs_gateway_idx').on(t.gatewayId, t.state),
  ],
);

/** One light's outcome in one run (spec section 3 per-device details). */
export const emergencyRecords = pgTable(
  'emergency_records',
  {
    ...tenantRowKeys(),
    runId: refersTo('run_id', () => emergencyRuns.id, 'cascade'),
    deviceId: mayReferTo('device_id', () => devices.id, 'set null'),
    gatewayId: unreferencedId('gateway_id').notNull(),
    addr: text('addr').notNull(),
    deviceName: text('device_name').notNull(),
    test: text('test').$type<'function' | 'life'>().notNull(),
    wave: integer('wave').notNull(),
    state: smallint('state'),
    result: smallint('result'),
    passed: boolean('passed'),
    progress: smallint('progress'),
    failures: jsonb('failures').$type<EmergencyFailure[]>().notNull().default([]),
    faultCode: smallint('fault_code'),
    voltageBefore: doublePrecision('voltage_before'),
    voltageAfter: doublePrecision('voltage_after'),
    durationS: doublePrecision('duration_s'),
    batteryVoltage: doublePrecision('battery_voltage'),
    batteryCurrent: doublePrecision('battery_current'),
    batteryTemperature: doublePrecision('battery_temperature'),
    batteryCells: smallint('battery_cells'),
    powerW: doublePrecision('power_w'),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    index('emergency_records_run_idx').on(t.runId, t.wave),
    index('emergency_records_device_idx').on(t.deviceId, t.startedAt),
    // Events find the light's open record by gateway and address.
    index('emergency_records_gateway_addr_idx').on(t.gatewayId, t.addr, t.finishedAt),
  ],
);

/**
 * A project's (site's) emergency log book: every test, failure, repair and acknowledgement, appended in order
 * (`seq` per project) and never changed: a trigger refuses UPDATE, and DELETE unless the account itself is gone
 * (migration emergency_log_book_append_only). No foreign keys but the account, so a deleted task, light or run
 * leaves its entries as they were written.
 */
export const emergencyLogBook = pgTable(
  'emergency_log_book',
  {
    ...tenantRowKeys(),
    projectId: unreferencedId('project_id').notNull(),
    seq: integer('seq').notNull(),
    at: instant('at').notNull(),
    type: text('type').$type<'test' | 'failure' | 'repair' | 'acknowledgement'>().notNull(),
    deviceId: unreferencedId('device_id'),
    deviceName: text('device_name').notNull().default(''),
    addr: text('addr').notNull().default(''),
    buildName: text('build_name').notNull().default(''),
    mapName: text('map_name').notNull().default(''),
    taskName: text('task_name').notNull().default(''),
    runId: unreferencedId('run_id'),
    test: text('test').$type<'function' | 'life'>(),
    /** A test's or failure's run: started by hand or by its recurrence, and who started or stopped it by hand. */
    trigger: text('trigger').$type<'manual' | 'schedule'>(),
    startedBy: text('started_by').notNull().default(''),
    stoppedBy: text('stopped_by').notNull().default(''),
    /** How long the light ran on battery, and how long the test asked for (EN 50172: duration against rated). */
    durationS: doublePrecision('duration_s'),
    ratedDurationS: integer('rated_duration_s'),
    result: text('result').$type<'pass' | 'failed' | 'stopped'>(),
    faultCode: smallint('fault_code'),
    failures: jsonb('failures').$type<EmergencyFailure[]>().notNull().default([]),
    note: text('note').notNull().default(''),
    by: text('by').notNull().default(''),
    byUserId: unreferencedId('by_user_id'),
    /** An acknowledgement's failure entry. */
    refId: unreferencedId('ref_id'),
  },
  (t) => [
    uniqueIndex('emergency_log_book_project_seq_key').on(t.projectId, t.seq),
    index('emergency_log_book_tenant_project_idx').on(t.tenantId, t.projectId, t.at),
    // One acknowledgement per failure.
    uniqueIndex('emergency_log_book_ack_key').on(t.refId),
  ],
);
