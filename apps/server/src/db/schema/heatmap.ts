import type { HeatLevel } from '@lumigrid/contract';
import { index, jsonb, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { instant, keyedBy, refersTo } from './columns.ts';
import { devices } from './devices.ts';
import { projects } from './projects.ts';
import { tenantColumn } from './tenant-columns.ts';

/**
 * Motion sensor activations as the heatmap counts them (docs/decisions.md "Heatmap"): one row per sensor and
 * 30-minute window in which it reported occupied, however often it did. Written on ingest with "on conflict do
 * nothing", so a redelivered or replayed event never counts twice.
 */
export const sensorActivationWindows = pgTable(
  'sensor_activation_windows',
  {
    deviceId: refersTo('device_id', () => devices.id, 'cascade'),
    tenantId: tenantColumn(),
    /** Start of the window (UTC half hours). */
    windowStart: instant('window_start').notNull(),
    /** The same instant on the wall clock of the sensor's gateway: local days, weekdays and hours read it. */
    localStart: timestamp('local_start', { withTimezone: false }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.windowStart] }),
    index('sensor_activation_windows_device_local_idx').on(t.deviceId, t.localStart),
  ],
);

/** A project's heatmap colour levels (spec section 3: associated parent project, sensing counts, colours); none: the defaults. */
export const heatmapSettings = pgTable('heatmap_settings', {
  projectId: keyedBy('project_id', () => projects.id),
  tenantId: tenantColumn(),
  /** Ascending by percent. */
  levels: jsonb('levels').$type<HeatLevel[]>().notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});
