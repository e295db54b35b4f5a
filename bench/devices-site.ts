import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceMarker, Gateway, GatewayDevice, ProjectTree } from '@lumigrid/contract';
import { createFleet, type Fleet } from '@lumigrid/gateway-sim';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import type { App } from '../apps/server/src/http/types.ts';
import type { AuditSink } from '../apps/server/src/http/audit-entry.ts';
import { postgresTarget } from './postgres-target.ts';

const ADMIN_PASSWORD = 'Bench-Admin-2026';

/** A running server with simulated gateways bound to one map, every device imported and placed on it. */
export interface DeviceSite {
  app: App;
  fleet: Fleet;
  token: string;
  mapId: string;
  gateways: Gateway[];
  devices: GatewayDevice[];
  /** A JSON call through the whole Fastify pipeline (auth, validation, serialisation), answering the raw body. */
  call(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<{ status: number; body: string }>;
  json<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/**
 * The product's own server (`buildApp` with the embedded broker on a free port, PGlite in a temporary folder
 * in its worker thread, or a fresh PostgreSQL database)
 * and `gateways` simulated gateways in this process with `devicesPerKind` devices of every family, radio
 * delay 0. Everything is set up through the HTTP API as a user would: bind, import, place.
 */
export async function startDeviceSite(options: {
  gateways: number;
  devicesPerKind: number;
  place?: boolean;
  /** PGlite in the temporary folder (default), or a fresh database on the PostgreSQL server at this URL. */
  postgres?: string;
  /** Between the route layer and the audit trail's writer (devices-command: calls with and without their entries). */
  auditSink?: (sink: AuditSink) => AuditSink;
}): Promise<DeviceSite> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-bench-devices-'));
  const pgTarget = options.postgres
    ? await postgresTarget(options.postgres, `lumigrid_bench_${randomBytes(5).toString('hex')}`)
    : undefined;
  // PGlite in its worker thread, as the server runs it (main.ts).
  const database = await openDatabase(pgTarget ? { url: pgTarget.url } : { dataDir: join(dataDir, 'db') }, { pgliteWorker: true });
  const config = loadConfig({
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'no-web'),
    ADMIN_PASSWORD,
    DEMO: 'off',
    LOG_LEVEL: 'warn',
  });
  const app = await buildApp({
    config,
    database,
    logger: { level: 'warn' },
    gatewayLink: { port: 0 },
    ...(options.auditSink ? { audit: { wrap: options.auditSink } } : {}),
  });
  const fleet = createFleet({
    url: `mqtt://127.0.0.1:${app.gatewayLink!.brokerPort}`,
    count: options.gateways,
    macPrefix: 'BE0D5E',
    password: (mac) => `bench-${mac}`,
    devicesPerKind: options.devicesPerKind,
    radio: { unicastPerSecond: 0, groupPerSecond: 0 },
    activityIntervalS: 0,
    faultRate: 0,
  });
  for (const g of fleet.gateways) await app.gatewayFleet.provision(g.mac, `bench-${g.mac}`);

  let token = '';
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: res.body };
  };
  const json = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<T> => {
    const res = await call(method, url, body);
    const envelope = JSON.parse(res.body) as { code: number; msg: string; data: T };
    if (envelope.code !== 0) throw new Error(`${method} ${url}: ${res.status} ${envelope.code} ${envelope.msg}`);
    return envelope.data;
  };

  const login = await app.inject({ method: 'POST', url: '/api1/user/v1/login', payload: { account: 'admin', password: ADMIN_PASSWORD } });
  token = (JSON.parse(login.body) as { data: { access_token: string } }).data.access_token;
  const tree = await json<ProjectTree>('GET', '/api4/project_user/v1/0/sub_links');
  const mapId = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!.id;

  const gateways: Gateway[] = [];
  for (const g of fleet.gateways) gateways.push(await json<Gateway>('POST', '/api4/gateway/v1/move', { mac: g.mac, mapId }));
  const failed = await fleet.start();
  if (failed.length) throw new Error(`gateways refused: ${failed.map((f) => f.mac).join(', ')}`);
  for (let i = 0; i < 400 && !fleet.gateways.every((g) => app.gatewayLink!.presence.isOnline(g.mac)); i++) await sleep(25);

  const devices: GatewayDevice[] = [];
  for (const g of gateways) {
    await json('GET', `/api4/gateway/v1/import/${g.id}`);
    devices.push(...(await json<GatewayDevice[]>('GET', `/api4/gateway/v1/devices/outmap/${mapId}/${g.id}`)));
  }
  if (options.place !== false) {
    // A grid over the plan, as an installer would spread them; move_in takes up to 5,000 per call.
    const side = Math.ceil(Math.sqrt(devices.length));
    const placements = devices.map((d, i) => ({ id: d.id, x: ((i % side) + 0.5) / side, y: (Math.floor(i / side) + 0.5) / side }));
    for (let i = 0; i < placements.length; i += 5000) {
      await json<DeviceMarker[]>('POST', '/api4/device/v1/move_in', { mapId, devices: placements.slice(i, i + 5000) });
    }
  }
  return {
    app,
    fleet,
    token,
    mapId,
    gateways,
    devices,
    call,
    json,
    async close() {
      await fleet.stop();
      await app.close();
      await database.close();
      await pgTarget?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The q-quantile (0-1) of samples in milliseconds, rounded to 0.1 ms. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round((sorted[index] as number) * 10) / 10;
}

export { sleep };
