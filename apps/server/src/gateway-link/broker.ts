import { timingSafeEqual } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { MAX_PAYLOAD_BYTES, normaliseMac } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { mayPublish, maySubscribe, mayUseClientId, type LinkIdentity } from './acl.ts';
import { boundEmitterRecursion } from './emitter-depth.ts';
import {
  createGatewayVerifier,
  VerifierBusyError,
  type GatewayCredentialStore,
  type GatewayVerifierOptions,
  type ServerCredential,
} from './credentials.ts';

export interface EmbeddedBrokerOptions {
  /** 0 picks a free port (tests); the chosen one is in `port` afterwards. */
  port: number;
  host?: string;
  credentials: GatewayCredentialStore;
  server: ServerCredential;
  /** Pacing and memory of the gateway password checks (credentials.ts); defaults for the server. */
  verifier?: GatewayVerifierOptions;
  /** How long a gateway may leave its socket full (not reading what it is sent) before it is put out; default 60 s. */
  drainTimeoutMs?: number;
  logger: FastifyBaseLogger;
}

export interface EmbeddedBroker {
  readonly port: number;
  /** Closes every connection of a gateway (its password was revoked); answers how many there were. */
  disconnectGateway(mac: string): number;
  /** Gateway connections open now (the server's own client is not counted). */
  gatewayConnections(): number;
  /** Gateway sign-ins whose password check runs or waits its turn. */
  pendingSignIns(): number;
  /** The server's connection has a full socket now: it holds its reads back while its consumers catch up. */
  serverBacklogged(): boolean;
  close(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 60_000;

/** The port is taken: main.ts prints the message as its one-line reason to stop. */
export class BrokerPortInUseError extends Error {
  constructor(readonly port: number) {
    super(`MQTT port ${port} is already in use: set MQTT_PORT to a free port, or MQTT_URL to use an external broker`);
  }
}

/** MQTT 3.1.1 connect refusals: 3 server unavailable, 4 bad user name or password, 5 not authorised. */
function authError(message: string, returnCode: 3 | 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/** Aedes's per-connection wait for a full socket to drain, which its `drainTimeout` bounds for every connection. */
type DrainingClient = Client & { conn: { once(event: 'drain', listener: () => void): unknown }; waitForDrain(callback: () => void): void };

/**
 * The server's own connection waits for its socket to drain as long as it takes. The server stops reading on
 * purpose while its consumers catch up (link-client.ts), and holds the gateways' publishes back through the
 * broker that way; cutting it would drop everything sent to its clean session meanwhile. A gateway that stops
 * reading is still put out after the drain timeout, so it cannot hold up the others. Answers whether the
 * connection waits now.
 */
function waitIndefinitelyForDrain(client: Client): () => boolean {
  const draining = client as DrainingClient;
  let waits = 0;
  draining.waitForDrain = (callback) => {
    waits++;
    draining.conn.once('drain', () => {
      waits--;
      callback();
    });
  };
  return () => waits > 0;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Aedes inside the server. Every connection authenticates: the server with its own credential, a gateway
 * with its MAC as username and the password whose hash the credential store holds. The ACL of acl.ts
 * decides each publish (last wills included) and each subscription.
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { logger } = options;
  const identities = new WeakMap<Client, LinkIdentity>();
  const serverBackloggedNow = new Map<Client, () => boolean>();
  const verifyGateway = createGatewayVerifier(options.credentials, options.verifier);

  const aedes = await Aedes.createBroker({
    // A gateway that says nothing for 1.5 keep-alives is gone; its last will then marks it offline.
    connectTimeout: 10_000,
    drainTimeout: options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS,
    authenticate(client, username, password, done) {
      const secret = password?.toString('utf8') ?? '';
      if (username === options.server.username) {
        const who: LinkIdentity = { kind: 'server' };
        if (!sameSecret(secret, options.server.password) || !mayUseClientId(who, client.id))
          return done(authError('bad server credential', 4), false);
        identities.set(client, who);
        serverBackloggedNow.set(client, waitIndefinitelyForDrain(client));
        return done(null, true);
      }
      const mac = username === undefined ? undefined : normaliseMac(username);
      if (!mac || mac !== username) return done(authError('username must be the gateway MAC (12 upper-case hex digits)', 4), false);
      const who: LinkIdentity = { kind: 'gateway', mac };
      if (!mayUseClientId(who, client.id)) return done(authError('client id must be the gateway MAC', 5), false);
      verifyGateway(mac, secret).then(
        (ok) => {
          if (!ok) {
            logger.warn({ mac }, 'gateway refused: wrong or unknown credentials');
            return done(authError('bad gateway credentials', 4), false);
          }
          identities.set(client, who);
          done(null, true);
        },
        (error: Error) => {
          // A full waiting line is the pacing working (a fleet reconnecting at once): the gateway backs off and retries.
          if (error instanceof VerifierBusyError) logger.debug({ mac }, 'gateway sign-in deferred: too many waiting');
          // The credential store could not answer: the gateway should retry, not be told its password is wrong.
          else logger.error({ mac, err: error }, 'gateway sign-in could not be checked');
          done(authError('server unavailable', 3), false);
        },
      );
    },
    authorizePublish(client, packet, callback) {
      // Publishes without a client come from inside the broker (a peer broker's will): trusted.
      if (!client) return callback(null);
      // Aedes has no packet size limit of its own: refuse what no reader would accept before it is
      // forwarded or retained.
      const size = typeof packet.payload === 'string' ? Buffer.byteLength(packet.payload) : packet.payload.byteLength;
      if (size > MAX_PAYLOAD_BYTES) {
        logger.warn({ clientId: client.id, topic: packet.topic.slice(0, 200), bytes: size }, 'MQTT publish refused: payload too large');
        return callback(new Error('payload too large'));
      }
      const who = identities.get(client);
      if (who && mayPublish(who, packet.topic)) return callback(null);
      logger.warn({ clientId: client.id, topic: packet.topic.slice(0, 200) }, 'MQTT publish refused by the ACL');
      callback(new Error('not authorised to publish there'));
    },
    authorizeSubscribe(client, subscription, callback) {
      const who = identities.get(client);
      if (who && maySubscribe(who, subscription.topic)) return callback(null, subscription);
      logger.warn({ clientId: client.id, topic: subscription.topic.slice(0, 200) }, 'MQTT subscription refused by the ACL');
      // MQTT 3.1.1: a null subscription answers SUBACK 0x80 (failure) without closing the connection.
      callback(null, null);
    },
  });
  boundEmitterRecursion((aedes as unknown as { mq: unknown }).mq);
  // Live connections per gateway, so a revoked gateway can be put out at once.
  const connections = new Map<string, Set<Client>>();
  aedes.on('client', (client) => {
    const who = identities.get(client);
    if (who?.kind !== 'gateway') return;
    const set = connections.get(who.mac) ?? new Set<Client>();
    set.add(client);
    connections.set(who.mac, set);
  });
  aedes.on('clientDisconnect', (client) => {
    serverBackloggedNow.delete(client);
    const who = identities.get(client);
    if (who?.kind !== 'gateway') return;
    const set = connections.get(who.mac);
    set?.delete(client);
    if (set?.size === 0) connections.delete(who.mac);
  });
  aedes.on('clientError', (client, error) => logger.debug({ clientId: client.id, err: error.message }, 'MQTT client error'));
  aedes.on('connectionError', (client, error) => logger.debug({ clientId: client.id, err: error.message }, 'MQTT connection error'));

  const server: Server = createServer({ noDelay: true }, aedes.handle);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new BrokerPortInUseError(options.port) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port, options.host ?? '0.0.0.0');
  }).catch(async (error: unknown) => {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    throw error;
  });
  server.on('error', (error) => logger.error({ err: error }, 'MQTT listener error'));
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'embedded MQTT broker listening');

  return {
    port,
    disconnectGateway(mac: string): number {
      const set = connections.get(mac);
      if (!set) return 0;
      connections.delete(mac);
      for (const client of set) client.close();
      return set.size;
    },
    gatewayConnections(): number {
      let n = 0;
      for (const set of connections.values()) n += set.size;
      return n;
    },
    pendingSignIns(): number {
      return verifyGateway.pending();
    },
    serverBacklogged(): boolean {
      for (const backlogged of serverBackloggedNow.values()) if (backlogged()) return true;
      return false;
    },
    async close() {
      verifyGateway.flush();
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
