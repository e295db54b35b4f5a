import type { SceneAction, SceneTrigger } from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, keyedBy, mayReferTo, refersTo, timestamps } from './columns.ts';
import { devices } from './devices.ts';
import { gateways } from './gateways.ts';
import { groups } from './groups.ts';
import { projects } from './projects.ts';
import { tenantColumn, tenantRowKeys } from './tenant-columns.ts';

/**
 * Scenes of a project (docs/decisions.md, "Scenes run on the gateways"). The rules of a timed scene live here;
 * its members live in scene_members, and what each gateway runs in scene_parts.
 */
export const scenes = pgTable(
  'scenes',
  {
    ...tenantRowKeys(),
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    name: text('name').notNull(),
    /** SCENE_KINDS of the contract. */
    kind: text('kind').notNull(),
    /** File name of its picture in the scenes image store, or null. */
    image: text('image'),
    fadeS: integer('fade_s').notNull().default(0),
    /** Hold after each step, seconds, one per step (a sequence has several steps, every other kind one). */
    holds: jsonb('holds').$type<number[]>().notNull(),
    triggers: jsonb('triggers').$type<SceneTrigger[]>().notNull(),
    days: jsonb('days').$type<number[]>().notNull(),
    fromDate: text('from_date'),
    toDate: text('to_date'),
    skipHolidays: boolean('skip_holidays').notNull().default(false),
    daliScene: smallint('dali_scene'),
    sequenceNo: smallint('sequence_no'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('scenes_project_name_key').on(t.projectId, t.name), index('scenes_tenant_project_idx').on(t.tenantId, t.projectId)],
);

/** One member of one step: a device or a group, and what it does. Deleting the device or group removes it. */
export const sceneMembers = pgTable(
  'scene_members',
  {
    sceneId: refersTo('scene_id', () => scenes.id, 'cascade'),
    step: smallint('step').notNull(),
    /** Order within the step, as the user listed it. */
    position: smallint('position').notNull(),
    deviceId: mayReferTo('device_id', () => devices.id, 'cascade'),
    groupId: mayReferTo('group_id', () => groups.id, 'cascade'),
    action: jsonb('action').$type<SceneAction>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sceneId, t.step, t.position] }),
    index('scene_members_device_idx').on(t.deviceId),
    index('scene_members_group_idx').on(t.groupId),
    check('scene_members_one_target', sql`(${t.deviceId} IS NULL) <> (${t.groupId} IS NULL)`),
  ],
);

/**
 * A scene's part on one gateway. `number` is gateway-local (the gateway's scenes 2n-1 start and 2n end);
 * `version` is the gateway's configuration version that first carried the part as it is now.
 */
export const sceneParts = pgTable(
  'scene_parts',
  {
    ...tenantRowKeys(),
    sceneId: refersTo('scene_id', () => scenes.id, 'cascade'),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    number: integer('number').notNull(),
    version: integer('version').notNull().default(0),
  },
  (t) => [
    uniqueIndex('scene_parts_gateway_number_key').on(t.gatewayId, t.number),
    uniqueIndex('scene_parts_scene_gateway_key').on(t.sceneId, t.gatewayId),
  ],
);

/**
 * Each gateway's outcome of each run: manual runs (one run key for all gateways) and the runs gateways
 * started and reported. The unique index makes a redelivered report a no-op.
 */
export const sceneRuns = pgTable(
  'scene_runs',
  {
    ...tenantRowKeys(),
    sceneId: refersTo('scene_id', () => scenes.id, 'cascade'),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    /** The parts of one run share it: a manual run's id, or trigger, start/end and time of a gateway's run. */
    runKey: text('run_key').notNull(),
    trigger: text('trigger').notNull(),
    then: text('then').notNull(),
    code: integer('code').notNull(),
    targets: integer('targets').notNull(),
    failed: integer('failed').notNull(),
    ranAt: instant('ran_at').notNull(),
  },
  (t) => [
    uniqueIndex('scene_runs_gateway_key').on(t.sceneId, t.gatewayId, t.runKey),
    index('scene_runs_scene_time_idx').on(t.sceneId, t.ranAt),
  ],
);

/** Scene panel keys bound to scenes (input_scene). */
export const scenePanelKeys = pgTable(
  'scene_panel_keys',
  {
    panelId: refersTo('panel_id', () => devices.id, 'cascade'),
    key: smallint('key').notNull(),
    sceneId: refersTo('scene_id', () => scenes.id, 'cascade'),
  },
  (t) => [primaryKey({ columns: [t.panelId, t.key] }), index('scene_panel_keys_scene_idx').on(t.sceneId)],
);

/** A project's holidays, for the holiday filter of its timed scenes. */
export const projectHolidays = pgTable(
  'project_holidays',
  {
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    date: text('date').notNull(),
    name: text('name').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.date] })],
);

/** A project's scene settings: minutes a manual override lasts (0: until the next scheduled event). */
export const projectSceneSettings = pgTable('project_scene_settings', {
  projectId: keyedBy('project_id', () => projects.id),
  overrideMin: integer('override_min').notNull().default(0),
});

/**
 * Sensor linkage: a motion or daylight sensor drives a group of its gateway (one linkage per sensor).
 * `version` is the gateway's configuration version that first carried it as it is now.
 */
export const sensorLinkages = pgTable(
  'sensor_linkages',
  {
    sensorId: keyedBy('sensor_id', () => devices.id),
    tenantId: tenantColumn(),
    groupId: refersTo('group_id', () => groups.id, 'cascade'),
    onDetectPercent: smallint('on_detect_percent').notNull(),
    onClearPercent: smallint('on_clear_percent').notNull(),
    holdS: integer('hold_s').notNull(),
    lux: integer('lux'),
    version: integer('version').notNull().default(0),
  },
  (t) => [index('sensor_linkages_group_idx').on(t.groupId)],
);
