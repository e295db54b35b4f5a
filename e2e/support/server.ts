import './provided.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const ADMIN_PASSWORD = 'Admin-Pass-2026';
/** Every captcha of the test server has this answer (CAPTCHA_TEXT, a test-only setting). */
export const CAPTCHA = 'K7PX';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** What the server printed, for failure messages. */
  output(): string;
  /** Stops the server and removes its data folder, unless `keepData` (the folder is then the caller's). */
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
 * A new data folder for one server: a copy of `from`, by default of the run's migrated one (see
 * global-setup.ts), or an empty one when the file runs outside that setup, which the server then migrates itself.
 */
export async function freshDataDir(prefix = 'lumigrid-e2e-', from?: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  let source = from;
  try {
    source ??= inject('migratedDataDir');
  } catch {
    source = undefined;
  }
  if (source) await cp(source, dataDir, { recursive: true });
  return dataDir;
}

/**
 * Starts the real platform as `npm start` does (the server bundle the run's global setup built, the built web
 * app, an embedded database in a fresh folder), on free ports. DATABASE_URL is removed so browser journeys
 * never share the CI database with the server tests.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? (await freshDataDir());
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(await freePort()),
    DATA_DIR: dataDir,
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
    dataDir,
    output: () => output,
    async stop({ keepData = false } = {}) {
      await stopChild(child);
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
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
