import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { REALTIME_ENDPOINT } from '@lumigrid/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPrefix } from '../test/gateway-link.fixtures.ts';
import { freePort } from '../lib/free-port.ts';
import { poll } from '../test/poll.ts';
import { stompClient } from '../test/realtime.fixtures.ts';
import { SERVER_BUNDLE, buildServerBundle, removeServerBundle } from '../test/server-process.ts';
import { TEST_MQTT_URL, servicesFor } from '../test/services.ts';

const BASE_URL = process.env.DATABASE_URL ?? '';
const HAPROXY = '/usr/sbin/haproxy';
const SERVICES = servicesFor('the cluster script', { mqtt: true, postgres: true, programs: [HAPROXY] });
const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
const ADMIN_PASSWORD = 'Cluster-Admin-2026';

/** Whether a process is still there (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm run cluster` as a person starts it: two nodes behind HAProxy. One node told to stop drains out of the
 * load balancer while requests through HAProxy keep succeeding on the other; a rolling restart loses none either.
 */
describe.skipIf(!SERVICES)('the cluster on one machine (scripts/cluster.ts, HAProxy)', () => {
  const dbName = `lumigrid_test_${randomBytes(6).toString('hex')}`;
  let output = '';
  let script: ReturnType<typeof spawn> | undefined;
  let exited: Promise<number | null>;

  async function admin(text: string) {
    const client = new pg.Client({ connectionString: BASE_URL });
    await client.connect();
    await client.query(text);
    await client.end();
  }

  beforeAll(async () => {
    buildServerBundle();
    await admin(`create database ${dbName}`);
  }, 60_000);

  afterAll(async () => {
    if (script && script.exitCode === null) {
      script.kill('SIGTERM');
      await exited;
    }
    await admin(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
    removeServerBundle();
  });

  it('serves through HAProxy while a node drains and while every node is restarted in turn', async () => {
    const url = new URL(BASE_URL);
    url.pathname = `/${dbName}`;
    const port = await freePort();
    script = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts', '--nodes', '2', '--port', String(port)], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        MQTT_URL: TEST_MQTT_URL,
        MQTT_SHARED_GROUP: `lumigrid-cluster-${runPrefix()}`,
        LUMIGRID_SERVER_BUNDLE: SERVER_BUNDLE,
        ADMIN_PASSWORD,
        // vitest sets MODE=test for itself; the platform's MODE is saas or server.
        MODE: 'server',
        DEMO: 'off',
        DRAIN_GRACE_MS: '2000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    script.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    script.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((done) => script!.once('exit', (code) => done(code)));
    // Two nodes start, the first migrating a new database, then HAProxy: minutes on a machine busy with other suites.
    await poll(() => output.includes('ready: ') || script!.exitCode !== null, 'the cluster to be ready', { timeoutMs: 150_000 });
    expect(output, output).toContain('ready: ');
    const pids = [...output.matchAll(/^node\d+: pid (\d+)/gm)].map((match) => Number(match[1]));
    expect(pids).toHaveLength(2);
    const front = `http://127.0.0.1:${port}`;
    const info = async () => (await fetch(`${front}/api1/system/v1/info`)).status;
    expect(await info()).toBe(200);

    // STOMP over SockJS's xhr-streaming through HAProxy: its requests reach one node though they come without cookies.
    const login = await fetch(`${front}/api1/user/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    for (let i = 0; i < 4; i++) {
      const socket = await stompClient(`${front}${REALTIME_ENDPOINT}`, { Authorization: `Bearer ${token}` }, undefined, ['xhr-streaming']);
      expect(socket.connected, `socket ${i}`).toBeDefined();
      await socket.subscribe('/topic/global_message_notice/1', () => undefined);
      expect(socket.errors).toEqual([]);
      await socket.stop();
    }

    // The first node drains; every request through HAProxy meanwhile, and after it is gone, is answered.
    process.kill(pids[0]!, 'SIGTERM');
    const statuses: number[] = [];
    while (alive(pids[0]!)) statuses.push(await info());
    for (let i = 0; i < 20; i++) statuses.push(await info());
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(statuses.length).toBeGreaterThan(20);
    expect(alive(pids[1]!)).toBe(true);

    // An upgrade: SIGHUP starts the stopped node again, then drains and replaces the other; nothing goes unanswered.
    script.kill('SIGHUP');
    const during: number[] = [];
    while (!output.includes('restarted every node')) {
      if (script.exitCode !== null) throw new Error(output);
      during.push(await info());
    }
    expect(during.filter((status) => status !== 200)).toEqual([]);
    expect(alive(pids[1]!)).toBe(false);

    script.kill('SIGINT');
    expect(await exited, output).toBe(0);
    const logs = /the logs stay in (\S+)/.exec(output)?.[1];
    expect(logs).toBeDefined();
    await rm(logs!, { recursive: true, force: true });
  }, 300_000);
});
