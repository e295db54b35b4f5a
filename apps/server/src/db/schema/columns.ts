import { type AnyPgColumn, bigint, timestamp } from 'drizzle-orm/pg-core';

// The column sets the tables share, spread into their column objects (drizzle's documented way to reuse columns).
// Each call makes new builders, so no two tables share one.

type OnDelete = 'cascade' | 'restrict' | 'set null' | 'no action';

/** A row's own id, numbered by the database. */
export const identityId = () => bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity();

/** A link to another row's id that every row has; deleting that row does what `onDelete` says. */
export const refersTo = <Name extends string>(name: Name, target: () => AnyPgColumn, onDelete: OnDelete) =>
  bigint(name, { mode: 'bigint' }).notNull().references(target, { onDelete });

/** A link to another row's id that a row may leave null. */
export const mayReferTo = <Name extends string>(name: Name, target: () => AnyPgColumn, onDelete: OnDelete) =>
  bigint(name, { mode: 'bigint' }).references(target, { onDelete });

/** When the row was written first. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** When the row was written first and last. */
export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
