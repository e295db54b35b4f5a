import pg from 'pg';

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
