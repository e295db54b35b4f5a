import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes } from 'aedes';
import type { GatewayInfo } from '@lumigrid/protocol';
import { createFleet, type Fleet, type SimGatewayOptions } from '@lumigrid/gateway-sim';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import pino from 'pino';
import { expect } from 'vitest';
import { createMemoryCredentialStore, randomServerCredential, type ServerCredential } from '../gateway-link/credentials.ts';
import { startGatewayLink, type GatewayLink } from '../gateway-link/gateway-link.ts';
import { TEST_MQTT_URL } from './services.ts';
import { poll } from './poll.ts';

/** A logger that keeps what it writes, so a test can see that something was logged. */
export type LogLine = { level: number; msg: string; [k: string]: unknown };

export function memoryLogger(): { logger: FastifyBaseLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger: logger as unknown as FastifyBaseLogger, lines };
}

/** A plain Aedes broker on a free port, without the embedded broker's authentication and ACL. */
export async function startPlainBroker(): Promise<{ url: string; broker: Aedes; close(): Promise<void> }> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    broker,
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether something answers on host:port within a short time. */
export function reachable(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** What a gateway reports about itself (spec section 3), for tests that play the link without a simulator. */
export function gatewayInfo(mac: string): GatewayInfo {
  return {
    mac,
    ip: '10.0.0.2',
    networkAddress: '0000',
    panId: '1A2B',
    channel: 15,
    versions: { gateway: '1', zigbee: '1', zigbee2: '1', zigbee3: '1', wisun: '1', plc: '1' },
    largeGroupNumber: 1,
    superGateway: false,
    configVersion: 0,
  };
}

/** The external broker of the 'mosquitto' runs (test/services.ts). */
export const MOSQUITTO_URL = TEST_MQTT_URL ?? '';

/** A MAC prefix unique to this run, so retained states of earlier runs on a shared broker never collide. */
export function runPrefix(): string {
  return Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .toUpperCase()
    .padStart(6, '0');
}

export interface LinkRig {
  link: GatewayLink;
  credentials: ReturnType<typeof createMemoryCredentialStore>;
  url: string;
  fleet: Fleet;
  serverCredential: ServerCredential;
  lines: LogLine[];
  close(): Promise<void>;
}

/**
 * The simulated gateways of the test rigs on the broker at `url`: this run's MACs, passwords `pw-<mac>`, time
 * 1000 times faster, no background activity and no radio limits.
 */
export function testFleet(url: string, options: { count?: number; superGateways?: number; sim?: Partial<SimGatewayOptions> }): Fleet {
  return createFleet({
    url,
    count: options.count ?? 2,
    superGateways: options.superGateways ?? 0,
    macPrefix: runPrefix(),
    password: (mac) => `pw-${mac}`,
    timeFactor: 1000,
    radio: { unicastPerSecond: 0, groupPerSecond: 0 },
    activityIntervalS: 0,
    // Time runs 1000 times faster here: a gateway whose reconnect failed on a busy machine is back within 2 s.
    reconnect: { maxMs: 2000 },
    ...options.sim,
  });
}

/**
 * A gateway link on the embedded broker (port 0) or on an external one, with a fleet of simulated
 * gateways whose credentials the link knows. Simulated time runs 1000 times faster.
 */
export async function startRig(
  kind: 'embedded' | 'mosquitto',
  options: {
    count?: number;
    superGateways?: number;
    firmwareTimeoutMs?: number;
    sim?: Partial<SimGatewayOptions>;
    /** A Mosquitto of the test's own for the 'mosquitto' kind, instead of TEST_MQTT_URL's. */
    mqttUrl?: string;
    keepaliveS?: number;
  } = {},
): Promise<LinkRig> {
  const { logger, lines } = memoryLogger();
  const credentials = createMemoryCredentialStore();
  const serverCredential = randomServerCredential();
  const external = kind === 'mosquitto' ? (options.mqttUrl ?? MOSQUITTO_URL) : undefined;
  const link = await startGatewayLink({
    port: 0,
    host: '127.0.0.1',
    mqttUrl: external,
    keepaliveS: options.keepaliveS,
    credentials,
    serverCredential,
    logger,
    firmwareTimeoutMs: options.firmwareTimeoutMs,
    // On an external broker reports, telemetry and events go through a shared subscription, as in production.
    sharedGroup: kind === 'mosquitto' ? `lumigrid-test-${runPrefix()}` : undefined,
  });
  const url = external ?? `mqtt://127.0.0.1:${link.brokerPort}`;
  const fleet = testFleet(url, options);
  for (const g of fleet.gateways) await credentials.set(g.mac, `pw-${g.mac}`);
  const failed = await fleet.start();
  expect(failed).toEqual([]);
  for (const g of fleet.gateways) await poll(() => link.presence.isOnline(g.mac) === true, `${g.mac} online`);
  return {
    link,
    credentials,
    url,
    fleet,
    serverCredential,
    lines,
    async close() {
      await fleet.stop();
      if (kind === 'mosquitto') for (const g of fleet.gateways) await link.clearState(g.mac).catch(() => undefined);
      await link.close();
    },
  };
}

/** A raw MQTT client, for the ACL matrix and for playing a misbehaving gateway. Resolves on CONNACK or its refusal. */
export function rawClient(url: string, options: IClientOptions): Promise<{ client: MqttClient; error?: Error & { code?: number } }> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 3000, protocolVersion: 4, ...options });
    client.once('connect', () => resolve({ client }));
    client.once('error', (error: Error & { code?: number }) => {
      client.end(true);
      resolve({ client, error });
    });
  });
}
