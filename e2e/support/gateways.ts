import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFleet, type Fleet, type SimGatewayOptions } from '@lumigrid/gateway-sim';
import { hashPassword } from '../../apps/server/src/lib/password.ts';
import { createGatewaysRepo } from '../../apps/server/src/modules/gateways/gateways.repo.ts';
import { freePort, freshStore, startServer, type RunningServer } from './server.ts';

/** A firmware file the server offers for the gateway part (DATA_DIR/firmware/manifest.json). */
export interface FirmwareEntry {
  target: 'gateway' | 'zigbee' | 'zigbee2' | 'zigbee3' | 'wisun' | 'plc';
  version: string;
  url: string;
}

export interface GatewaySite {
  server: RunningServer;
  fleet: Fleet;
  /** The server's embedded broker, for gateways of other makes (the Zigbee2MQTT bridge) to connect to. */
  mqttUrl: string;
  /** Connects the simulated gateways to the server's embedded broker. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** E2E_WEB_DIST: a private build, for a machine where others rebuild apps/web/dist while the journeys run. */
function privateWebBuild(): Record<string, string> {
  return process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {};
}

/**
 * The real server with simulated gateways provisioned into its database (as `npm run provision` does:
 * username = MAC, password stored as a hash) before it starts, and a firmware manifest in its data folder.
 * The gateways are created here and connect to the server's embedded broker on MQTT_PORT when started.
 */
export async function startGatewaySite(
  options: {
    count?: number;
    superGateways?: number;
    firmware?: FirmwareEntry[];
    sim?: Partial<SimGatewayOptions>;
    env?: Record<string, string>;
  } = {},
): Promise<GatewaySite> {
  const store = await freshStore('lumigrid-e2e-gw-');
  const macPrefix = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .toUpperCase()
    .padStart(6, '0');
  const password = (mac: string) => `pw-${mac}`;
  const mqttPort = await freePort();
  const fleet = createFleet({
    url: `mqtt://127.0.0.1:${mqttPort}`,
    count: options.count ?? 1,
    superGateways: options.superGateways ?? 0,
    macPrefix,
    password,
    // Restarts take 0.6-1.2 s and firmware updates 6-12 s of wall time.
    timeFactor: 100,
    radio: { unicastPerSecond: 0, groupPerSecond: 0 },
    activityIntervalS: 0,
    faultRate: 0,
    ...options.sim,
  });

  const database = await store.open();
  try {
    const repo = createGatewaysRepo(database.db);
    for (const g of fleet.gateways) await repo.provisionAnyTenant({ mac: g.mac, passwordHash: await hashPassword(password(g.mac)) });
  } finally {
    await database.close();
  }
  if (options.firmware?.length) {
    await mkdir(join(store.dataDir, 'firmware'), { recursive: true });
    await writeFile(join(store.dataDir, 'firmware', 'manifest.json'), JSON.stringify(options.firmware));
  }

  let server: RunningServer;
  try {
    server = await startServer({ MQTT_PORT: String(mqttPort), DEMO: 'off', ...privateWebBuild(), ...options.env }, { store });
  } catch (error) {
    await store.remove();
    throw error;
  }
  return {
    server,
    fleet,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    async start() {
      const failed = await fleet.start();
      if (failed.length) throw new Error(`gateways did not connect: ${failed.map((f) => `${f.mac} ${f.error.message}`).join('; ')}`);
    },
    async stop() {
      await fleet.stop();
      await server.stop();
    },
  };
}
