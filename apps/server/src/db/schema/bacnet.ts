import { integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, keyedBy, refersTo, unreferencedId } from './columns.ts';
import { projects } from './projects.ts';

/**
 * The BACnet object instance each group, light, device and map has in a project's BACnet device
 * (docs/bacnet.md). Kept by the platform's own id, never by name, so a renamed or moved object keeps the
 * instance a building management system has bound to; an instance is never given to another object.
 * No foreign key to the objects: the row of a deleted object keeps its instance taken.
 */
export const bacnetObjects = pgTable(
  'bacnet_objects',
  {
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    /** What the platform object is: `group`, `device`, `energy` (a device's meter), `map` or `project`. */
    source: text('source').$type<'group' | 'device' | 'energy' | 'map' | 'project'>().notNull(),
    sourceId: unreferencedId('source_id').notNull(),
    /** The BACnet object type (54 Lighting Output, 55 Binary Lighting Output, 0 Analog Input, 19 Multi-state Value). */
    objectType: integer('object_type').notNull(),
    instance: integer('instance').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.source, t.sourceId, t.objectType] }),
    uniqueIndex('bacnet_objects_instance_key').on(t.projectId, t.objectType, t.instance),
  ],
);

/**
 * Which server node serves a project's BACnet device: several nodes may have BACNET=on, one holds the lease and
 * answers, the others wait to take over when it stops renewing (docs/bacnet.md).
 */
export const bacnetLeases = pgTable('bacnet_leases', {
  projectId: keyedBy('project_id', () => projects.id),
  /** The node holding it (host/pid/random, as the job runner names nodes). */
  holder: text('holder').notNull(),
  expiresAt: instant('expires_at').notNull(),
});

/**
 * The Recipient_List a building management system wrote into a device's Notification Class, kept so that a
 * restart or a take-over by another node still notifies it (docs/bacnet.md). One row per device: its project and
 * its device instance (a BMS writes to the device it found, and a device renumbered is another device to it).
 */
export const bacnetRecipients = pgTable(
  'bacnet_recipients',
  {
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    deviceInstance: integer('device_instance').notNull(),
    /** The BACnetDestinations as written (days, times, recipient, process, confirmed, transitions), in order. */
    recipients: jsonb('recipients').$type<unknown[]>().notNull(),
    updatedAt: instant('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.deviceInstance] })],
);

/**
 * With one device per map (BACNET_DEVICE_PER=map), each map's slot: its device is the configured instance plus the
 * slot, on the configured port plus the slot. Given the first time the map is served and never changed or reused,
 * so a renamed map keeps its device; no foreign key to maps, so a deleted map's slot stays taken.
 */
export const bacnetDevices = pgTable(
  'bacnet_devices',
  {
    projectId: refersTo('project_id', () => projects.id, 'cascade'),
    mapId: unreferencedId('map_id').notNull(),
    slot: integer('slot').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.mapId] }), uniqueIndex('bacnet_devices_slot_key').on(t.projectId, t.slot)],
);
