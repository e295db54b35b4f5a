import { type AnyPgColumn, bigint, index, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';

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

/** Another row's id held without a foreign key; the column says why it needs none. */
export const unreferencedId = <Name extends string>(name: Name) => bigint(name, { mode: 'bigint' });

/** A key that is another row's id: at most one row per that row, deleted with it. */
export const keyedBy = <Name extends string>(name: Name, target: () => AnyPgColumn) =>
  bigint(name, { mode: 'bigint' }).primaryKey().references(target, { onDelete: 'cascade' });

/** A moment in time; every moment the schema keeps carries its zone, so nodes in any zone read it alike. */
export const instant = <Name extends string>(name: Name) => timestamp(name, { withTimezone: true });

/** When the row was written first. */
export const createdAt = () => instant('created_at').notNull().defaultNow();

/** When the row was written first and last. */
export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/** One side of a many-to-many link: the property, its column and the row it points at. */
export interface LinkSide<Key extends string> {
  key: Key;
  column: string;
  target: () => AnyPgColumn;
}

/**
 * A many-to-many link between two rows: each pair once (the key, led by the first side), found from the second
 * side by its index, and gone with either row.
 */
export function linkTable<TableName extends string, First extends string, Second extends string>(
  name: TableName,
  first: LinkSide<First>,
  second: LinkSide<Second>,
) {
  const columns = {
    [first.key]: refersTo(first.column, first.target, 'cascade'),
    [second.key]: refersTo(second.column, second.target, 'cascade'),
  } as Record<First | Second, ReturnType<typeof refersTo<string>>>;
  return pgTable(name, columns, (t) => [
    primaryKey({ columns: [t[first.key], t[second.key]] }),
    index(`${name}_${second.column.replace(/_id$/, '')}_idx`).on(t[second.key]),
  ]);
}
