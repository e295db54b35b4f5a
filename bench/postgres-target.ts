import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';

/** A fresh PostgreSQL database for one run, dropped afterwards. */
export interface PostgresTarget {
  url: string;
  drop(): Promise<void>;
}

/** Creates the database `name` on the server of `base` (a URL whose user may create databases). */
export async function postgresTarget(base: string, name: string): Promise<PostgresTarget> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** DATABASE_URL, or the machine's server at postgres://postgres@127.0.0.1:5432/postgres; undefined when it does not answer. */
export async function postgresBase(): Promise<string | undefined> {
  const candidate = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: candidate, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return candidate;
  } catch {
    return undefined;
  }
}

/**
 * A fresh database for one benchmark run: a new PostgreSQL database on `base` (kept when `keep`, its URL told to
 * `log`), or PGlite in a data folder, as an installation runs it. `cleanup` drops or removes it.
 */
export async function openBenchTarget(
  kind: 'pglite' | 'postgres',
  base: string | undefined,
  options: { keep?: boolean; log: (line: string) => void },
): Promise<{ database: Database; cleanup(): Promise<void> }> {
  if (kind === 'postgres') {
    const target = await postgresTarget(base!, `lumigrid_bench_${randomBytes(5).toString('hex')}`);
    const database = await openDatabase({ url: target.url });
    if (options.keep) return { database, cleanup: async () => options.log(`postgres: kept ${target.url}`) };
    return { database, cleanup: () => target.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lumigrid-bench-'));
  const database = await openDatabase({ dataDir: dir });
  return { database, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}
