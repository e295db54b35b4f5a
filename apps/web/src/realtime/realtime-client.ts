import { Client, ReconnectionTimeMode, TickerStrategy, type IFrame, type IStompSocket, type StompSubscription } from '@stomp/stompjs';
// The UMD build: the package's main entry expects Node's `global`, which Vite does not provide.
import SockJS from 'sockjs-client/dist/sockjs.min.js';
import { STOMP_CODE_HEADER } from '@lumigrid/contract/browser';

/** Business codes in an ERROR frame that mean this session is over: sign out instead of reconnecting. */
export const SESSION_ENDED_CODES: readonly number[] = [250004, 100009, 250018, 250019, 250020];

export type RealtimeHandler = (payload: unknown, destination: string) => void;

/**
 * Called once the server has confirmed a subscription (its RECEIPT), at first and after every reconnect: what was
 * published before then never arrives, so what a page read before may already be out of date.
 */
export type SubscribedHandler = () => void;

export interface RealtimeClientOptions {
  /** Absolute URL of the SockJS endpoint. */
  url: string;
  /** The session token, read at every (re)connect so a refreshed token is used. */
  token(): string | undefined;
  /** The server ended this session (ERROR with a session code); the client has stopped. */
  onSessionEnded(code: number): void;
  /**
   * The channel is back after a drop: whatever was published while it was down was missed, so what the page
   * shows from it must be read again.
   */
  onReconnected?(): void;
  /** First reconnect delay, doubling up to maxReconnectDelayMs. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Opens the socket; SockJS by default (tests in Node pass sockjs-client's Node build). */
  socket?: (url: string) => IStompSocket;
}

/**
 * The browser's STOMP client: connects with the token in the CONNECT header, reconnects with exponential
 * backoff, and subscribes again to every destination some component listens to after each reconnect.
 */
export function createRealtimeClient(options: RealtimeClientOptions) {
  const listeners = new Map<string, Set<RealtimeHandler>>();
  const subscribedListeners = new Map<string, Set<SubscribedHandler>>();
  const active = new Map<string, StompSubscription>();
  let receipts = 0;
  let stopped = false;
  let connectedBefore = false;

  const client = new Client({
    webSocketFactory: () => (options.socket ? options.socket(options.url) : (new SockJS(options.url) as IStompSocket)),
    reconnectDelay: options.reconnectDelayMs ?? 1_000,
    reconnectTimeMode: ReconnectionTimeMode.EXPONENTIAL,
    maxReconnectDelay: options.maxReconnectDelayMs ?? 30_000,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    // Hidden tabs throttle timers to once a minute; the server would drop a client beating that rarely.
    heartbeatStrategy: TickerStrategy.Worker,
    debug: () => undefined,
    beforeConnect: (self) => {
      const token = options.token();
      if (!token) {
        // Nobody is signed in any more; there is nothing to connect for.
        void stop();
        return;
      }
      self.connectHeaders = { Authorization: `Bearer ${token}` };
    },
  });

  function subscribe(destination: string) {
    if (!client.connected || active.has(destination)) return;
    const receipt = `subscribed-${++receipts}`;
    client.watchForReceipt(receipt, () => {
      for (const subscribed of subscribedListeners.get(destination) ?? []) subscribed();
    });
    const subscription = client.subscribe(
      destination,
      (message) => {
        let payload: unknown;
        try {
          payload = JSON.parse(message.body);
        } catch {
          return;
        }
        for (const handler of listeners.get(destination) ?? []) handler(payload, destination);
      },
      { receipt },
    );
    active.set(destination, subscription);
  }

  client.onConnect = () => {
    // A new connection has no subscriptions: make them all again.
    active.clear();
    for (const destination of listeners.keys()) subscribe(destination);
    if (connectedBefore) options.onReconnected?.();
    connectedBefore = true;
  };
  client.onStompError = (frame: IFrame) => {
    const code = Number(frame.headers[STOMP_CODE_HEADER]);
    if (SESSION_ENDED_CODES.includes(code)) {
      void stop();
      options.onSessionEnded(code);
    }
    // Anything else: the server closes the socket and the client tries again after the backoff.
  };
  client.onWebSocketClose = () => active.clear();

  async function stop() {
    if (stopped) return;
    stopped = true;
    active.clear();
    await client.deactivate();
  }

  return {
    start() {
      if (!stopped) client.activate();
    },
    stop,
    /**
     * Calls `handler` with every JSON payload on `destination`, and `subscribed` whenever the server confirms the
     * subscription (not when it was already in place); answers the unsubscribe.
     */
    listen(destination: string, handler: RealtimeHandler, subscribed?: SubscribedHandler): () => void {
      let set = listeners.get(destination);
      if (!set) listeners.set(destination, (set = new Set()));
      set.add(handler);
      let onSubscribed = subscribedListeners.get(destination);
      if (!onSubscribed) subscribedListeners.set(destination, (onSubscribed = new Set()));
      if (subscribed) onSubscribed.add(subscribed);
      subscribe(destination);
      return () => {
        set.delete(handler);
        if (subscribed) onSubscribed.delete(subscribed);
        if (set.size > 0) return;
        subscribedListeners.delete(destination);
        listeners.delete(destination);
        const subscription = active.get(destination);
        active.delete(destination);
        if (subscription && client.connected) subscription.unsubscribe();
      };
    },
    connected: () => client.connected,
    /** False once stopped for good: no reconnect is pending or will be scheduled. */
    active: () => client.active,
  };
}
export type RealtimeClient = ReturnType<typeof createRealtimeClient>;
