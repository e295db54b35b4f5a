import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { REALTIME_ENDPOINT, userDestination, type Destination, type UserTopic, type UserTopicMessages } from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import sockjs from 'sockjs';
import { addUserTopics, createDestinationRouter, type DestinationRoute } from './destinations.ts';
import { createLocalBus, type RealtimeBus, type RealtimeEvent, type SessionsEndedEvent } from './realtime-bus.ts';
import { createStompConnection, type RealtimeAuthenticate, type StompConnection, type StompConnectionOptions } from './stomp-connection.ts';
import { DEFAULT_PARSER_LIMITS } from './stomp-frame.ts';

export interface RealtimeOptions extends StompConnectionOptions {
  /** Open connections one user may hold (tabs, devices); one more is refused at CONNECT. */
  maxConnectionsPerUser: number;
  /** SockJS's own heart-beat towards the browser (keeps proxies from closing idle streams), ms. */
  sockjsHeartbeatMs: number;
  /** Sockets that have not signed in yet, over all users; more are closed at once (a flood, not browsers). */
  maxPendingConnections: number;
}

export const DEFAULT_REALTIME_OPTIONS: RealtimeOptions = {
  heartBeatSendMs: 10_000,
  heartBeatReceiveMs: 10_000,
  heartBeatGrace: 3,
  connectTimeoutMs: 10_000,
  revalidateMs: 60_000,
  maxSubscriptions: 32,
  maxConnectionsPerUser: 20,
  maxPendingConnections: 1_000,
  sockjsHeartbeatMs: 25_000,
  parser: DEFAULT_PARSER_LIMITS,
};

export interface RealtimeHubDeps {
  authenticate: RealtimeAuthenticate;
  logger: FastifyBaseLogger;
  /** Cross-node fan-out; the in-process bus by default. */
  bus?: RealtimeBus;
  options?: Partial<RealtimeOptions>;
  /** Checks every message published against the contract's live topics and says what is wrong (tests). */
  checkMessages?: { check: (destination: string, payload: unknown) => string | undefined; report: (problem: string) => void };
}

/** The pieces of the hub other modules use: publishing, ending sessions, adding topics. */
export interface RealtimeHub {
  /** Sends a JSON payload to every subscriber of a destination on every node. */
  publish<Message>(destination: Destination<Message>, payload: Message): void;
  /** Sends to one user's own topic, `/topic/{topic}/{userId}`. */
  publishToUser<Topic extends UserTopic>(userId: bigint | string, topic: Topic, payload: UserTopicMessages[Topic]): void;
  /** Closes the sockets of ended sessions (sign-out, password change, disabled account) on every node. */
  endSessions(event: Omit<SessionsEndedEvent, 'kind'>): void;
  /** Adds a destination with its permission check, e.g. `/topic/map/{mapId}`. */
  addDestination(route: DestinationRoute): void;
  /** Serves SockJS at /ws/endpoint-homa on the HTTP server (the same port as the API). */
  attach(server: Server): void;
  connectionCount(): number;
  /** Connections of this node subscribed to a destination. */
  subscriberCount(destination: string): number;
  close(): Promise<void>;
}

/**
 * sockjs reads xhr_send and jsonp_send bodies whole, without a limit. Bodies on the endpoint above
 * `maxBytes` are refused (declared) or cut off (chunked) before sockjs sees them.
 */
function limitRequestBodies(server: Server, prefix: string, maxBytes: number) {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url?.startsWith(`${prefix}/`)) {
      if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
        res.writeHead(413, { connection: 'close', 'content-type': 'text/plain' });
        res.end('too large');
        return;
      }
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > maxBytes) req.destroy();
      });
    }
    for (const listener of listeners) listener.call(server, req, res);
  });
}

