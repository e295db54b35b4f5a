import { downTopic, encodeOnlineAck, upTopic, type DecodedUp } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';
import { createCommandBus } from './command-bus.ts';
import { randomServerCredential, type GatewayCredentialStore, type GatewayVerifierOptions, type ServerCredential } from './credentials.ts';
import { createFirmwareTracker, type FirmwareProgress, type FirmwareStore } from './firmware-tracker.ts';
import { connectLinkClient, type LinkClient, type LinkStats } from './link-client.ts';
import type { NatsUplinkOptions } from './nats-uplink.ts';
import { createPresence } from './presence.ts';

export interface GatewayLinkOptions {
  /**
   * An external broker (Mosquitto, EMQX), or the MQTT listeners of a NATS cluster's nodes comma-separated; without
   * it Aedes runs inside the server on `port`.
   */
  mqttUrl?: string;
  /** Port of the embedded broker; 0 picks a free one. */
  port: number;
  host?: string;
  /** Gateway passwords, checked by the embedded broker (an external broker checks its own). */
  credentials: GatewayCredentialStore;
  /** The server's own credential: at an external broker (else user:password of mqttUrl); embedded, random when absent. */
  serverCredential?: ServerCredential;
  /** Shared subscription group for several server nodes on an external broker. */
  sharedGroup?: string;
  /** With a NATS cluster as the broker: the uplink through NATS in a queue group instead of sharedGroup (NATS_URL). */
  natsUplink?: NatsUplinkOptions;
  /** Firmware update watchdog, default 25 minutes. */
  firmwareTimeoutMs?: number;
  /** Where firmware updates are kept for every server node (the gateways table); this process's memory without it. */
  firmwareStore?: FirmwareStore;
  /**
   * MQTT keep-alive of the server's client at an external broker, in seconds (link-client.ts); a lost broker is
   * noticed within 1.5 of them.
   */
  keepaliveS?: number;
  /** Wait between reconnect attempts to the broker (default 1000 ms). */
  reconnectPeriodMs?: number;
  /**
   * How long after the broker is back a gateway may stay unknown (its state not heard again) before it is
   * offline (lost): the time a gateway takes to reconnect to a restarted broker. Default 60 s.
   */
  presenceSettleMs?: number;
  /**
   * How long a gateway may be away before its users hear it is offline (presence.ts): a reconnect inside it
   * changes nothing. Default 0 (told at once); the server passes PRESENCE_GRACE_S.
   */
  presenceGraceMs?: number;
  /** Pacing and memory of the embedded broker's gateway password checks (credentials.ts). */
  verifier?: GatewayVerifierOptions;
  logger: FastifyBaseLogger;
}

const PRESENCE_SETTLE_MS = 60_000;

/** A listener that answers a promise holds the next message back until it settles (backpressure). */
type UpListener = (message: DecodedUp) => unknown;

/** The external broker credential: explicit, or the user:password of the (first) URL. */
function externalCredential(
  urls: string,
  explicit: ServerCredential | undefined,
): { url: string; credential: ServerCredential | undefined } {
  const [first = '', ...rest] = urls.split(',').map((u) => u.trim());
  const parsed = new URL(first);
  const fromUrl = parsed.username
    ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) }
    : undefined;
  parsed.username = '';
  parsed.password = '';
  return { url: [parsed.toString(), ...rest].join(','), credential: explicit ?? fromUrl };
}

/**
 * The server's side of the gateway protocol: the broker (embedded or external), the server's client,
 * presence from up/state, the command bus and firmware updates. Domain services subscribe with onUp.
 * It is made first and started last, so every listener is in place before the first message arrives;
 * commands before start() fail as "not connected".
 */
