import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** A column as the archive keeps it: its name and the type its text form is cast back to. */
export interface ColumnInfo {
  name: string;
  /** `format_type` of the column (`bigint`, `timestamp with time zone`, `character varying(64)`, `jsonb`, ...). */
  type: string;
}

/** A table of the public schema: a plain table or the parent of a partitioned one (its partitions are not listed). */
export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Rows are read in this order; all columns when the table has no primary key. */
  orderBy: string[];
  /** The partitions of a partitioned table with their bounds, so a restore into a fresh database can create them. */
  partitions: Array<{ name: string; bound: string }>;
}

/** The newest migration applied to the database: an archive restores only into the same schema. */
export interface SchemaVersion {
  migration: string;
  migratedAt: number;
}

type Executor = Pick<Db, 'execute'>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const CURSOR = 'lumigrid_backup_rows';

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Reads the schema from the database's own catalogue, never from a list in the code: a table added by any
 * module is in every backup as soon as its migration ran.
 */
export async function readCatalogue(db: Executor): Promise<TableInfo[]> {
  const columns = await rows<{ table: string; column: string; type: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type"
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
          and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const keys = await rows<{ table: string; columns: string[] }>(
    db,
    sql`select c.relname as "table",
          (select json_agg(a.attname order by k.ord) from unnest(con.conkey) with ordinality as k(attnum, ord)
             join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as "columns"
        from pg_constraint con
        join pg_class c on c.oid = con.conrelid
        join pg_namespace n on n.oid = c.relnamespace
        where con.contype = 'p' and n.nspname = 'public'`,
  );
  const partitions = await rows<{ name: string; parent: string; bound: string }>(
    db,
    sql`select c.relname as "name", p.relname as "parent", pg_get_expr(c.relpartbound, c.oid) as "bound"
        from pg_class c
        join pg_inherits i on i.inhrelid = c.oid
        join pg_class p on p.oid = i.inhparent
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relispartition and c.relkind in ('r', 'p')
        order by c.relname`,
  );
  const tables = new Map<string, TableInfo>();
  for (const c of columns) {
    let table = tables.get(c.table);
    if (!table) tables.set(c.table, (table = { name: c.table, columns: [], orderBy: [], partitions: [] }));
    table.columns.push({ name: c.column, type: c.type });
  }
  const keyOf = new Map(keys.map((k) => [k.table, k.columns]));
  for (const table of tables.values()) table.orderBy = keyOf.get(table.name) ?? table.columns.map((c) => c.name);
  for (const p of partitions) tables.get(p.parent)?.partitions.push({ name: p.name, bound: p.bound });
  return [...tables.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export async function readSchemaVersion(db: Executor): Promise<SchemaVersion> {
  const [row] = await rows<{ hash: string; created_at: string }>(
    db,
    sql`select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1`,
  );
  return { migration: row?.hash ?? '', migratedAt: Number(row?.created_at ?? 0) };
}

/**
 * Streams every row of a table inside the caller's snapshot transaction, as JSON arrays of each column's
 * PostgreSQL text form (null stays null): exact for bigint, numeric, bytea, json, timestamps and arrays, and
 * cast back by the same types on restore. A cursor keeps memory flat whatever the table's size.
 */
export async function* readTableLines(tx: Executor, table: TableInfo, batch = 2000): AsyncGenerator<string[]> {
  const values = table.columns.map((c) => `${ident(c.name)}::text`).join(', ');
  const order = table.orderBy.map(ident).join(', ');
  await tx.execute(
    sql.raw(
      `declare ${CURSOR} no scroll cursor for select array_to_json(array[${values}])::text as line from ${ident(table.name)} order by ${order}`,
    ),
  );
  try {
    for (;;) {
      const fetched = await rows<{ line: string }>(tx, sql.raw(`fetch forward ${batch} from ${CURSOR}`));
      if (fetched.length === 0) return;
      yield fetched.map((r) => r.line);
    }
  } finally {
    await tx.execute(sql.raw(`close ${CURSOR}`));
  }
}

export async function countRows(tx: Executor, table: string): Promise<number> {
  const [row] = await rows<{ n: string }>(tx, sql.raw(`select count(*)::text as n from ${ident(table)}`));
  return Number(row?.n ?? 0);
}

/** The moment the snapshot sees (the transaction's start). */
export async function snapshotTime(tx: Executor): Promise<Date> {
  const [row] = await rows<{ at: string }>(tx, sql`select to_json(now())#>>'{}' as at`);
  return new Date(row!.at);
}

/** Foreign keys of the public schema, as `alter table ... add constraint` can recreate them. */
async function foreignKeys(tx: Executor) {
  return rows<{ table: string; name: string; definition: string }>(
    tx,
    sql`select c.relname as "table", con.conname as "name", pg_get_constraintdef(con.oid) as "definition"
        from pg_constraint con
        join pg_class c on c.oid = con.conrelid
        join pg_namespace n on n.oid = c.relnamespace
        where con.contype = 'f' and n.nspname = 'public' and con.conparentid = 0
        order by c.relname, con.conname`,
  );
}

/**
 * The restore's database half, in the caller's transaction: every table emptied, the archive's rows loaded
 * (with the tables' own triggers off), sequences set past the loaded ids. Foreign keys are dropped and added again around the load, so rows go in
 * whatever the order of tables and of self references (project trees, sub-accounts); adding them back checks
 * every row, and any failure rolls the whole transaction back.
 */
export function tableLoader(tx: Executor, tables: TableInfo[]) {
  let keys: Awaited<ReturnType<typeof foreignKeys>> = [];
  return {
    async begin(): Promise<void> {
      keys = await foreignKeys(tx);
      // Every table at once, in a fixed order, before anything else: writers queue behind the restore.
      await tx.execute(sql.raw(`lock table ${tables.map((t) => ident(t.name)).join(', ')} in access exclusive mode`));
      for (const fk of keys) await tx.execute(sql.raw(`alter table ${ident(fk.table)} drop constraint ${ident(fk.name)}`));
      // The rows come back as triggers left them once; firing them again (append-only guards, audit copies) would not.
      for (const table of tables) await tx.execute(sql.raw(`alter table ${ident(table.name)} disable trigger user`));
      await tx.execute(sql.raw(`truncate table ${tables.map((t) => ident(t.name)).join(', ')} restart identity`));
      const existing = new Set(
        (
          await rows<{ name: string }>(
            tx,
            sql`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'`,
          )
        ).map((r) => r.name),
      );
      for (const table of tables)
        for (const p of table.partitions)
          if (!existing.has(p.name))
            await tx.execute(sql.raw(`create table ${ident(p.name)} partition of ${ident(table.name)} ${p.bound}`));
    },

    /** Inserts a batch of archive lines (JSON arrays of text values) into a table. */
    async insert(table: TableInfo, lines: string[]): Promise<void> {
      if (lines.length === 0) return;
      const names = table.columns.map((c) => ident(c.name)).join(', ');
      const casts = table.columns.map((c, i) => `(e->>${i})::${c.type}`).join(', ');
      await tx.execute(
        sql`${sql.raw(`insert into ${ident(table.name)} (${names}) overriding system value select ${casts} from json_array_elements(`)}${`[${lines.join(',')}]`}${sql.raw(`::json) as e`)}`,
      );
    },

    async finish(): Promise<void> {
      for (const table of tables) await tx.execute(sql.raw(`alter table ${ident(table.name)} enable trigger user`));
      for (const fk of keys) await tx.execute(sql.raw(`alter table ${ident(fk.table)} add constraint ${ident(fk.name)} ${fk.definition}`));
      const sequences = await rows<{ table: string; column: string; sequence: string }>(
        tx,
        sql`select c.relname as "table", a.attname as "column", pg_get_serial_sequence(quote_ident(c.relname), a.attname) as "sequence"
            from pg_attribute a
            join pg_class c on c.oid = a.attrelid
            join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and a.attnum > 0 and not a.attisdropped
              and pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null`,
      );
      for (const s of sequences) {
        // The next id follows the largest restored one, so no new row can take an id the archive brought back.
        await tx.execute(
          sql`select setval(${s.sequence}, coalesce((select max(${sql.raw(ident(s.column))}) from ${sql.raw(ident(s.table))}), 0) + 1, false)`,
        );
      }
    },
  };
}
