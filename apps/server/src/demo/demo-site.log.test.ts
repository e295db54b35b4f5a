import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authEndpoints } from '@lumigrid/contract';
import { SERVICE_DATABASES, api } from '../test/harness.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { freshDatabase } from '../test/database-templates.ts';
import { gateways } from '../db/schema/index.ts';
import type { App } from '../http/types.ts';

type Line = { level: number; msg: string };

/** The whole server on one database, as main.ts builds it, with its log kept in memory. */
async function start(database: Database, dataDir: string, env: Record<string, string> = {}) {
  const lines: Line[] = [];
  const config = loadConfig({
    ADMIN_PASSWORD: 'Admin-Pass-2026',
    WEB_DIST: '/nonexistent',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: 'on',
    ...env,
  });
  const app = await buildApp({
    config,
    database,
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Line) } },
    gatewayLink: { port: 0 },
  });
  return { app, lines, outcome: await app.demo!.ready };
}

async function signIn(app: App, account: string, password: string): Promise<number> {
  return (await api(app, authEndpoints.login, { body: { account, password } })).body.code;
}

/**
 * What the log says does not depend on the engine: the suite runs on the services' database (PostgreSQL in CI, where
 * seeding the demo's history costs a fraction of PGlite's CPU); the demo's first start on PGlite, as the README
 * starts it, is the browser journey's (e2e/demo-site.e2e.test.ts).
 */
const KIND = SERVICE_DATABASES[0]!;

const created = (lines: Line[]) => lines.filter((l) => l.msg.startsWith('demo account created'));

describe('the demo site in the log', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lumigrid-demo-log-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints a random demo password once; DEMO_PASSWORD, when set later, becomes the password', async () => {
    const database = await freshDatabase(KIND);
    try {
      const first = await start(database, dataDir);
      const [line] = created(first.lines);
      const password = /password "([^"]+)" \(shown only this once\)/.exec(line?.msg ?? '')?.[1];
      expect(password, JSON.stringify(first.lines.map((l) => l.msg))).toBeDefined();
      expect(
        first.lines.some((l) => /^demo site running: sign in as "demo@lumigrid.local"; 4 of 4 simulated gateways online/.test(l.msg)),
      ).toBe(true);
      // Said once every gateway's devices are placed, which a watcher of the log waits for before the first visit.
      const furnished = first.lines.findIndex((l) => l.msg.startsWith('demo floor plan furnished'));
      expect(first.lines[furnished]?.msg).toMatch(
        /^demo floor plan furnished: [1-9]\d* devices placed and [1-9]\d* groups made on 4 gateways$/,
      );
      expect(furnished).toBeLessThan(first.lines.findIndex((l) => l.msg.startsWith('demo emergency log book')));
      expect(await signIn(first.app, 'demo@lumigrid.local', password!)).toBe(0);
      await first.app.close();

      const second = await start(database, dataDir);
      expect(created(second.lines)).toEqual([]);
      expect(second.lines.some((l) => l.msg.includes(password!))).toBe(false);
      await second.app.close();

      const third = await start(database, dataDir, { DEMO_PASSWORD: 'Recovered-Pass-1' });
      expect(third.lines.some((l) => l.msg === 'demo account password set from DEMO_PASSWORD')).toBe(true);
      expect(await signIn(third.app, 'demo@lumigrid.local', 'Recovered-Pass-1')).toBe(0);
      expect(await signIn(third.app, 'demo@lumigrid.local', password!)).not.toBe(0);
      await third.app.close();
    } finally {
      await database.close();
    }
  }, 180_000); // Three starts; the first seeds the whole demo, two months of history included.

  it('logs one line when the demo cannot start, and the platform serves on', async () => {
    const database = await freshDatabase(KIND);
    try {
      // The administrator's name is taken by an account that is not an account owner.
      const { app, lines, outcome } = await start(database, dataDir, { DEMO_ACCOUNT: 'admin' });
      expect(outcome).toBeUndefined();
      const errors = lines.filter((l) => l.level >= 50);
      expect(errors.map((l) => l.msg)).toEqual([
        'demo site not started (the platform runs without it): "admin" exists and is not an active account owner; set DEMO_ACCOUNT to another name',
      ]);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await database.db.select({ n: count() }).from(gateways))[0]!.n).toBe(0);
      await app.close();
    } finally {
      await database.close();
    }
  }, 60_000);
});
