import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { brokerNodes, decodeUp, PROTOCOL_VERSION, sendPacketsAtOnce, type DecodedUp, type UpChannel } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { ServerCredential } from './credentials.ts';
import { connectNatsUplink, type NatsUplink, type NatsUplinkOptions } from './nats-uplink.ts';

export interface LinkClientOptions {
  /** The broker, or a comma-separated list of a clustered broker's MQTT listeners (tried in turn on reconnect). */
  url: string;
  credential: ServerCredential | undefined;
  logger: FastifyBaseLogger;
  /**
   * Every decoded up message. A returned promise holds the message's PUBACK and the reading of the next
   * message until it settles: the backpressure of a consumer whose queue is full.
   */
  onMessage(message: DecodedUp): void | Promise<void>;
  /** A retained up/state was cleared (empty payload). */
  onStateCleared(mac: string): void;
  /**
   * With several server nodes on an external broker: report, telemetry and event go through this shared
   * subscription group so each message reaches one node. State and reply always reach every node, since
   * each keeps its own presence and its own command waiters.
   */
  sharedGroup?: string;
  /**
   * With a NATS cluster as the broker: report, telemetry and event come through NATS in this queue group instead
   * (nats-uplink.ts), since NATS's MQTT listener has no shared subscriptions; state, reply and the commands stay
   * on MQTT. Replaces sharedGroup.
   */
  natsUplink?: NatsUplinkOptions;
  /** Where to count messages; a fresh count when absent. */
  stats?: LinkStats;
  /**
   * MQTT keep-alive in seconds (default 20). A broker that vanished without closing the socket (its host
   * died, the network dropped) answers no PINGREQ: mqtt.js gives up 1.5 keep-alives after the last answer.
   */
  keepaliveS?: number;
  /** Wait between reconnect attempts (default 1000 ms). */
  reconnectPeriodMs?: number;
  /**
   * The link came up (connected and subscribed: messages flow and commands can be sent) or went down
   * (connection lost; mqtt.js reconnects by itself). Not called for the first connection's failure.
   */
  onConnectionChange?(up: boolean): void;
}

/** mqtt.js pings after this many seconds without an answer from the broker, and gives up half of it later. */
export const DEFAULT_KEEPALIVE_S = 20;

/** A publish refused because the link has no broker connection now. */
export class BrokerUnreachableError extends Error {
  constructor() {
    super('the MQTT broker is unreachable');
  }
}

/** Counts what was dropped, so tests and metrics can see a bad gateway without reading logs. */
export interface LinkStats {
  received: number;
  dropped: number;
}

