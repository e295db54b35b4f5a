import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { buildApp, type AppOptions } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import type { App } from '../http/types.ts';
import { ADMIN_PASSWORD, CAPTCHA } from './harness.ts';
import { TEST_MQTT_URL } from './services.ts';

const BASE_URL = process.env.DATABASE_URL ?? '';

/** Runs one statement on the test server's own database (create and drop a database). */
export async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: BASE_URL });
  await c.connect();
  await c.query(sql);
  await c.end();
}

/** A server node of a two-node test. */
export interface TestNode {
  app: App;
  database: Database;
}

/**
 * ARCHITECTURE.md section 6 on one machine: server nodes on a database of their own on the test PostgreSQL
 * (REALTIME_BUS=postgres) and the machine's Mosquitto, in one shared subscription group. `drop` removes the
 * database once the nodes are closed.
 */
export async function nodesDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const dbName = `lumigrid_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${dbName} with (force)`).catch(() => undefined) };
}

/**
 * One node on that database; `options` go to buildApp beside the configuration (gatewayLink names the group),
 * `env` over the node's variables (another broker).
 */
export async function startNode(
  url: string,
  options: Omit<AppOptions, 'config' | 'database'>,
  env: Record<string, string> = {},
): Promise<TestNode> {
  const config = loadConfig({
    DEMO: 'off',
    ADMIN_PASSWORD,
    CAPTCHA_TEXT: CAPTCHA,
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    MQTT_URL: TEST_MQTT_URL ?? '',
    REALTIME_BUS: 'postgres',
    BRANDING_DIR: resolve(import.meta.dirname, 'fixtures/branding'),
    WEB_DIST: resolve(import.meta.dirname, 'fixtures/no-web'),
    ...env,
  });
  const database = await openDatabase({ url: config.databaseUrl! });
  const app = await buildApp({ config, database, ...options });
  return { app, database };
}
