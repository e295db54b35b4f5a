import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../lib/free-port.ts';
import { reachable } from './gateway-link.fixtures.ts';
import { poll } from './poll.ts';

/** Where Debian's package puts Mosquitto; suites needing it name it in servicesFor's `programs`. */
export const MOSQUITTO = '/usr/sbin/mosquitto';

export interface PrivateMosquitto {
  url: string;
  port: number;
  /** Its temporary directory, for files the configuration names. */
  dir: string;
  /** Starts it (again, on the same port and configuration); resolves once it accepts connections. */
  start(): Promise<void>;
  /** Sends a signal: SIGSTOP freezes it with its sockets open, SIGKILL kills it without a goodbye. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves once the process has exited. */
  exited(): Promise<void>;
  /** The end of what it logged, to explain a failure. */
  log(): string;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/**
 * A Mosquitto of the test's own, on a free port of 127.0.0.1 with a configuration in a temporary directory,
 * so a test may freeze, kill and restart it without touching the machine's broker. `conf(dir, port)` answers
 * the configuration (default: anonymous clients, nothing kept on disk) and may write files it names into dir.
 */
export async function startPrivateMosquitto(
  conf: (dir: string, port: number) => string = (_, port) => `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`,
): Promise<PrivateMosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'lumigrid-mosquitto-'));
  const port = await freePort();
  const confPath = join(dir, 'mosquitto.conf');
  writeFileSync(confPath, `${conf(dir, port)}log_dest stderr\n`);
  // Started as root, Mosquitto drops to its own user, which must be able to read the files.
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
  let child: ChildProcess | undefined;
  let log = '';
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
    });
  const broker: PrivateMosquitto = {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    async start() {
      const started = spawn(MOSQUITTO, ['-c', confPath], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = started;
      started.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
      await poll(async () => {
        if (started.exitCode !== null) throw new Error(`mosquitto did not start: ${log}`);
        return reachable(port);
      }, `mosquitto on port ${port}`);
    },
    signal(signal) {
      child?.kill(signal);
    },
    exited,
    log: () => log,
    async close() {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await broker.start();
  return broker;
}
