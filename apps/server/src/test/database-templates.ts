import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';

/**
 * Migrated databases made once per test run, which every suite copies instead of migrating its own: a PGlite
 * data folder dumped to a file, and a PostgreSQL template database when DATABASE_URL is set. Migrating takes
 * seconds and the suites open hundreds of databases.
 */
export interface DatabaseTemplates {
  pgliteImage: string;
  postgresTemplate?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/** Runs `run` on a connection to DATABASE_URL's own database, for creating and dropping others. */
export async function withAdmin<T>(run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

/** DATABASE_URL with another database's name. */
export function databaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Makes the templates; `dispose` removes them. */
export async function createDatabaseTemplates(): Promise<{ templates: DatabaseTemplates; dispose(): Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'lumigrid-db-template-'));
  const pglite = await openDatabase({ memory: true });
  const pgliteImage = join(folder, 'pglite.tar');
  const client = (pglite.db as unknown as { $client: PGlite }).$client;
  await writeFile(pgliteImage, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();

  const postgresTemplate = process.env.DATABASE_URL ? await createPostgresTemplate('lumigrid_template') : undefined;
  return {
    templates: { pgliteImage, postgresTemplate },
    async dispose() {
      await rm(folder, { recursive: true, force: true });
      // After every test has passed: a template left behind is reported, not taken for a failed run.
      if (postgresTemplate)
        await withAdmin((admin) => admin.query(`drop database if exists ${postgresTemplate} with (force)`)).catch((error: unknown) =>
          console.warn(`the template database ${postgresTemplate} was not dropped:`, error),
        );
    },
  };
}

/** A migrated PostgreSQL database named `<prefix>_<random>`, for others to copy. */
export async function createPostgresTemplate(prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name}`));
  const postgres = await openDatabase({ url: databaseUrl(name) });
  await postgres.close();
  return name;
}

/** The run's templates, or none when a file runs outside the configured global setup. */
function templates(): DatabaseTemplates | undefined {
  try {
    return inject('databaseTemplates');
  } catch {
    return undefined;
  }
}

let pgliteImage: Promise<Blob> | undefined;

/**
 * PGlite in a worker thread, as the server runs it; TEST_PGLITE_WORKER=0 keeps it on the suite's own thread, which
 * answers a statement without a hop between threads.
 */
const PGLITE_WORKER = process.env.TEST_PGLITE_WORKER !== '0';

/** A fresh in-memory PGlite database, migrated. */
export async function freshPglite(options: { worker?: boolean } = {}): Promise<Database> {
  const pgliteWorker = options.worker ?? PGLITE_WORKER;
  const path = templates()?.pgliteImage;
  if (!path) return openDatabase({ memory: true }, { pgliteWorker });
  pgliteImage ??= readFile(path).then((bytes) => new Blob([bytes]));
  return openDatabase({ memory: true, image: await pgliteImage }, { pgliteWorker });
}

/**
 * A fresh PostgreSQL database for one suite, dropped when it closes: a copy of `template` (by default the run's
 * migrated one), named `<prefix>_<random>`.
 */
export async function freshPostgres({
  template = templates()?.postgresTemplate,
  prefix = 'lumigrid_test',
}: { template?: string; prefix?: string } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return {
    url: databaseUrl(name),
    async drop() {
      await withAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** A fresh migrated database of the given kind; `close` also drops a PostgreSQL one. */
export async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<Database> {
  if (kind === 'pglite') return freshPglite();
  const target = await freshPostgres();
  const database = await openDatabase({ url: target.url });
  return {
    ...database,
    async close() {
      await database.close();
      await target.drop();
    },
  };
}
