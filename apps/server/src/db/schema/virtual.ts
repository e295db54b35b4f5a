import type { DeviceParams, ParamClass, SceneAction } from '@lumigrid/contract';
import {
  type AnyPgColumn,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { instant, linkTable, mayReferTo, refersTo, timestamps } from './columns.ts';
import { devices } from './devices.ts';
import { gateways } from './gateways.ts';
import { groups } from './groups.ts';
import { maps } from './projects.ts';
import { scenes } from './scenes.ts';
import { tenantRowKeys } from './tenant-columns.ts';

/**
 * Parameter templates: named parameter sets of one device type and one class (functional or interface),
 * owned by the account (docs/decisions.md, "Templates and virtual devices").
 */
export const paramTemplates = pgTable(
  'param_templates',
  {
    ...tenantRowKeys(),
    name: text('name').notNull(),
    /** PARAM_CLASSES of the contract. */
    kind: text('kind').$type<ParamClass>().notNull(),
    deviceType: integer('device_type').notNull(),
    params: jsonb('params').$type<DeviceParams>().notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('param_templates_tenant_kind_name_key').on(t.tenantId, t.kind, t.name)],
);

/**
 * The template a real device last took, one per class: set by apply and by a relation. It makes a template
 * "linked" (260022 on delete); deleting the device lets it go.
 */
export const deviceParamTemplates = pgTable(
  'device_param_templates',
  {
    deviceId: refersTo('device_id', () => devices.id, 'cascade'),
    kind: text('kind').$type<ParamClass>().notNull(),
    // NO ACTION: a linked template cannot go (260022); an account's deletion removes both in one statement.
    templateId: refersTo('template_id', () => paramTemplates.id, 'no action'),
    appliedAt: instant('applied_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.kind] }), index('device_param_templates_template_idx').on(t.templateId)],
);

/** What a relation handed to the real device, so unrelat takes exactly that back. */
export interface RelationHandover {
  /** Where the real device was before (null map: outmap). */
  before: { mapId: string | null; x: number | null; y: number | null };
  /** Groups the real device joined through the relation (it was not in them before). */
  groupIds: string[];
  /** Scenes the real device joined through the relation. */
  sceneIds: string[];
  /** Templates the real device carried before, by class, to put back on unrelat. */
  templates: Partial<Record<ParamClass, string | null>>;
}

/**
 * Virtual devices: cloud-side stand-ins bound to a map and a gateway. No gateway configuration reads this
 * table, so a gateway never hears of one. `relatedDeviceId` is the real device that took its place.
 */
export const virtualDevices = pgTable(
  'virtual_devices',
  {
    ...tenantRowKeys(),
    mapId: refersTo('map_id', () => maps.id, 'cascade'),
    gatewayId: refersTo('gateway_id', () => gateways.id, 'cascade'),
    type: integer('type').notNull(),
    name: text('name').notNull(),
    x: doublePrecision('x'),
    y: doublePrecision('y'),
    functionTemplateId: mayReferTo('function_template_id', (): AnyPgColumn => paramTemplates.id, 'no action'),
    interfaceTemplateId: mayReferTo('interface_template_id', (): AnyPgColumn => paramTemplates.id, 'no action'),
    // A deleted real device ends the relation; the virtual device comes back with what it had.
    relatedDeviceId: mayReferTo('related_device_id', () => devices.id, 'set null'),
    relatedAt: instant('related_at'),
    handover: jsonb('handover').$type<RelationHandover>(),
    ...timestamps(),
  },
  (t) => [
    index('virtual_devices_tenant_map_idx').on(t.tenantId, t.mapId),
    uniqueIndex('virtual_devices_related_key').on(t.relatedDeviceId),
    index('virtual_devices_function_template_idx').on(t.functionTemplateId),
    index('virtual_devices_interface_template_idx').on(t.interfaceTemplateId),
  ],
);

/** Groups a virtual device is in; the group's own members (and so its gateway's table) never include it. */
export const virtualGroupMembers = linkTable(
  'virtual_group_members',
  { key: 'virtualId', column: 'virtual_id', target: () => virtualDevices.id },
  { key: 'groupId', column: 'group_id', target: () => groups.id },
);

/** Scenes a virtual device is in, with its step and action; scene_members never include it. */
export const virtualSceneMembers = pgTable(
  'virtual_scene_members',
  {
    virtualId: refersTo('virtual_id', () => virtualDevices.id, 'cascade'),
    sceneId: refersTo('scene_id', () => scenes.id, 'cascade'),
    step: smallint('step').notNull().default(0),
    action: jsonb('action').$type<SceneAction>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.virtualId, t.sceneId] }), index('virtual_scene_members_scene_idx').on(t.sceneId)],
);
