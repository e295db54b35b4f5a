import { expect } from 'vitest';
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

/**
 * Each secret made has the given shape and turns up in none of the places (only `part` of it is searched for where
 * the rest is a public prefix). More than five were made, so a suite that made none cannot pass.
 */
export function expectSecretsNowhere(places: Record<string, string>, secrets: string[], shape: RegExp, part = (secret: string) => secret) {
  expect(secrets.length).toBeGreaterThan(5);
  for (const secret of secrets) {
    expect(secret).toMatch(shape);
    for (const [where, text] of Object.entries(places)) expect(text.includes(part(secret)), where).toBe(false);
  }
}
