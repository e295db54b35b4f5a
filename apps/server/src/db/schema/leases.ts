import { pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from './columns.ts';

/**
 * Work that one server node does for all of them (the alarm engine): the node holding a lease does it, the others
 * take over when it stops renewing (docs/alarms.md "Where it runs"). A project's BACnet device has its own
 * leases (bacnet_leases), removed with the project.
 */
export const serverLeases = pgTable('server_leases', {
  /** What the lease is for ('alarms'). */
  name: text('name').primaryKey(),
  /** The node holding it (host/pid/random, as the job runner names nodes). */
  holder: text('holder').notNull(),
  expiresAt: instant('expires_at').notNull(),
});
