import { deviceEndpoints, gatewayEndpoints, type GatewayDevice, projectEndpoints } from '@lumigrid/contract';
import { SimGateway, type Fleet, type SimGatewayOptions } from '@lumigrid/gateway-sim';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { devices, users } from '../db/schema/index.ts';
import { MOSQUITTO_URL, runPrefix, testFleet } from './gateway-link.fixtures.ts';
import { brokersFor } from './services.ts';
import { SERVICE_DATABASES, apiData, endpointCaller, signUpByMail, startApp, type Harness, api } from './harness.ts';
import { createFirmwareCatalogue } from '../modules/gateways/firmware-catalogue.ts';
import { poll } from './poll.ts';
import { tenancyWorld } from './tenancy.ts';
import type { AppOptions } from '../app.ts';

/** The firmware files every rig offers: a newer gateway firmware; the other parts have none (260007). */
export const GATEWAY_FIRMWARE = {
  target: 'gateway' as const,
  version: '3.3.0',
  url: 'https://firmware.example.com/lg-gw-3.3.0.bin',
  size: 1_048_576,
};

export interface GatewayRig {
  h: Harness;
  fleet: Fleet;
  close(): Promise<void>;
}

/**
 * The whole server (embedded broker on a free port) with simulated gateways provisioned through the gateways
 * service and connected over real MQTT. Simulated time runs 1000 times faster, so a restart takes 60-120 ms
 * and a firmware update about a second; command replies are awaited at most `commandTimeoutMs`.
 */
/** The brokers the gateway suites run on (test/services.ts). */
export const BROKERS = brokersFor('the gateway suites');

/**
 * The services' database paired with each broker, so that every database and every broker of the run is met at
 * least once: what the database does and what the broker carries do not depend on each other, so a cross product
 * would only run each of them again.
 */
export const DATABASES_AND_BROKERS = Array.from(
  { length: Math.max(SERVICE_DATABASES.length, BROKERS.length) },
  (_, i) => [SERVICE_DATABASES[i % SERVICE_DATABASES.length]!, BROKERS[i % BROKERS.length]!] as const,
);

/**
 * The server on its own broker with one simulated gateway provisioned and online, without background activity
 * or radio limits: for suites that drive a single gateway's uplink themselves.
 */
export async function startAppWithGateway(
  kind: 'pglite' | 'postgres',
  { mac, password }: { mac: string; password: string },
): Promise<{ h: Harness; sim: SimGateway }> {
  const h = await startApp(kind, { HOST: '127.0.0.1' }, { gatewayLink: { port: 0 } });
  await h.app.gatewayFleet.provision(mac, password);
  const sim = new SimGateway({
    mac,
    password,
    url: `mqtt://127.0.0.1:${h.app.gatewayLink!.brokerPort}`,
    activityIntervalS: 0,
    radio: { unicastPerSecond: 0, groupPerSecond: 0 },
  });
  await sim.start();
  await poll(() => h.app.gatewayLink!.presence.isOnline(mac) === true, 'online');
  return { h, sim };
}

/**
 * What a suite on a gateway rig works with, read once its `beforeAll` has started the rig and signed in: the
 * harness, the i-th simulated gateway, and a caller that sends as `token` unless told otherwise.
 */
export function rigHandles(rig: () => GatewayRig, token: () => string | undefined) {
  const h = () => rig().h;
  return { h, sim: (i = 0) => rig().fleet.gateways[i]!, send: endpointCaller(() => h().app, token) };
}

/**
 * A suite on a gateway rig of its own: starts the rig and signs up one account (`mail`) before the suite's own
 * `beforeAll`, closes the rig after its `afterAll`. Answers the rig, the account's token and its handles, to read
 * in hooks and tests.
 */
export function gatewayRigSuite(kind: 'pglite' | 'postgres', options: GatewayRigOptions, mail: string) {
  let rig: GatewayRig | undefined;
  let token: string | undefined;
  beforeAll(async () => {
    rig = await startGatewayRig(kind, options);
    token = await signUpByMail(rig.h, mail);
  }, 120_000);
  afterAll(async () => rig?.close());
  const started = () => rig!;
  return { rig: started, token: () => token!, ...rigHandles(started, () => token) };
}

