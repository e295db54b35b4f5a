import {
  errorMessage,
  langFromTag,
  LIMITS,
  NOTICE_TYPE,
  STOMP_CODE_HEADER,
  userDestination,
  type ErrorCode,
  type ForcedLogoutNotice,
  type Lang,
} from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../http/app-error.ts';
import type { AuthContext } from '../http/auth.ts';
import type { DestinationRouter } from './destinations.ts';
import {
  createStompParser,
  HEART_BEAT,
  negotiateHeartBeat,
  serializeFrame,
  StompProtocolError,
  type ClientCommand,
  type StompFrame,
  type StompParserLimits,
} from './stomp-frame.ts';

/** The socket under one STOMP connection (a SockJS connection in production, a fake in unit tests). */
export interface StompTransport {
  write(text: string): void;
  close(): void;
}

/** Resolves a token to its caller with the same session lookup as the HTTP routes. */
export type RealtimeAuthenticate = (token: string, options?: { touch?: boolean }) => Promise<AuthContext>;

export interface StompConnectionOptions {
  /** The shortest interval the server sends heart-beats at, ms (0: never). */
  heartBeatSendMs: number;
  /** The interval the server wants heart-beats from the client at, ms (0: none). */
  heartBeatReceiveMs: number;
  /** A client silent for this many of its negotiated heart-beat intervals is dropped. */
  heartBeatGrace: number;
  /** A socket that has not sent a valid CONNECT after this long is closed. */
  connectTimeoutMs: number;
  /** How often an open connection checks that its session still lives (expiry, disabled account). */
  revalidateMs: number;
  maxSubscriptions: number;
  parser: StompParserLimits;
}

/** What a connection tells the hub, so the hub can find it by user and by destination. */
export interface ConnectionRegistry {
  authenticated(connection: StompConnection): boolean;
  subscribed(connection: StompConnection, destination: string): void;
  unsubscribed(connection: StompConnection, destination: string): void;
  closed(connection: StompConnection): void;
}

export interface StompConnectionDeps {
  id: string;
  transport: StompTransport;
  authenticate: RealtimeAuthenticate;
  router: DestinationRouter;
  registry: ConnectionRegistry;
  options: StompConnectionOptions;
  logger: FastifyBaseLogger;
}

/** The codes that mean "this session is over": the client signs out rather than reconnecting. */
export const SESSION_ENDED_CODES: readonly ErrorCode[] = [250004, 100009, 250018, 250019, 250020];

function tokenOf(headers: Record<string, string>): string | undefined {
  const header = headers.Authorization ?? headers.authorization;
  if (header !== undefined) return /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1];
  const token = headers.token?.trim();
  return token ? token : undefined;
}

/**
 * One client's STOMP 1.2 session: CONNECT with a bearer token, SUBSCRIBE to permitted destinations,
 * MESSAGE delivery, heart-beats both ways, RECEIPTs, and ERROR-then-close for anything it cannot accept.
 */