export function createGatewayLink(options: GatewayLinkOptions) {
  const { logger } = options;
  const presence = createPresence(Date.now, { graceMs: options.presenceGraceMs });
  const upListeners = new Set<UpListener>();
  const firmwareListeners = new Set<(p: FirmwareProgress) => void>();
  const stats: LinkStats = { received: 0, dropped: 0 };

  let broker: EmbeddedBroker | undefined;
  let client: LinkClient | undefined;
  let settleTimer: NodeJS.Timeout | undefined;
  /** When a gateway was last heard online (epoch ms): a fleet still returning is not settled yet. */
  let lastOnlineAt = 0;
  const bus = createCommandBus({
    publish: (topic, payload) => (client ? client.publish(topic, payload) : Promise.reject(new Error('the gateway link is not connected'))),
    isConnected: () => client?.connected ?? false,
    isOnline: (mac) => presence.isOnline(mac),
    waitOnline: (mac, ms) => presence.waitOnline(mac, ms),
    logger,
  });
  const firmware = createFirmwareTracker({
    bus,
    logger,
    timeoutMs: options.firmwareTimeoutMs,
    store: options.firmwareStore,
    onResult: (p) => {
      for (const listener of firmwareListeners) listener(p);
    },
  });

  /** Hands a decoded message to the domain listeners; a listener that answers a promise holds the link back. */
  function notifyUp(message: DecodedUp): Promise<void> | undefined {
    let waits: Array<Promise<void>> | undefined;
    for (const listener of upListeners) {
      // One domain's failure must not keep the message from the others.
      try {
        const pending = listener(message);
        if (pending instanceof Promise)
          (waits ??= []).push(
            pending.catch((error: unknown) =>
              logger.error({ err: error, mac: message.mac, channel: message.channel }, 'gateway message listener failed'),
            ),
          );
      } catch (error) {
        logger.error({ err: error, mac: message.mac, channel: message.channel }, 'gateway message listener failed');
      }
    }
    if (waits) return Promise.all(waits).then(() => undefined);
    return undefined;
  }

  /**
   * The broker went (the server cannot know any gateway's connection: unknown, and the commands waiting for
   * it fail now) or came back (every retained up/state arrives again; what is not heard of within the settle
   * time is offline). With the embedded broker the server is the broker: only a close ends the connection.
   */
  function brokerChanged(up: boolean) {
    clearTimeout(settleTimer);
    settleTimer = undefined;
    if (!up) {
      presence.markAllUnknown();
      bus.brokerLost();
      return;
    }
    settle(options.presenceSettleMs ?? PRESENCE_SETTLE_MS, 0);
  }

  /**
   * Settles the unknown after `ms`. While the fleet is still coming back (gateways wait in the embedded broker's
   * line for their password check, or one came online in the last quarter of the settle time) it looks again
   * later, up to five settle times in all: a slow return is not a gateway lost.
   */
  function settle(ms: number, waited: number) {
    settleTimer = setTimeout(() => {
      const settleMs = options.presenceSettleMs ?? PRESENCE_SETTLE_MS;
      const returning = (broker?.pendingSignIns() ?? 0) > 0 || Date.now() - lastOnlineAt < settleMs / 4;
      if (returning && waited + ms < 5 * settleMs) settle(Math.max(1000, settleMs / 10), waited + ms);
      else presence.settleUnknown();
    }, ms);
    settleTimer.unref();
  }

  /**
   * Answers an online state on down/ack: the server hears this gateway now, so what the gateway stored while
   * nobody listened may come (docs/protocol.md section 3). Every node answers; one answer is enough. Answered
   * every time it comes, a repeat too: a gateway repeats its online state until an answer reaches it (the node
   * that heard it first may have died before answering), and presence ignores the repeat.
   */
  function acknowledgeOnline(mac: string, stateTs: number | undefined) {
    const payload = encodeOnlineAck({ ...(stateTs !== undefined ? { state: stateTs } : {}), ts: Date.now() });
    client
      ?.publish(downTopic(mac, 'ack'), payload)
      .catch((error: Error) => logger.debug({ mac, err: error.message }, 'online state not answered'));
  }

  return {
    /** The embedded broker's port once started; undefined with an external broker. */
    get brokerPort(): number | undefined {
      return broker?.port;
    },
    /** Gateway connections at the embedded broker; undefined with an external one, which keeps its own count. */
    gatewayConnections(): number | undefined {
      return broker?.gatewayConnections();
    },
    /** Whether the server is connected to its broker now (connected and subscribed). */
    get connected(): boolean {
      return client?.connected ?? false;
    },
    bus,
    presence,
    firmware,
    /** Messages received and dropped as malformed since start. */
    stats,

    /** Starts the broker (embedded) and connects the server's client; messages flow to the listeners from here on. */
    async start(): Promise<void> {
      let url: string;
      let credential: ServerCredential | undefined;
      if (options.mqttUrl) {
        ({ url, credential } = externalCredential(options.mqttUrl, options.serverCredential));
      } else {
        credential = options.serverCredential ?? randomServerCredential();
        broker = await startEmbeddedBroker({
          port: options.port,
          host: options.host,
          credentials: options.credentials,
          server: credential,
          verifier: options.verifier,
          logger,
        });
        url = `mqtt://127.0.0.1:${broker.port}`;
      }
      client = await connectLinkClient({
        url,
        credential,
        logger,
        stats,
        sharedGroup: options.sharedGroup,
        natsUplink: options.natsUplink,
        // The embedded broker runs in this process: a keep-alive would only time this process's own event loop, and
        // the broker would put the server out for a long read pause, with whatever its clean session held.
        keepaliveS: options.mqttUrl ? options.keepaliveS : 0,
        reconnectPeriodMs: options.reconnectPeriodMs,
        onConnectionChange: brokerChanged,
        onStateCleared: (mac) => presence.forget(mac),
        onMessage(message) {
          if (message.channel === 'state') {
            const droppedBefore = presence.get(message.mac)?.info?.uplinkDropped ?? 0;
            const p = presence.update(message.mac, message.message);
            logger.debug({ mac: message.mac, online: p.online, reason: p.reason }, 'gateway presence');
            if (message.message.state === 'online') {
              lastOnlineAt = Date.now();
              acknowledgeOnline(message.mac, message.message.ts);
              const dropped = message.message.info.uplinkDropped ?? 0;
              if (dropped > droppedBefore)
                logger.warn({ mac: message.mac, dropped }, 'gateway dropped up messages: its store-and-forward queue was full');
            }
          } else if (message.channel === 'reply') {
            bus.handleReply(message.mac, message.message);
          } else if (message.channel === 'event' && message.message.type === 'firmware') {
            // Stored before the next message is read, so progress and the outcome keep their order.
            const stored = firmware.handleEvent(message.mac, message.message);
            if (stored) return stored.then(() => notifyUp(message));
          }
          return notifyUp(message);
        },
      }).catch(async (error: unknown) => {
        await broker?.close();
        broker = undefined;
        throw error;
      });
    },

    /** Observes every decoded up message (reports, telemetry, events, states, replies). */
    onUp(listener: UpListener): () => void {
      upListeners.add(listener);
      return () => upListeners.delete(listener);
    },
    /** Observes the outcome of every firmware update. */
    onFirmwareResult(listener: (p: FirmwareProgress) => void): () => void {
      firmwareListeners.add(listener);
      return () => firmwareListeners.delete(listener);
    },
    /**
     * Puts a gateway out now (embedded broker; an external broker needs its own tooling): for a revoked
     * password. Its last will marks it offline, and its reconnects are refused by the credential store.
     */
    disconnectGateway(mac: string): number {
      return broker?.disconnectGateway(mac) ?? 0;
    },
    /** Clears a removed gateway's retained state so it no longer shows as offline forever. */
    async clearState(mac: string): Promise<void> {
      presence.forget(mac);
      if (client) await client.publish(upTopic(mac, 'state'), '', { retain: true });
    },
    /** Commands sent or queued that have no outcome yet. */
    pendingCommands(): number {
      return bus.pendingCount();
    },
    /** Answers every command still waiting with SERVER_STOPPING and refuses new ones (a node that is stopping). */
    stopCommands(): void {
      bus.close();
    },
    async close() {
      clearTimeout(settleTimer);
      firmware.close();
      bus.close();
      presence.close();
      upListeners.clear();
      firmwareListeners.clear();
      await client?.close();
      await broker?.close();
    },
  };
}
export type GatewayLink = ReturnType<typeof createGatewayLink>;

/** Makes and starts a link at once, for callers that subscribe after messages may flow (tests, tools). */
export async function startGatewayLink(options: GatewayLinkOptions): Promise<GatewayLink> {
  const link = createGatewayLink(options);
  await link.start();
  return link;
}
