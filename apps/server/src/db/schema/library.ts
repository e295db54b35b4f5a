import { doublePrecision, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { tenantRowKeys } from './tenant-columns.ts';

/**
 * The device library (spec section 3, "Device library type"): an account's luminaire and device models.
 * Devices belong to a type by part number: `devices.model`, trimmed and upper-cased, equal to `part_number`
 * (docs/decisions.md, "Device library"), so no column of devices points here and a type never dangles.
 */
export const libraryTypes = pgTable(
  'library_types',
  {
    ...tenantRowKeys(),
    name: text('name').notNull(),
    /** Device type code (contract DEVICE_TYPES). */
    type: integer('type').notNull(),
    /** The icon's file in the library image store, or null. */
    icon: text('icon'),
    /** Initial (rated) power, W: the energy savings baseline of the type's devices. */
    initialPower: doublePrecision('initial_power').notNull(),
    /** Luminaire lifespan, hours. */
    lifespan: integer('lifespan').notNull(),
    /** Upper case, of the documented format (contract PART_NUMBER_PATTERN). */
    partNumber: text('part_number').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('library_types_tenant_name_key').on(t.tenantId, t.name),
    uniqueIndex('library_types_tenant_part_key').on(t.tenantId, t.partNumber),
    index('library_types_tenant_type_idx').on(t.tenantId, t.type),
  ],
);
