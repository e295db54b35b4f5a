import { FAULT_CODES, encodeUp, upTopic, type DecodedUp } from '@lumigrid/protocol';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger, startPlainBroker } from '../test/gateway-link.fixtures.ts';
import { poll } from '../test/poll.ts';
import { connectLinkClient, type LinkClient } from './link-client.ts';

/** Short, so a test sees several keep-alives; two seconds, so a busy machine's pause of a second is not a dead link. */
const KEEPALIVE_S = 2;
const MESSAGES = 30;
const MAC = '0A1B2C3D4E5F';
/**
 * Pings the broker hears from the server while its first message is held: mqtt.js pings once a keep-alive after
 * the last answer and gives up half a keep-alive later, so a third ping is heard only from a link that kept going.
 */
const PINGS_WHILE_HELD = 3;

describe('the link client under its own backpressure', () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it('keeps its broker connection while its consumer holds a backlog for several keep-alives (a database away), and loses nothing', async () => {
    const { url, broker, close } = await startPlainBroker();
    closing.push(close);
    let serverPings = 0;
    broker.on('ping', (_packet, client) => {
      if (client.id.startsWith('lumigrid-server-')) serverPings++;
    });
    const handled: DecodedUp[] = [];
    const changes: boolean[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const { logger, lines } = memoryLogger();
    const link: LinkClient = await connectLinkClient({
      url,
      credential: undefined,
      logger,
      keepaliveS: KEEPALIVE_S,
      onMessage: async (message) => {
        if (handled.length === 0) await released;
        handled.push(message);
      },
      onStateCleared: () => undefined,
      onConnectionChange: (up) => changes.push(up),
    });
    closing.push(() => link.close());

    const gateway = await mqtt.connectAsync(url, { clientId: `gateway-${MAC}`, protocolVersion: 4 });
    closing.push(() => gateway.endAsync());
    // Sent at once, as a gateway sends its history: the broker writes all of it to the server's socket, and its
    // answers to the server's pings queue behind it.
    await Promise.all(
      Array.from({ length: MESSAGES }, (_, i) =>
        gateway.publishAsync(
          upTopic(MAC, 'event'),
          encodeUp('event', { type: 'fault', ts: 1_700_000_000_000 + i, addr: '0001', code: FAULT_CODES.led, raised: i % 2 === 0 }),
          { qos: 1 },
        ),
      ),
    );

    await poll(
      () => serverPings >= PINGS_WHILE_HELD || changes.includes(false),
      'the server pinging while it holds a message, or the link down',
      {
        timeoutMs: 30_000,
      },
    );
    release();
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
});