/** The server's MQTT client: subscribes to every gateway's up topics, decodes, and publishes commands. */
export async function connectLinkClient(options: LinkClientOptions) {
  const { logger } = options;
  const stats: LinkStats = options.stats ?? { received: 0, dropped: 0 };
  const { url, servers } = brokerNodes(options.url);
  const client: MqttClient = mqtt.connect(url, {
    servers,
    clientId: `lumigrid-server-${randomBytes(6).toString('hex')}`,
    username: options.credential?.username,
    password: options.credential?.password,
    // A clean session: a broker that restarts loses sessions anyway, so the server subscribes afresh on every
    // connect (which also hands it every retained up/state again) and the gateways keep what they make until
    // the server answers their online state (docs/protocol.md section 3).
    clean: true,
    resubscribe: false,
    keepalive: options.keepaliveS ?? DEFAULT_KEEPALIVE_S,
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    connectTimeout: 10_000,
    protocolVersion: 4,
  });
  sendPacketsAtOnce(client);

  const base = `lg/${PROTOCOL_VERSION}/+/up`;
  const shared = (channel: string) => (options.sharedGroup ? `$share/${options.sharedGroup}/${base}/${channel}` : `${base}/${channel}`);
  const sharedChannels: UpChannel[] = ['report', 'telemetry', 'event'];
  const filters = [`${base}/state`, `${base}/reply`, ...(options.natsUplink ? [] : sharedChannels.map(shared))];

  const events = new EventEmitter();
  let up = false;
  let firstConnect = true;
  let closing = false;
  const changed = (now: boolean) => {
    if (up === now || closing) return;
    up = now;
    events.emit('change', now);
    options.onConnectionChange?.(now);
  };
  // NATS's MQTT listener makes each QoS 1 subscription a JetStream consumer, which cannot be made while the stream's
  // leader is being elected again after a broker node died (measured: 4-10 s, the subscription refused). The
  // server's session is clean, so QoS 1 kept nothing across connections anyway: at QoS 0 the subscriptions are
  // plain NATS ones, and retained states still come on each subscribe.
  const subscribeQos = options.natsUplink ? 0 : 1;
  // A QoS 1 publish to NATS's MQTT listener is stored in JetStream first; while a stream leader is elected again
  // after a broker node died, the store times out and NATS closes the publisher's connection (measured: the link
  // down 12 s, two resets). At QoS 0 a command goes to the gateway's subscription as a plain NATS message, which a
  // node's death does not hold up. Nothing is lost that QoS 1 kept: a command carries its own expiry and is answered
  // on up/reply, and one the gateway never got times out as any unanswered command does. Retained messages are
  // stored whatever the QoS, so they keep the PUBACK that says they were.
  const publishQos = options.natsUplink ? 0 : 1;
  client.on('connect', () => {
    client.subscribe(filters, { qos: subscribeQos }, (error, granted) => {
      const refused = (granted ?? []).filter((g) => g.qos === 128);
      if (refused.length) logger.error({ topics: refused.map((g) => g.topic) }, 'gateway link: the broker refused subscriptions');
      else if (error) logger.error({ err: error }, 'gateway link: subscribe failed');
      if (!client.connected) return;
      if (!firstConnect) logger.info('gateway link: broker reachable again');
      firstConnect = false;
      changed(true);
    });
  });
  client.on('close', () => {
    // A command the broker has not acknowledged is failed by the link now (a person is waiting); mqtt.js must
    // not send it by itself after a reconnect, when nobody waits for it any more.
    for (const id of Object.keys(client.outgoing)) client.removeOutgoingMessage(Number(id));
    if (up) logger.warn('gateway link: lost the MQTT broker, reconnecting');
    changed(false);
  });
  client.on('error', (error) => logger.warn({ err: error.message }, 'gateway link: MQTT error'));
  const handle = (topic: string, payload: Buffer): void | Promise<void> => {
    stats.received++;
    try {
      if (payload.byteLength === 0 && topic.endsWith('/up/state')) {
        const mac = topic.split('/')[2];
        if (mac) options.onStateCleared(mac);
        return;
      }
      const decoded = decodeUp(topic, payload);
      if (!decoded.ok) {
        stats.dropped++;
        logger.warn(
          { topic: topic.slice(0, 200), bytes: payload.byteLength, code: decoded.error.code, err: decoded.error.message.slice(0, 300) },
          'gateway message dropped',
        );
        return;
      }
      return options.onMessage(decoded.value);
    } catch (error) {
      // A handler's bug must not take the link down with it.
      stats.dropped++;
      logger.error({ err: error, topic: topic.slice(0, 200) }, 'gateway message handler failed');
    }
  };
  // mqtt.js sends the PUBACK and reads the next packet when this calls back, so a waiting consumer slows
  // the broker's deliveries down (and through it the gateways) instead of queueing without bound.
  let handling = 0;
  let lastReadAt = Date.now();
  client.on('packetreceive', () => (lastReadAt = Date.now()));
  client.handleMessage = (packet, callback) => {
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    const pending = handle(packet.topic, payload);
    if (!pending) return callback();
    handling++;
    const settled = () => {
      handling--;
      lastReadAt = Date.now();
      callback();
    };
    pending.then(settled, (error: unknown) => {
      logger.error({ err: error, topic: packet.topic.slice(0, 200) }, 'gateway message handler failed');
      settled();
    });
  };
  // The broker's PINGRESP comes after what it sent before it, and while the consumers hold the link back (a
  // gateway's history arriving, a database away) this server has not read that yet: the broker did not go
  // quiet, this server did. mqtt.js would call it a dead broker and drop the connection, and with it, a clean
  // session, whatever the broker still held for this server. The keep-alive gives up only once the server has
  // read nothing for a whole keep-alive with no message in hand; mqtt.js asks again every half keep-alive, and
  // each time this server pings again, so that the broker's own keep-alive does not drop it meanwhile.
  const keepaliveMs = (options.keepaliveS ?? DEFAULT_KEEPALIVE_S) * 1000;
  const giveUpOnBroker = client.onKeepaliveTimeout.bind(client);
  client.onKeepaliveTimeout = () => {
    if (handling > 0 || Date.now() - lastReadAt < keepaliveMs) client.sendPing();
    else giveUpOnBroker();
  };

  let uplink: NatsUplink | undefined;
  if (options.natsUplink)
    uplink = await connectNatsUplink({ ...options.natsUplink, channels: sharedChannels, logger, handle }).catch((error: unknown) => {
      client.end(true);
      throw error;
    });

  await new Promise<void>((resolve, reject) => {
    const stop = (error: Error) => {
      clearTimeout(timer);
      events.off('change', onUp);
      client.off('error', onError);
      client.end(true);
      void uplink?.close();
      reject(new Error(`cannot connect to the MQTT broker at ${options.url}: ${error.message}`));
    };
    // Started once connected and subscribed, so the first command finds the link up.
    const onUp = () => {
      clearTimeout(timer);
      client.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => stop(error);
    // A broker that never answers (or refuses the socket, which mqtt.js retries quietly) fails the start.
    const timer = setTimeout(() => stop(new Error('no answer in 10 s')), 10_000);
    events.once('change', onUp);
    client.once('error', onError);
    // The MQTT side may have come up while the NATS side was connecting.
    if (up) {
      events.off('change', onUp);
      onUp();
    }
  });

  return {
    stats,
    /** Uplink received through NATS and not yet handled (0 without NATS_URL). */
    get uplinkPending() {
      return uplink?.pending ?? 0;
    },
    /**
     * Publishes with QoS 1 and resolves on the broker's PUBACK (with a NATS broker, QoS 0 but for retained
     * messages, resolved once written). Refused at once while the broker is unreachable, and failed when the
     * connection drops before the PUBACK: nothing is sent late.
     */
    publish(topic: string, payload: string, opts: { retain?: boolean } = {}): Promise<void> {
      // A live connection is enough here; the command bus itself waits for `connected` (subscribed) before it sends.
      if (!client.connected || closing) return Promise.reject(new BrokerUnreachableError());
      const retain = opts.retain ?? false;
      return new Promise((resolve, reject) =>
        client.publish(topic, payload, { qos: retain ? 1 : publishQos, retain }, (error) => (error ? reject(error) : resolve())),
      );
    },
    /** Connected and subscribed. */
    get connected() {
      return up;
    },
    async close() {
      closing = true;
      up = false;
      // The queue group's other members take this node's share from here on.
      await uplink?.close();
      await client.endAsync();
    },
  };
}
export type LinkClient = Awaited<ReturnType<typeof connectLinkClient>>;
