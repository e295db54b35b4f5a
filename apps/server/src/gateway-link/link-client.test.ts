import { createServer, type AddressInfo, type Server } from 'node:net';
import { FAULT_CODES, encodeUp, upTopic, type DecodedUp } from '@lumigrid/protocol';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';
import { connectLinkClient, type LinkClient } from './link-client.ts';

/** A plain Aedes broker on a free port: the link's own reading of the socket is what is under test. */
async function startBroker(): Promise<{ url: string; close(): Promise<void> }> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const KEEPALIVE_S = 1;
/** Each message held this long: together, several keep-alives of a server busy with what it was sent. */
const HANDLING_MS = 150;
const MESSAGES = 30;

describe('the link client under its own backpressure', () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it('keeps its broker connection while its consumers hold a backlog longer than the keep-alive, and loses nothing', async () => {
    const broker = await startBroker();
    closing.push(() => broker.close());
    const handled: DecodedUp[] = [];
    const changes: boolean[] = [];
    const { logger, lines } = memoryLogger();
    const link: LinkClient = await connectLinkClient({
      url: broker.url,
      credential: undefined,
      logger,
      keepaliveS: KEEPALIVE_S,
      onMessage: async (message) => {
        await new Promise((resolve) => setTimeout(resolve, HANDLING_MS));
        handled.push(message);
      },
      onStateCleared: () => undefined,
      onConnectionChange: (up) => changes.push(up),
    });
    closing.push(() => link.close());

    const gateway = await mqtt.connectAsync(broker.url, { clientId: 'gateway-0A1B2C3D4E5F', protocolVersion: 4 });
    closing.push(() => gateway.endAsync());
    const mac = '0A1B2C3D4E5F';
    // Sent at once, as a gateway sends its history: the broker writes all of it to the server's socket, and the
    // answer to the server's PINGREQ queues behind it.
    await Promise.all(
      Array.from({ length: MESSAGES }, (_, i) =>
        gateway.publishAsync(
          upTopic(mac, 'event'),
          encodeUp('event', { type: 'fault', ts: 1_700_000_000_000 + i, addr: '0001', code: FAULT_CODES.led, raised: i % 2 === 0 }),
          { qos: 1 },
        ),
      ),
    );

    await poll(() => handled.length === MESSAGES || changes.includes(false), 'every message handled, or the link down', {
      timeoutMs: 30_000,
    });
    expect(changes).toEqual([true]);
    expect(handled.map((m) => (m.channel === 'event' ? m.message.ts : 0))).toEqual(
      Array.from({ length: MESSAGES }, (_, i) => 1_700_000_000_000 + i),
    );
    expect(link.connected).toBe(true);
    expect(lines.filter((l) => /MQTT error|lost the MQTT broker/.test(l.msg))).toEqual([]);
  }, 60_000);

  it('keeps its broker connection while a consumer holds one message for several keep-alives (a database away)', async () => {
    const broker = await startBroker();
    closing.push(() => broker.close());
    const handled: number[] = [];
    const changes: boolean[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const link: LinkClient = await connectLinkClient({
      url: broker.url,
      credential: undefined,
      logger: memoryLogger().logger,
      keepaliveS: KEEPALIVE_S,
      onMessage: async (message) => {
        if (message.channel !== 'event') return;
        if (handled.length === 0) await released;
        handled.push(message.message.ts);
      },
      onStateCleared: () => undefined,
      onConnectionChange: (up) => changes.push(up),
    });
    closing.push(() => link.close());
    const gateway = await mqtt.connectAsync(broker.url, { clientId: 'gateway-0A1B2C3D4E60', protocolVersion: 4 });
    closing.push(() => gateway.endAsync());
    const fault = (ts: number) =>
      gateway.publishAsync(
        upTopic('0A1B2C3D4E60', 'event'),
        encodeUp('event', { type: 'fault', ts, addr: '0001', code: FAULT_CODES.led, raised: true }),
        { qos: 1 },
      );
    await Promise.all([fault(1), fault(2), fault(3)]);

    // Held for four keep-alives: the broker drops a client it hears nothing from for one and a half.
    const heldUntil = Date.now() + 4 * KEEPALIVE_S * 1000;
    await poll(() => Date.now() >= heldUntil || changes.includes(false), 'four keep-alives, or the link down', { timeoutMs: 30_000 });
    release();
    await poll(() => handled.length === 3 || changes.includes(false), 'every message handled, or the link down', { timeoutMs: 30_000 });
    expect(changes).toEqual([true]);
    expect(handled).toEqual([1, 2, 3]);
  }, 60_000);
});
