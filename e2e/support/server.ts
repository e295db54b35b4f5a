import './provided.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../apps/server/src/db/client.ts';
import { freshPostgres } from '../../apps/server/src/test/database-templates.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const ADMIN_PASSWORD = 'Admin-Pass-2026';
/** Every captcha of the test server has this answer (CAPTCHA_TEXT, a test-only setting). */
export const CAPTCHA = 'K7PX';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  store: ServerStore;
  /** What the server printed, for failure messages. */
  output(): string;
  /** Stops the server and removes its store, unless `keepData` (the store is then the caller's). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * What one journey server stores: its data folder (uploads, backups, firmware) and its database. The database is
 * the embedded one in that folder, or, when the run has DATABASE_URL (CI), a PostgreSQL database of its own:
 * PGlite costs a server seconds of CPU to start and several times PostgreSQL's CPU a statement, and the unit
 * suites already run it on both. `E2E_DATABASE=pglite` keeps every journey on the embedded database; the demo's
 * first start always runs on it, as the README starts it.
 */
export interface ServerStore {
  dataDir: string;
  /** The store's own PostgreSQL database; none: the embedded one in `dataDir`. */
  databaseUrl?: string;
  /** Opens the store's database from the journey's process (an embedded one only while no server runs on it). */
  open(): Promise<Database>;
  /** Removes the folder and drops the database. */
  remove(): Promise<void>;
}

/** Where a store came from, to be copied: a folder and, for PostgreSQL, the database to clone. */
export type StoreSource = Pick<ServerStore, 'dataDir' | 'databaseUrl'>;

export const ON_POSTGRES = Boolean(process.env.DATABASE_URL) && process.env.E2E_DATABASE !== 'pglite';

/** What the run's global setup handed the files (global-setup.ts); none for a file run outside that setup. */
export function provided<K extends 'migratedDataDir' | 'postgresTemplate' | 'browserEndpoint'>(key: K): string | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

/**
 * A new store for one server: a copy of `from`, by default of the run's migrated database (global-setup.ts), or
 * an empty one when the file runs outside that setup, which the server then migrates itself.
 */
export async function freshStore(
  prefix = 'lumigrid-e2e-',
  { from, embedded = !ON_POSTGRES }: { from?: StoreSource; embedded?: boolean } = {},
): Promise<ServerStore> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const folder = from?.dataDir ?? (embedded ? provided('migratedDataDir') : undefined);
  if (folder) await cp(folder, dataDir, { recursive: true });
  if (embedded)
    return {
      dataDir,
      open: () => openDatabase({ dataDir }),
      remove: () => rm(dataDir, { recursive: true, force: true }),
    };
  const template = from?.databaseUrl ? new URL(from.databaseUrl).pathname.slice(1) : provided('postgresTemplate');
  const database = await freshPostgres({ template, prefix: `${provided('postgresTemplate') ?? 'lumigrid_e2e'}_copy` });
  return {
    dataDir,
    databaseUrl: database.url,
    open: () => openDatabase({ url: database.url }),
    async remove() {
      await rm(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

/**
 * Starts the real platform as `npm start` does (the server bundle the run's global setup built, the built web
 * app, a fresh store unless `store` is given), on free ports. The server's database is the store's: DATABASE_URL
 * is never the run's own, so browser journeys never share a database with the server tests.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { store?: ServerStore; embedded?: boolean } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const store = options.store ?? (await freshStore('lumigrid-e2e-', { embedded: options.embedded }));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(await freePort()),
    DATA_DIR: store.dataDir,
    ADMIN_PASSWORD,
    CAPTCHA_TEXT: CAPTCHA,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    // vitest sets MODE=test for itself; the platform's MODE means saas or server.
    MODE: 'saas',
    // Browser journeys start from a clean slate: no demo account, no demo gateways in the pool.
    DEMO: 'off',
    // No load balancer watches a journey's server: it stops at once instead of answering 503 for the usual grace.
    DRAIN_GRACE_MS: '0',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  if (store.databaseUrl) childEnv.DATABASE_URL = store.databaseUrl;
  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    url,
    port,
    dataDir: store.dataDir,
    store,
    output: () => output,
    async stop({ keepData = false } = {}) {
      await stopChild(child);
      if (!keepData) await store.remove();
    },
  };
  try {
    await waitUntilHealthy(url, child, () => output);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitUntilHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error(`server did not become healthy in 90 s:\n${output()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Runs a wait on the server's work and, when it fails, adds what the server printed last to the error: a
 * `beforeAll` that gives up gets no failure report of its own.
 */
export async function withServerOutput<T>(server: Pick<RunningServer, 'output'>, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\nthe server's last output:\n${server.output().slice(-3000)}`,
      {
        cause: error,
      },
    );
  }
}
