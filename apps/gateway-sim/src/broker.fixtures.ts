import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import {
  decodeUp,
  downTopic,
  encodeCommand,
  encodeOnlineAck,
  type CommandMessage,
  type CommandName,
  type CommandParams,
  type DecodedUp,
  type ReplyMessage,
  sendPacketsAtOnce,
} from '@lumigrid/protocol';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SimGateway, type SimGatewayOptions } from './gateway.ts';

/**
 * Waits until a condition holds, failing after `timeoutMs` with what it waited for: tests wait for what the
 * simulator does, never for a fixed time.
 */
export async function poll(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 5));
  }
}

/** An Aedes broker on a free port, and a cloud-side client that records every up message and sends commands. */
export interface TestCloud {
  url: string;
  /** Every decoded up message, in arrival order. */
  readonly up: DecodedUp[];
  /**
   * Whether the cloud answers each online state on down/ack, as the Lumigrid server does (default true); off,
   * the gateways keep their up messages until `acknowledge(mac)`.
   */
  acknowledging: boolean;
  /** Answers the gateway's latest online state now; resolves once the broker took the answer. */
  acknowledge(mac: string): Promise<void>;
  call<N extends CommandName>(mac: string, name: N, params: CommandParams<N>): Promise<ReplyMessage>;
  close(): Promise<void>;
}

export async function startTestCloud(options: { refuseSubscription?: (topic: string) => boolean } = {}): Promise<TestCloud> {
  const broker = await Aedes.createBroker({
    // A subscription refused answers 0x80 in the SUBACK, as a broker short of resources does.
    authorizeSubscribe: (_client, subscription, done) =>
      options.refuseSubscription?.(subscription.topic) ? done(null, null) : done(null, subscription),
  });
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = await mqtt.connectAsync(url, { clientId: `cloud-${randomUUID()}`, protocolVersion: 4 });
  sendPacketsAtOnce(client);
  await client.subscribeAsync('lg/v1/+/up/#', { qos: 1 });
  const up: DecodedUp[] = [];
  const latestOnline = new Map<string, number | undefined>();
  const acknowledge = (mac: string) =>
    client
      .publishAsync(downTopic(mac, 'ack'), encodeOnlineAck({ state: latestOnline.get(mac), ts: Date.now() }), { qos: 1 })
      .then(() => undefined);
  const cloud: TestCloud = {
    url,
    up,
    acknowledging: true,
    acknowledge,
    async call(mac, name, params) {
      const id = randomUUID();
      const command = { id, name, params, ts: Date.now() } as CommandMessage;
      await client.publishAsync(downTopic(mac, name === 'config.apply' ? 'config' : 'cmd'), encodeCommand(command), { qos: 1 });
      let reply: ReplyMessage | undefined;
      await poll(() => {
        const found = up.find((m) => m.mac === mac && m.channel === 'reply' && m.message.id === id);
        if (found?.channel === 'reply') reply = found.message;
        return reply !== undefined;
      }, `the reply to ${name}`);
      return reply!;
    },
    async close() {
      await client.endAsync(true);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  client.on('message', (topic, payload) => {
    const decoded = decodeUp(topic, payload);
    if (!decoded.ok) throw new Error(`the simulator sent an invalid message on ${topic}: ${decoded.error.message}`);
    up.push(decoded.value);
    const { mac, channel, message } = decoded.value;
    if (channel !== 'state' || message.state !== 'online') return;
    latestOnline.set(mac, message.ts);
    if (cloud.acknowledging) void acknowledge(mac);
  });
  return cloud;
}

/**
 * A test cloud for the enclosing describe block (or file) and a starter of simulated gateways on it, numbered
 * `${macPrefix}0001`, `0002`, ... with the given defaults; every gateway a test started is stopped after it.
 */
export function gatewaysOnTestCloud(
  macPrefix: string,
  defaults: Partial<SimGatewayOptions> = {},
  cloudOptions: Parameters<typeof startTestCloud>[0] = {},
) {
  let cloud: TestCloud | undefined;
  const started: SimGateway[] = [];
  let nextMac = 1;

  beforeAll(async () => {
    cloud = await startTestCloud(cloudOptions);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((g) => g.stop()));
  });
  afterAll(async () => {
    await cloud?.close();
  });

  const current = (): TestCloud => {
    if (!cloud) throw new Error('the test cloud is not started: see the failure of beforeAll');
    return cloud;
  };
  async function startGateway(options: Partial<SimGatewayOptions> = {}): Promise<SimGateway> {
    const gateway = new SimGateway({
      mac: `${macPrefix}${(nextMac++).toString(16).toUpperCase().padStart(4, '0')}`,
      password: 'x',
      url: current().url,
      activityIntervalS: 0,
      faultRate: 0,
      ...defaults,
      ...options,
    });
    started.push(gateway);
    await gateway.start();
    return gateway;
  }
  return {
    get cloud() {
      return current();
    },
    startGateway,
  };
}
