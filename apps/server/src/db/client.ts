import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { isPgliteThread, startPgliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

/** One Drizzle type for both drivers, so services and repos never care which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** The PostgreSQL pool under the Drizzle database, for what Drizzle cannot say (COPY); undefined on PGlite. */
export function poolOf(db: Db): pg.Pool | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
}

/** The PGlite client under the Drizzle database (on this thread or in its worker), for COPY; undefined on PostgreSQL. */
export function pgliteOf(db: Db): Pick<PGlite, 'query'> | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof PGlite || isPgliteThread(client) ? (client as Pick<PGlite, 'query'>) : undefined;
}

/**
 * Whether the database runs beside the server's thread (PostgreSQL, or PGlite in its worker thread), so a long
 * statement does not hold the server's event loop.
 */
export function runsBesideServer(db: Db): boolean {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool || isPgliteThread(client);
}

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url));

/** `image`: a dump of a migrated PGlite data folder to start from (tests), so only newer migrations run. */
export type DatabaseTarget = { url: string } | { dataDir: string } | { memory: true; image?: Blob };

/** Where the configuration keeps the database: PostgreSQL when it names one, otherwise PGlite in the data folder. */
export function configuredDatabase(config: { databaseUrl: string | undefined; dataDir: string }): DatabaseTarget {
  return config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir };
}

export interface OpenOptions {
  onPoolError?: (error: Error) => void;
  /**
   * PGlite in a worker thread of its own (the server): its statements then never hold this thread's event
   * loop. Otherwise it runs on the caller's thread, which starts no thread (tools, most tests).
   */
  pgliteWorker?: boolean;
}

/**
 * Opens the database and brings its schema up to date: PostgreSQL when a URL is given, otherwise PGlite in
 * a folder (or in memory, for tests).
 */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if ('url' in target) {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection the server closes (restart, failover, a dropped test database) must not crash the
    // process: without a listener the pool's 'error' event is thrown. The pool opens a new one when needed;
    // the cause still goes to the log, where an operator can see the database going away.
    pool.on('error', (error) => options.onPoolError?.(error));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: MIGRATIONS });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  if (options.pgliteWorker) {
    if ('dataDir' in target) mkdirSync(target.dataDir, { recursive: true });
    const thread = await startPgliteThread(target);
    // Drizzle's PGlite driver calls only what the thread answers: query, exec and transaction.
    const db = drizzlePglite(thread as unknown as PGlite, { schema });
    try {
      await migratePglite(db, { migrationsFolder: MIGRATIONS });
    } catch (error) {
      await thread.close();
      throw error;
    }
    return { db: db as unknown as Db, kind: 'pglite', close: () => thread.close() };
  }
  let client: PGlite;
  if ('dataDir' in target) {
    mkdirSync(target.dataDir, { recursive: true });
    client = new PGlite(target.dataDir);
  } else {
    client = new PGlite(target.image ? { loadDataDir: target.image } : {});
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
