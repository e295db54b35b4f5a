import { finished } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** One column's value of a row to copy; numbers and booleans as PostgreSQL reads their text. */
export type CopyValue = string | number | boolean | null;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format: null is \N; backslash, tab, newline and carriage return are escaped. */
function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]!) : text;
}

/** The rows in COPY's text format (tab between columns, a newline after each row). */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  let text = '';
  for (const row of rows) text += `${row.map(copyField).join('\t')}\n`;
  return text;
}

/**
 * Loads the rows into the table with one `COPY ... FROM STDIN` on the client, in their order (an identity
 * column numbers them so). One statement: on an error nothing of it is written. Answers the rows written.
 */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly CopyValue[])[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
  stream.end(copyText(rows));
  // 'finish' comes after the database's ReadyForQuery: the rows are committed and visible.
  await finished(stream);
  return stream.rowCount;
}

/**
 * PGlite's COPY: the rows in the same text format, handed over as one blob (`COPY ... FROM '/dev/blob'`), so a
 * batch is one message to PGlite's thread and one statement with nothing to parse but the rows. Answers the rows
 * written.
 */
export async function copyRowsToPglite(
  client: Pick<PGlite, 'query'>,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly CopyValue[])[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await client.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], { blob: new Blob([copyText(rows)]) });
  return result.affectedRows ?? rows.length;
}
