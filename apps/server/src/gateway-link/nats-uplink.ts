import { topicOfNatsSubject, upNatsSubject, type UpChannel } from '@lumigrid/protocol';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerCredential } from './credentials.ts';

/** How long a closing link waits for NATS to confirm it left the queue group. */
const DRAIN_MS = 2000;

/** Where the server nodes take the gateways' uplink from a NATS cluster (NATS_URL, docs/operations.md). */
export interface NatsUplinkOptions {
  /** host:port (or nats://host:port) of the cluster's nodes; the client learns the others from the cluster. */
  servers: string[];
  /** The queue group of the server nodes: each message reaches one member. */
  group: string;
  credential?: ServerCredential;
}

/**
 * Subscribes to `channels` of every gateway through NATS itself in a queue group: a NATS broker's MQTT listener
 * has no `$share` subscriptions, and a gateway's MQTT publish reaches NATS subscribers of the same subject
 * ('/' becomes '.'). Messages are handed to `handle` one at a time in the order they arrived; NATS core has no
 * acknowledgement to hold back, so a node that falls behind keeps the rest in its memory (`pending`).
 */
export async function connectNatsUplink(
  options: NatsUplinkOptions & {
    channels: readonly UpChannel[];
    logger: FastifyBaseLogger;
    handle(topic: string, payload: Buffer): void | Promise<void>;
  },
) {
  const { logger } = options;
  let connection: NatsConnection;
  try {
    connection = await connect({
      servers: options.servers,
      name: 'lumigrid-server',
      user: options.credential?.username,
      pass: options.credential?.password,
      // A cluster node that dies costs a reconnect to another one; the client never gives up.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      timeout: 10_000,
    });
  } catch (error) {
    throw new Error(`cannot connect to NATS at ${options.servers.join(',')}: ${(error as Error).message}`, { cause: error });
  }
  let pending = 0;
  let chain: Promise<void> = Promise.resolve();
  for (const channel of options.channels) {
    connection.subscribe(upNatsSubject(channel), {
      queue: options.group,
      callback(error, message) {
        if (error) {
          logger.error({ err: error.message, channel }, 'gateway link: NATS subscription failed');
          return;
        }
        const topic = topicOfNatsSubject(message.subject);
        // The message's bytes are a view of the connection's buffer, which it reuses.
        const payload = Buffer.from(message.data);
        pending++;
        chain = chain
          .then(() => options.handle(topic, payload))
          .catch((failure: unknown) => logger.error({ err: failure, topic: topic.slice(0, 200) }, 'gateway message handler failed'))
          .finally(() => pending--);
      },
    });
  }
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') logger.warn({ server: status.server }, 'gateway link: lost a NATS node, reconnecting');
      else if (status.type === 'reconnect') logger.info({ server: status.server }, 'gateway link: NATS reachable again');
      else if (status.type === 'slowConsumer') logger.warn({ pending: status.pending }, 'gateway link: NATS uplink falls behind');
    }
  })();
  // Subscribed at the server before the link counts as up, so no report of the first moments goes to no one.
  await connection.flush();

  return {
    /** Messages received and not yet handled. */
    get pending() {
      return pending;
    },
    /** Leaves the queue group (the others take its share), handles what had arrived, and disconnects. */
    async close() {
      if (!connection.isClosed()) {
        // A drain waits for the server: one that is gone must not hold a stopping node past its deadline.
        let timer: NodeJS.Timeout | undefined;
        const drained = await Promise.race([
          connection.drain().then(
            () => true,
            () => false,
          ),
          new Promise<false>((done) => (timer = setTimeout(() => done(false), DRAIN_MS))),
        ]);
        clearTimeout(timer);
        if (!drained) await connection.close();
      }
      await chain;
    },
  };
}
export type NatsUplink = Awaited<ReturnType<typeof connectNatsUplink>>;
