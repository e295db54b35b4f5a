import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { freePort } from '../lib/free-port.ts';
import { poll } from './poll.ts';

const SERVER_DIR = resolve(import.meta.dirname, '../..');

/**
 * The built server as `npm start` runs it, built by this test process into a folder of its own: the browser
 * journeys run the bundle in dist/ meanwhile, and a rebuild there would pull it from under them.
 */
const BUNDLE_DIR = resolve(SERVER_DIR, `tmp/bundle-${process.pid}/dist`);
export const SERVER_BUNDLE = resolve(BUNDLE_DIR, 'main.js');
/** The bundle's gateway provisioning command (`npm run provision`). */
export const PROVISION_BUNDLE = resolve(BUNDLE_DIR, 'provision.js');

/** Builds the bundle (esbuild, a few seconds), so a suite never runs an older bundle than the sources. */
export function buildServerBundle(): void {
  execFileSync(process.execPath, ['build/bundle.mjs'], {
    cwd: SERVER_DIR,
    stdio: 'inherit',
    env: { ...process.env, SERVER_BUNDLE_DIR: BUNDLE_DIR },
  });
}

/** Removes the bundle buildServerBundle made (a suite's afterAll). */
export function removeServerBundle(): void {
  rmSync(dirname(BUNDLE_DIR), { recursive: true, force: true });
}

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  /** What the process printed, for failure messages and log assertions. */
  output(): string;
  /** Resolves with the exit code (null when a signal killed it) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
  kill(signal: NodeJS.Signals): void;
}

/** Starts the built server on a free port with `env` over the defaults, and waits until /healthz answers 200. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_FORMAT: 'json',
      // vitest sets MODE=test for itself; the platform's MODE is saas or server.
      MODE: 'server',
      DEMO: 'off',
      WEB_DIST: resolve(SERVER_DIR, 'src/test/fixtures/no-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const server: ServerProcess = {
    url,
    port,
    pid: child.pid!,
    output: () => output,
    exited,
    running,
    kill: (signal) => void child.kill(signal),
  };
  try {
    await poll(
      async () => {
        if (!running()) throw new Error(`the server exited:\n${output}`);
        return (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true;
      },
      `the server on port ${port} to answer /healthz`,
      { timeoutMs: 60_000, everyMs: 100 },
    );
  } catch (error) {
    if (running()) child.kill('SIGKILL');
    throw error;
  }
  return server;
}
