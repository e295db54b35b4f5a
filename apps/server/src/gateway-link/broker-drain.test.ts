import { downTopic, encodeUp, upTopic } from '@lumigrid/protocol';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';
import { startEmbeddedBroker } from './broker.ts';
import { createMemoryCredentialStore, randomServerCredential } from './credentials.ts';
import { connectLinkClient } from './link-client.ts';

const SENDER = 'A4C138000001';
const FROZEN = 'A4C138000002';
const PASSWORD = 'drain-test-password';
const DRAIN_TIMEOUT_MS = 300;
/** Up messages of about 20 KB: 20 MB of them fill the loopback sockets between the broker and the server. */
const SAMPLES = 400;
const MESSAGES = 1000;

function telemetry(i: number): string {
  const samples = Array.from({ length: SAMPLES }, (_, s) => ({
    addr: s.toString(16).toUpperCase().padStart(4, '0'),
    power: i,
    energyWh: 1000 + s,
  }));
  return encodeUp('telemetry', { ts: 1_700_000_000_000 + i, samples });
}

describe("the embedded broker's drain timeout", () => {
  const closing: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  async function startBroker() {
    const credentials = createMemoryCredentialStore();
    await credentials.set(SENDER, PASSWORD);
    await credentials.set(FROZEN, PASSWORD);
    const server = randomServerCredential();
    const { logger, lines } = memoryLogger();
    const broker = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', credentials, server, logger, drainTimeoutMs: DRAIN_TIMEOUT_MS });
    closing.push(() => broker.close());
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const gateway = async (mac: string) => {
      const client = await mqtt.connectAsync(url, {
        clientId: mac,
        username: mac,
        password: PASSWORD,
        protocolVersion: 4,
        reconnectPeriod: 0,
      });
      closing.push(() => client.endAsync(true));
      return client;
    };
    return { broker, url, server, logger, lines, gateway };
  }

  it('keeps the server connected while it holds its reads back for longer, and loses nothing', async () => {
    const { broker, url, server, logger, lines, gateway } = await startBroker();
    const changes: boolean[] = [];
    const handled: number[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const link = await connectLinkClient({
      url,
      credential: server,
      logger,
      keepaliveS: 0,
      onMessage: async (message) => {
        // The first message waits as a consumer with a full queue would: the link stops reading.
        if (handled.length === 0) await released;
        if (message.channel === 'telemetry') handled.push(message.message.ts);
      },
      onStateCleared: () => undefined,
      onConnectionChange: (up) => changes.push(up),
    });
    closing.push(() => link.close());

    const sender = await gateway(SENDER);
    for (let i = 0; i < MESSAGES; i++) void sender.publishAsync(upTopic(SENDER, 'telemetry'), telemetry(i), { qos: 1 });
    await poll(() => broker.serverBacklogged() || changes.includes(false), "the server's socket full, or the link down", {
      timeoutMs: 30_000,
    });
    // What is tested is a timeout not firing: nothing can be awaited but the time itself.
    await new Promise((resolve) => setTimeout(resolve, DRAIN_TIMEOUT_MS * 5));
    expect(changes).toEqual([true]);
    expect(broker.serverBacklogged()).toBe(true);

    release();
    await poll(() => handled.length === MESSAGES || changes.includes(false), 'every message handled, or the link down', {
      timeoutMs: 60_000,
    });
    expect(changes).toEqual([true]);
    expect(handled).toEqual(Array.from({ length: MESSAGES }, (_, i) => 1_700_000_000_000 + i));
    expect(lines.filter((l) => /lost the MQTT broker/.test(l.msg))).toEqual([]);
  }, 120_000);

  it('puts out a gateway that stops reading what it is sent', async () => {
    const { broker, url, server, gateway } = await startBroker();
    const frozen = await gateway(FROZEN);
    await frozen.subscribeAsync(downTopic(FROZEN, 'cmd'), { qos: 0 });
    // It reads nothing from here on.
    frozen.stream.pause();
    expect(broker.gatewayConnections()).toBe(1);
    const commander = await mqtt.connectAsync(url, {
      clientId: `lumigrid-server-drain-${process.pid}`,
      username: server.username,
      password: server.password,
      protocolVersion: 4,
    });
    closing.push(() => commander.endAsync(true));
    const filler = 'x'.repeat(64 * 1024);
    const flood = setInterval(() => {
      for (let i = 0; i < 16; i++) commander.publish(downTopic(FROZEN, 'cmd'), filler, { qos: 0 });
    }, 10);
    closing.push(async () => clearInterval(flood));
    // A paused socket does not see its own reset: the broker's count tells.
    await poll(() => broker.gatewayConnections() === 0, 'the frozen gateway put out', { timeoutMs: 30_000 });
    clearInterval(flood);
  }, 60_000);
});