export function createStompConnection(deps: StompConnectionDeps) {
  const { transport, options, logger } = deps;
  const parser = createStompParser(options.parser);
  const subscriptions = new Map<string, string>();
  let state: 'new' | 'connecting' | 'connected' | 'closed' = 'new';
  let auth: AuthContext | undefined;
  let token: string | undefined;
  let lang: Lang = 'en';
  let lastReceivedAt = Date.now();
  let messageSeq = 0;
  let queue: Promise<void> = Promise.resolve();
  const timers: NodeJS.Timeout[] = [];

  const connectTimer = setTimeout(() => {
    if (state === 'new' || state === 'connecting') fail('no CONNECT frame in time', { detail: 'Send CONNECT first.' });
  }, options.connectTimeoutMs);

  function send(frame: StompFrame<'CONNECTED' | 'MESSAGE' | 'RECEIPT' | 'ERROR'>) {
    if (state === 'closed') return;
    transport.write(serializeFrame(frame));
  }

  function close() {
    if (state === 'closed') return;
    state = 'closed';
    clearTimeout(connectTimer);
    for (const timer of timers) clearInterval(timer);
    subscriptions.clear();
    deps.registry.closed(connection);
    transport.close();
  }

  /** Answers ERROR (with the business code when there is one) and closes, as STOMP 1.2 requires. */
  function fail(message: string, extra: { code?: ErrorCode; receipt?: string; detail?: string } = {}) {
    if (state === 'closed') return;
    const headers: Record<string, string> = { message, 'content-type': 'text/plain' };
    if (extra.code !== undefined) headers[STOMP_CODE_HEADER] = String(extra.code);
    if (extra.receipt !== undefined) headers['receipt-id'] = extra.receipt;
    send({ command: 'ERROR', headers, body: extra.detail ?? message });
    close();
  }

  function failWithCode(code: ErrorCode, receipt?: string) {
    fail(errorMessage(code, lang), { code, receipt });
  }

  function receipt(frame: StompFrame) {
    const id = frame.headers.receipt;
    if (id !== undefined) send({ command: 'RECEIPT', headers: { 'receipt-id': id }, body: '' });
  }

  function startTimers(serverSendsMs: number, clientSendsMs: number) {
    if (serverSendsMs > 0) timers.push(setInterval(() => state === 'connected' && transport.write(HEART_BEAT), serverSendsMs));
    if (clientSendsMs > 0) {
      const deadAfter = clientSendsMs * options.heartBeatGrace;
      timers.push(
        setInterval(
          () => {
            if (Date.now() - lastReceivedAt <= deadAfter) return;
            logger.info(
              { connection: deps.id, silentMs: Date.now() - lastReceivedAt },
              'real-time client missed its heart-beats; dropping it',
            );
            fail('no heart-beat from the client');
          },
          Math.max(50, Math.min(clientSendsMs, 5_000)),
        ),
      );
    }
    if (options.revalidateMs > 0) timers.push(setInterval(() => void revalidate(), options.revalidateMs));
  }

  /** A session may end without an event reaching this node (expiry, a disabled account): look again. */
  async function revalidate() {
    if (state !== 'connected' || !token) return;
    try {
      await deps.authenticate(token, { touch: false });
    } catch (error) {
      if (error instanceof AppError) end(error.code, true);
      else logger.warn({ err: error, connection: deps.id }, 'could not re-check a real-time session; keeping it');
    }
  }

  async function onConnect(frame: StompFrame<ClientCommand>) {
    if (state !== 'new') return fail('already connected', { receipt: frame.headers.receipt });
    state = 'connecting';
    lang = langFromTag(frame.headers['accept-language'] ?? '') ?? 'en';
    const versions = (frame.headers['accept-version'] ?? '1.0').split(',').map((v) => v.trim());
    if (!versions.includes('1.2')) return fail('unsupported protocol version', { detail: 'Supported protocol versions are 1.2' });
    const heartBeat = negotiateHeartBeat(frame.headers['heart-beat'], {
      canSendMs: options.heartBeatSendMs,
      wantsReceiveMs: options.heartBeatReceiveMs,
    });
    const presented = tokenOf(frame.headers);
    if (!presented) return failWithCode(250004, frame.headers.receipt);
    let caller: AuthContext;
    try {
      caller = await deps.authenticate(presented);
    } catch (error) {
      if (error instanceof AppError) return failWithCode(error.code, frame.headers.receipt);
      logger.error({ err: error, connection: deps.id }, 'real-time sign-in failed');
      return failWithCode(100005, frame.headers.receipt);
    }
    if (state !== 'connecting') return;
    auth = caller;
    token = presented;
    lang = caller.lang;
    if (!deps.registry.authenticated(connection)) return fail('too many real-time connections for this user', { code: 100003 });
    state = 'connected';
    clearTimeout(connectTimer);
    send({
      command: 'CONNECTED',
      headers: {
        version: '1.2',
        'heart-beat': `${heartBeat.serverSendsMs},${heartBeat.clientSendsMs}`,
        server: `Lumigrid/${LIMITS.version}`,
        session: deps.id,
        'user-name': String(caller.userId),
      },
      body: '',
    });
    startTimers(heartBeat.serverSendsMs, heartBeat.clientSendsMs);
  }

  async function onSubscribe(frame: StompFrame<ClientCommand>) {
    const { id, destination } = frame.headers;
    const receiptId = frame.headers.receipt;
    if (!id || !destination) return fail('SUBSCRIBE needs id and destination headers', { receipt: receiptId });
    if (subscriptions.has(id)) return fail(`subscription id ${id} is already in use`, { receipt: receiptId });
    if (subscriptions.size >= options.maxSubscriptions)
      return fail(`at most ${options.maxSubscriptions} subscriptions per connection`, { receipt: receiptId });
    const verdict = await deps.router.check(auth!, destination);
    if (state !== 'connected') return;
    if (verdict === 'unknown')
      return fail('unknown destination', { code: 100002, receipt: receiptId, detail: `No such destination: ${destination}` });
    if (verdict === 'forbidden')
      return fail(errorMessage(110003, lang), { code: 110003, receipt: receiptId, detail: `Not allowed: ${destination}` });
    subscriptions.set(id, destination);
    deps.registry.subscribed(connection, destination);
    receipt(frame);
  }

  function onUnsubscribe(frame: StompFrame<ClientCommand>) {
    const { id } = frame.headers;
    if (!id) return fail('UNSUBSCRIBE needs an id header', { receipt: frame.headers.receipt });
    const destination = subscriptions.get(id);
    if (destination !== undefined) {
      subscriptions.delete(id);
      if (![...subscriptions.values()].includes(destination)) deps.registry.unsubscribed(connection, destination);
    }
    receipt(frame);
  }

  async function handle(frame: StompFrame<ClientCommand>) {
    if (state === 'closed') return;
    const receiptId = frame.headers.receipt;
    if (frame.command === 'CONNECT' || frame.command === 'STOMP') return onConnect(frame);
    if (state !== 'connected') return fail('send CONNECT first', { receipt: receiptId });
    switch (frame.command) {
      case 'SUBSCRIBE':
        return onSubscribe(frame);
      case 'UNSUBSCRIBE':
        return onUnsubscribe(frame);
      case 'ACK':
      case 'NACK':
        // Every subscription is ack:auto in effect; acknowledgements are accepted and change nothing.
        if (!frame.headers.id) return fail(`${frame.command} needs an id header`, { receipt: receiptId });
        return receipt(frame);
      case 'DISCONNECT':
        receipt(frame);
        return close();
      case 'SEND':
        return fail('clients may not send messages', { code: 110003, receipt: receiptId });
      default:
        return fail('transactions are not supported', { receipt: receiptId });
    }
  }

  /** Ends this connection because its session ended: the forced-logout notice (when asked), ERROR, close. */
  function end(code: ErrorCode, notify: boolean) {
    if (state === 'closed') return;
    if (notify && auth) {
      const notice: ForcedLogoutNotice = {
        type: NOTICE_TYPE.forcedLogout,
        userId: String(auth.userId),
        code,
        msg: errorMessage(code, lang),
        id: String(auth.sessionId),
      };
      deliver(userDestination('global_message_notice', auth.userId), JSON.stringify(notice));
    }
    failWithCode(code);
  }

  /** Sends a published message to every subscription of this connection on the destination. */
  function deliver(destination: string, body: string) {
    if (state !== 'connected') return;
    for (const [id, subscribed] of subscriptions) {
      if (subscribed !== destination) continue;
      messageSeq += 1;
      send({
        command: 'MESSAGE',
        headers: {
          subscription: id,
          'message-id': `${deps.id}-${messageSeq}`,
          destination,
          'content-type': 'application/json;charset=utf-8',
        },
        body,
      });
    }
  }

  const connection = {
    id: deps.id,
    /** The caller, once CONNECT succeeded. */
    auth: () => auth,
    /** Feeds bytes from the socket. A malformed frame answers ERROR and closes; it never throws. */
    receive(data: string) {
      if (state === 'closed') return;
      lastReceivedAt = Date.now();
      let frames: Array<StompFrame<ClientCommand>>;
      try {
        frames = parser.push(data).frames;
      } catch (error) {
        if (error instanceof StompProtocolError) {
          // Frames queued before the bad one are still answered first.
          queue = queue.then(() => fail('malformed frame', { receipt: error.receipt, detail: error.message }));
          return;
        }
        throw error;
      }
      for (const frame of frames) {
        queue = queue
          .then(() => handle(frame))
          .catch((error: unknown) => {
            if (error instanceof StompProtocolError) return fail('malformed frame', { receipt: error.receipt, detail: error.message });
            logger.error({ err: error, connection: deps.id }, 'real-time frame handling failed');
            fail('server error', { code: 100005 });
          });
      }
    },
    deliver,
    end,
    /** The socket went away. */
    transportClosed: close,
  };
  return connection;
}
export type StompConnection = ReturnType<typeof createStompConnection>;