/** How a rig starts: its gateways, broker, timeouts and the server's settings. */
export interface GatewayRigOptions {
  count?: number;
  superGateways?: number;
  firmwareTimeoutMs?: number;
  commandTimeoutMs?: number;
  broker?: 'embedded' | 'mosquitto';
  /** An external broker of the test's own (a private Mosquitto), instead of TEST_MQTT_URL's or the embedded one. */
  mqttUrl?: string;
  /** The server's MQTT keep-alive and how long after the broker is back a gateway may stay unknown. */
  keepaliveS?: number;
  presenceSettleMs?: number;
  /** Options for every simulated gateway (their keep-alive, say). */
  sim?: Partial<SimGatewayOptions>;
  offlineGraceMs?: number;
  /** How often the alarm engine ticks (0: the test ticks it), and whether jobs poll by themselves. */
  alarmTickMs?: number;
  jobs?: { start?: boolean };
  /** Simulated devices of each family per gateway (default 1). */
  devicesPerKind?: number;
  /** More settings for the server (METRICS_TOKEN, say) and a logger to read its lines. */
  env?: Record<string, string>;
  logger?: AppOptions['logger'];
}

export async function startGatewayRig(kind: 'pglite' | 'postgres', options: GatewayRigOptions = {}): Promise<GatewayRig> {
  const mqttUrl = options.mqttUrl ?? (options.broker === 'mosquitto' ? MOSQUITTO_URL : undefined);
  const external = mqttUrl !== undefined;
  const h = await startApp(
    kind,
    { HOST: '127.0.0.1', ...(mqttUrl ? { MQTT_URL: mqttUrl } : {}), ...options.env },
    {
      gatewayLink: {
        port: 0,
        firmwareTimeoutMs: options.firmwareTimeoutMs ?? 4000,
        commandTimeoutMs: options.commandTimeoutMs ?? 1500,
        keepaliveS: options.keepaliveS,
        presenceSettleMs: options.presenceSettleMs,
        // Each run its own shared group, so suites running side by side on one Mosquitto never share events.
        ...(external ? { sharedGroup: `lumigrid-test-${runPrefix()}` } : {}),
      },
      firmware: createFirmwareCatalogue([GATEWAY_FIRMWARE, { ...GATEWAY_FIRMWARE, version: '3.2.9' }]),
      offlineGraceMs: options.offlineGraceMs,
      alarmTickMs: options.alarmTickMs,
      jobs: options.jobs,
      logger: options.logger,
    },
  );
  const link = h.app.gatewayLink!;
  const fleet = testFleet(mqttUrl ?? `mqtt://127.0.0.1:${link.brokerPort}`, {
    count: options.count,
    superGateways: options.superGateways,
    sim: { ...(options.devicesPerKind ? { devicesPerKind: options.devicesPerKind } : {}), ...options.sim },
  });
  for (const g of fleet.gateways) {
    const issued = await h.app.gatewayFleet.provision(g.mac, `pw-${g.mac}`);
    expect(issued.mac).toBe(g.mac);
  }
  expect(await fleet.start()).toEqual([]);
  for (const g of fleet.gateways) await poll(() => link.presence.isOnline(g.mac) === true, `${g.mac} online`);
  await h.app.gatewayFleet.settled();
  return {
    h,
    fleet,
    async close() {
      await fleet.stop();
      // A shared broker keeps retained states: clear this run's, as the gateway-link suites do.
      if (external) for (const g of fleet.gateways) await link.clearState(g.mac).catch(() => undefined);
      await h.close();
    },
  };
}

/** A successful call's data, or a failed expectation showing the answer. */
export async function data<T>(res: Promise<{ body: { code: number; data: T } }>): Promise<T> {
  const r = await res;
  expect(r.body?.code, JSON.stringify(r.body)).toBe(0);
  return r.body.data;
}

/** The default map of an account (every account has one). */
export async function defaultMapId(h: Harness, token: string): Promise<string> {
  const tree = await data(api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token }));
  const project = tree.projects.find((p) => p.isDefault);
  return project!.builds[0]!.maps[0]!.id;
}

/** Binds a gateway of the fleet to a map and answers it. */
export async function bind(h: Harness, token: string, mac: string, mapId: string, name?: string) {
  return data(api(h.app, gatewayEndpoints.bind, { body: { mac, mapId, ...(name ? { name } : {}) } }, { token }));
}

