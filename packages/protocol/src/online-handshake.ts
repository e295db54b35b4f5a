import { ONLINE_REPEAT, reconnectDelay, type ReconnectBackoff } from './backoff.ts';
import { realSchedule, type TimerSchedule } from './timer-schedule.ts';

/** How long a gateway waits before asking again for a subscription the broker refused. */
export const SUBSCRIBE_RETRY_MS = 500;

/** The part of an MQTT client (mqtt.js) a gateway subscribes with: a refused topic is granted QoS 128 (0x80). */
export interface SubscribingClient {
  subscribe(
    topics: string[],
    options: { qos: 1 },
    callback: (error: Error | null | undefined, grants?: ReadonlyArray<{ topic: string; qos: number }>) => void,
  ): unknown;
}

/** What the waits of a gateway's handshake with the cloud run on, and where they are told. */
export interface HandshakeTiming {
  /** Runs the waits; tests pass manualSchedule's. */
  schedule?: TimerSchedule;
  log(line: string): void;
}

/**
 * Subscribes to `topics` and asks again every SUBSCRIBE_RETRY_MS for those the broker refused (0x80 in the SUBACK;
 * NATS does under load) until all are granted, then calls `granted`. A gateway without its down/cmd would be online
 * and never receive a command, and its online state waits for all of its down topics: the cloud answers it once on
 * down/ack, and an answer sent before that subscription exists reaches nobody. `current` false (the connection
 * dropped or was replaced) stops the asking.
 */
export function subscribeUntilGranted(
  client: SubscribingClient,
  topics: string[],
  granted: () => void,
  options: HandshakeTiming & { current(): boolean },
): void {
  client.subscribe(topics, { qos: 1 }, (error, grants) => {
    if (error) options.log(`subscribe failed: ${error.message}`);
    // mqtt.js answers a refusal as an error without saying which topic: all of them are asked for again.
    const refused = error ? topics : (grants ?? []).filter((grant) => grant.qos === 128).map((grant) => grant.topic);
    if (refused.length === 0) return granted();
    options.log(`subscriptions refused: ${refused.join(', ')}; asking again`);
    (options.schedule ?? realSchedule)(() => {
      if (options.current()) subscribeUntilGranted(client, refused, granted, options);
    }, SUBSCRIBE_RETRY_MS);
  });
}

/**
 * A gateway's side of the online handshake (docs/protocol.md section 3), one per gateway. The cloud answers each
 * online state it receives once, on down/ack; until it answers one of this connection's, every up message but the
 * state waits in the uplink store. That answer can be lost (the server node that took the state died before
 * answering, the broker was re-creating the gateway's session), so an unanswered online state goes again, the same
 * message, after a jittered wait that doubles each time (ONLINE_REPEAT), until the cloud answers one of this
 * connection's online states or the connection drops. The latest online state sent is the one repeated.
 */
export class OnlineHandshake {
  private readonly onlineStates = new Set<number>();
  private answeredOnline = false;
  private cancelRepeat: (() => void) | undefined;

  constructor(private readonly options: HandshakeTiming & { backoff?: ReconnectBackoff }) {}

  /** The cloud answered one of this connection's online states: up messages may go. */
  get answered(): boolean {
    return this.answeredOnline;
  }

  /** The online state `ts` went out by `send`; unanswered, `send` goes again while `connected()`. */
  onlineSent(ts: number | undefined, send: () => void, connected: () => boolean): void {
    if (ts !== undefined) this.onlineStates.add(ts);
    if (!this.answeredOnline) this.repeat(send, connected, 0);
  }

  /** The cloud's answer naming online state `state` (undefined: whichever); true when it answers this connection. */
  acknowledge(state: number | undefined): boolean {
    if (state !== undefined && !this.onlineStates.has(state)) return false;
    this.answeredOnline = true;
    this.stopRepeat();
    return true;
  }

  /** The connection dropped or was replaced: the next one's online state waits for its own answer. */
  reset(): void {
    this.answeredOnline = false;
    this.onlineStates.clear();
    this.stopRepeat();
  }

  private repeat(send: () => void, connected: () => boolean, attempt: number) {
    this.stopRepeat();
    const wait = reconnectDelay(attempt, { ...ONLINE_REPEAT, ...this.options.backoff });
    this.cancelRepeat = (this.options.schedule ?? realSchedule)(() => {
      this.cancelRepeat = undefined;
      if (this.answeredOnline || !connected()) return;
      this.options.log(`no answer to the online state; sending it again (repeat ${attempt + 1})`);
      send();
      this.repeat(send, connected, attempt + 1);
    }, wait);
  }

  private stopRepeat() {
    this.cancelRepeat?.();
    this.cancelRepeat = undefined;
  }
}