/** Builds the real-time hub: the STOMP connections of this node, the destination router and the bus. */
export function createRealtimeHub(deps: RealtimeHubDeps): RealtimeHub {
  const options: RealtimeOptions = { ...DEFAULT_REALTIME_OPTIONS, ...deps.options };
  const { logger } = deps;
  const bus = deps.bus ?? createLocalBus();
  const router = createDestinationRouter();
  addUserTopics(router);

  const connections = new Set<StompConnection>();
  const pending = new Set<StompConnection>();
  const byUser = new Map<string, Set<StompConnection>>();
  const byDestination = new Map<string, Set<StompConnection>>();
  // The reverse of byDestination, so closing a connection touches only its own destinations.
  const destinationsOf = new Map<StompConnection, Set<string>>();

  function indexAdd(index: Map<string, Set<StompConnection>>, key: string, connection: StompConnection) {
    let set = index.get(key);
    if (!set) index.set(key, (set = new Set()));
    set.add(connection);
  }
  function indexRemove(index: Map<string, Set<StompConnection>>, key: string, connection: StompConnection) {
    const set = index.get(key);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) index.delete(key);
  }

  const registry = {
    authenticated(connection: StompConnection) {
      pending.delete(connection);
      const userId = String(connection.auth()!.userId);
      if ((byUser.get(userId)?.size ?? 0) >= options.maxConnectionsPerUser) return false;
      indexAdd(byUser, userId, connection);
      return true;
    },
    subscribed(connection: StompConnection, destination: string) {
      indexAdd(byDestination, destination, connection);
      let own = destinationsOf.get(connection);
      if (!own) destinationsOf.set(connection, (own = new Set()));
      own.add(destination);
    },
    unsubscribed(connection: StompConnection, destination: string) {
      indexRemove(byDestination, destination, connection);
      destinationsOf.get(connection)?.delete(destination);
    },
    closed(connection: StompConnection) {
      connections.delete(connection);
      pending.delete(connection);
      const auth = connection.auth();
      if (auth) indexRemove(byUser, String(auth.userId), connection);
      for (const destination of destinationsOf.get(connection) ?? []) indexRemove(byDestination, destination, connection);
      destinationsOf.delete(connection);
    },
  };

  function onEvent(event: RealtimeEvent) {
    if (event.kind === 'message') {
      for (const connection of [...(byDestination.get(event.destination) ?? [])]) connection.deliver(event.destination, event.body);
      return;
    }
    if (event.kind !== 'sessionsEnded') return;
    for (const connection of [...(byUser.get(event.userId) ?? [])]) {
      const sessionId = String(connection.auth()?.sessionId);
      if (event.sessionId !== undefined ? sessionId !== event.sessionId : sessionId === event.exceptSessionId) continue;
      connection.end(event.code, event.notify);
    }
  }
  const unsubscribeBus = bus.subscribe(onEvent);

  let sockServer: sockjs.Server | undefined;
  const publish = <Message>(destination: Destination<Message>, payload: Message) => {
    const problem = deps.checkMessages?.check(destination, payload);
    if (problem) deps.checkMessages!.report(problem);
    bus.publish({ kind: 'message', destination, body: JSON.stringify(payload) });
  };

  return {
    publish,
    publishToUser: (userId, topic, payload) => publish(userDestination(topic, userId), payload),
    endSessions(event) {
      bus.publish({ kind: 'sessionsEnded', ...event });
    },
    addDestination: (route) => router.add(route),
    attach(server) {
      if (sockServer) throw new Error('the real-time endpoint is already attached');
      // One transport message may carry a few frames; far more than that is an attack, not a client.
      const transportLimit = options.parser.maxFrameBytes * 4;
      sockServer = sockjs.createServer({
        prefix: REALTIME_ENDPOINT,
        heartbeat_delay: options.sockjsHeartbeatMs,
        // sockjs logs every request at "info"; those are debug lines for us.
        log: (severity, message) => (severity === 'error' ? logger.error(message) : logger.debug(message)),
        // WebSocket messages beyond this are refused by the socket itself, before the STOMP parser.
        faye_server_options: { maxLength: transportLimit },
      } as sockjs.ServerOptions);
      sockServer.on('connection', (socket: sockjs.Connection | null) => {
        // sockjs emits null for a session it could not open.
        if (!socket) return;
        if (pending.size >= options.maxPendingConnections) {
          logger.warn({ pending: pending.size }, 'too many real-time sockets waiting to sign in; closing a new one');
          socket.close();
          return;
        }
        const connection = createStompConnection({
          id: randomBytes(9).toString('base64url'),
          transport: { write: (text) => socket.write(text), close: () => socket.close() },
          authenticate: deps.authenticate,
          router,
          registry,
          options,
          logger,
        });
        connections.add(connection);
        pending.add(connection);
        socket.on('data', (data: string) => connection.receive(data));
        socket.on('close', () => connection.transportClosed());
      });
      sockServer.installHandlers(server);
      limitRequestBodies(server, REALTIME_ENDPOINT, transportLimit);
    },
    connectionCount: () => connections.size,
    subscriberCount: (destination) => byDestination.get(destination)?.size ?? 0,
    async close() {
      unsubscribeBus();
      for (const connection of [...connections]) connection.transportClosed();
      await bus.close();
    },
  };
}
