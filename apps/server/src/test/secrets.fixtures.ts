import type { PgTable } from 'drizzle-orm/pg-core';
import { auditTrail } from '../db/schema/index.ts';
import type { Harness } from './harness.ts';

/** Rows or an answer as JSON text, bigints as their digits. */
const asText = (rows: unknown) => JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/**
 * Everywhere a secret shown once in a create answer could still turn up afterwards, each as text by name: a later
 * answer (`listed`), the audit trail (written out first), the rows of each given table, and the log.
 */
export async function placesAfterTheAnswer(
  h: Harness,
  places: { listed: unknown; tables: Record<string, PgTable>; logLines: string[] },
): Promise<Record<string, string>> {
  await h.app.audit.writer.flush();
  const texts: Record<string, string> = {
    listed: asText(places.listed),
    trail: asText(await h.database.db.select().from(auditTrail)),
    logged: places.logLines.join('\n'),
  };
  for (const [name, table] of Object.entries(places.tables)) texts[name] = asText(await h.database.db.select().from(table));
  return texts;
}