/**
 * A gateway of the fleet bound to a map (the account's default map unless given) with every device it has
 * joined imported; `place` picks the devices to put on the map, in a row. Answers the gateway, its map, all
 * its devices and the placed ones, through the endpoint table.
 */
export async function buildGatewayWithDevices(
  h: Harness,
  token: string,
  overrides: { mac: string; mapId?: string; name?: string; place?: (device: GatewayDevice) => boolean },
) {
  const mapId = overrides.mapId ?? (await defaultMapId(h, token));
  const gateway = await apiData(
    h.app,
    gatewayEndpoints.bind,
    { body: { mac: overrides.mac, mapId, ...(overrides.name ? { name: overrides.name } : {}) } },
    { token },
  );
  await apiData(h.app, gatewayEndpoints.importDevices, { params: { id: gateway.id } }, { token });
  const devices = await apiData(h.app, gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gateway.id } }, { token });
  const placed = overrides.place ? devices.filter(overrides.place) : [];
  if (placed.length > 0) {
    const at = placed.map((d, i) => ({ id: d.id, x: (i % 8) / 8 + 0.0625, y: Math.floor(i / 8) / 8 + 0.0625 }));
    await apiData(h.app, deviceEndpoints.moveIn, { body: { mapId, devices: at } }, { token });
  }
  return { gateway, mapId, devices, placed };
}

/**
 * Binds the rig's simulated gateways in order, one per name, each on its own default map with every device
 * placed, and syncs each: the set-up of suites that run configurations on several gateways.
 */
export async function syncedGateways(rig: GatewayRig, token: string, names: string[]) {
  const gateways: Array<{ id: string; mapId: string; devices: GatewayDevice[] }> = [];
  for (const [i, name] of names.entries()) {
    const built = await buildGatewayWithDevices(rig.h, token, { mac: rig.fleet.gateways[i]!.mac, name, place: () => true });
    gateways.push({ id: built.gateway.id, mapId: built.mapId, devices: built.devices });
    await apiData(rig.h.app, gatewayEndpoints.sync, { params: { id: built.gateway.id } }, { token });
  }
  return gateways;
}

/**
 * Places a device on a map by writing its row, for gateway tests that need a placed device without the
 * device calls.
 */
export async function placeDevice(h: Harness, deviceId: string, mapId: string | null) {
  await h.database.db
    .update(devices)
    .set({ mapId: mapId === null ? null : BigInt(mapId) })
    .where(and(eq(devices.id, BigInt(deviceId))));
}

export async function userIdOf(h: Harness, account: string): Promise<string> {
  const [row] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.account, account));
  return String(row!.id);
}

/**
 * A tenancy world on a rig of two simulated gateways, each account on a gateway of its own: the first account
 * (the victim) builds what it owns on the first gateway, then the second (the intruder) on the second. Answers
 * the world and how many commands the victim's gateway got since, of those `countCommands` picks: the
 * intruder's calls must send it none.
 */
export function twoGatewayTenancyWorld<W>(
  kind: 'pglite' | 'postgres',
  setup: {
    /** Mail addresses of the first (victim) and the second (intruder) account. */
    accounts: { victim: string; intruder: string };
    build: (rig: GatewayRig, own: { token: string; sim: SimGateway; victim: boolean }) => Promise<W>;
    countCommands?: (command: { name: string }) => boolean;
    timeout?: number;
  },
) {
  let commandsSeen = 0;
  const world = tenancyWorld({
    start: () => startGatewayRig(kind, { count: 2 }),
    accounts: setup.accounts,
    seed: async (rig, tokens) => {
      const [first, second] = rig.fleet.gateways;
      const a = await setup.build(rig, { token: tokens.victim, sim: first!, victim: true });
      const b = await setup.build(rig, { token: tokens.intruder, sim: second!, victim: false });
      const counts = setup.countCommands;
      if (counts) first!.on('command', (command: { name: string }) => counts(command) && (commandsSeen += 1));
      return { a, b };
    },
    timeout: setup.timeout ?? 60_000,
  });
  return { world, commandsSeen: () => commandsSeen };
}
