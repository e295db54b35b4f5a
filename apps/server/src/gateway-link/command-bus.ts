import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@lumigrid/contract';
import {
  COMMANDS,
  commandChannel,
  decodeResult,
  downTopic,
  encodeCommand,
  type CommandMessage,
  type CommandName,
  type CommandParams,
  type CommandPurpose,
  type CommandResult,
  type ReplyMessage,
} from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../http/app-error.ts';
import { requestLog } from '../lib/request-context.ts';

/** The life of a command (ARCHITECTURE.md section 1). */
export type CommandState = 'queued' | 'sent' | 'succeeded' | 'failed' | 'timed_out' | 'expired';

export type CommandOutcome<N extends CommandName = CommandName> =
  | { id: string; mac: string; name: N; state: 'succeeded'; result: CommandResult<N> }
  | {
      id: string;
      mac: string;
      name: N;
      state: 'failed' | 'timed_out' | 'expired';
      error: { code: string; message?: string };
      errorCode: ErrorCode;
    };

export interface SendOptions {
  /** How long to wait for the reply once the broker took the command; the command's default otherwise. */
  timeoutMs?: number;
  /**
   * How long the command may wait to be sent (gateway offline, broker unreachable) before it expires.
   * 0, the default, expires it at once when the gateway is known to be offline: a person is waiting.
   */
  ttlMs?: number;
}

export interface CommandBusDeps {
  /** Publishes with QoS 1; resolves when the broker acknowledged (PUBACK). */
  publish(topic: string, payload: string): Promise<void>;
  /** Whether the link has its broker now (connected and subscribed). */
  isConnected(): boolean;
  /** Whether the gateway is online now; undefined when it has never been seen. */
  isOnline(mac: string): boolean | undefined;
  /** Resolves true when the gateway comes online within ms, false otherwise. */
  waitOnline(mac: string, ms: number): Promise<boolean>;
  logger: FastifyBaseLogger;
  now?: () => number;
  newId?: () => string;
}

/** The localised business code of a command that did not succeed, by its purpose (spec section 8's texts). */
const FAILURE_CODES = {
  read: { timed_out: 100105, failed: 100108 },
  set: { timed_out: 100104, failed: 100106 },
  control: { timed_out: 100101, failed: 100106 },
  firmware: { timed_out: 100103, failed: 100102 },
  config: { timed_out: 100109, failed: 100107 },
} as const satisfies Record<CommandPurpose, { timed_out: ErrorCode; failed: ErrorCode }>;

/** The localised business code for a command that did not succeed; one never sent means the gateway is offline. */
export function errorCodeFor(name: CommandName, state: 'failed' | 'timed_out' | 'expired'): ErrorCode {
  return state === 'expired' ? 100101 : FAILURE_CODES[COMMANDS[name].purpose][state];
}

/**
 * How long before the bus stops waiting a gateway may no longer start a command (its `expiresAt`): the time its
 * reply needs to come back over a slow link (two 200 ms trips and a retransmission or two). Without it a command
 * started in the last instant ran on the gateway while the person was told it timed out.
 */
export function replyMarginMs(timeoutMs: number): number {
  return Math.min(2000, Math.floor(timeoutMs / 5));
}

/** A command that could not be sent, or whose reply can no longer come, because the server lost its MQTT broker. */
export const BROKER_UNREACHABLE = 100111 satisfies ErrorCode;

/** A command this server node stopped waiting for because the node is stopping (lifecycle/drain.ts). */
export const SERVER_STOPPING = 100112 satisfies ErrorCode;

interface Pending {
  id: string;
  mac: string;
  name: CommandName;
  state: CommandState;
  /** When send() was called, on the monotonic clock the time its outcome took is read from. */
  startedAt: number;
  /** The logger of the request that sent it, so its lines carry that request's id. */
  log: FastifyBaseLogger;
  /** Waiting (with a time to live) for its gateway to come online; it keeps waiting when the broker is lost. */
  waitingForGateway: boolean;
  timer: NodeJS.Timeout | undefined;
  settle(outcome: CommandOutcome): void;
}

/** A state change; `elapsedMs` is the time since send() (to the reply, the timeout or the expiry once final). */
type StateListener = (change: { id: string; mac: string; name: CommandName; state: CommandState; elapsedMs: number }) => void;

/**
 * Sends commands and pairs replies with them by id. Every command ends in exactly one final state, and
 * every timer and waiter is released when it does (`pendingCount()` proves it in tests).
 */
export function createCommandBus(deps: CommandBusDeps) {
  const now = deps.now ?? Date.now;
  // Durations from a clock that neither jumps with the wall clock nor stops within a millisecond: a command answered
  // by a gateway in the same process takes less than one.
  const durationClock = deps.now ?? (() => performance.now());
  const newId = deps.newId ?? randomUUID;
  const pending = new Map<string, Pending>();
  const listeners = new Set<StateListener>();
  let closed = false;

  function transition(p: Pending, state: CommandState) {
    p.state = state;
    for (const listener of listeners) {
      try {
        listener({ id: p.id, mac: p.mac, name: p.name, state, elapsedMs: durationClock() - p.startedAt });
      } catch (error) {
        p.log.error({ err: error }, 'command state listener failed');
      }
    }
  }

  function finish(p: Pending, outcome: CommandOutcome) {
    if (!pending.has(p.id)) return;
    pending.delete(p.id);
    if (p.timer) clearTimeout(p.timer);
    p.timer = undefined;
    transition(p, outcome.state);
    p.log.debug(
      { mac: p.mac, commandId: p.id, command: p.name, state: outcome.state, ms: durationClock() - p.startedAt },
      outcome.state === 'succeeded' ? 'command succeeded' : `command ${outcome.state}: ${outcome.error.code}`,
    );
    p.settle(outcome);
  }

  function fail(
    p: Pending,
    state: 'failed' | 'timed_out' | 'expired',
    code: string,
    message?: string,
    errorCode: ErrorCode = errorCodeFor(p.name, state),
  ) {
    finish(p, { id: p.id, mac: p.mac, name: p.name, state, error: { code, ...(message ? { message } : {}) }, errorCode });
  }

  /** Fails a command for want of a broker: never sent (expired), or sent and its reply lost with the connection. */
  function brokerLost(p: Pending) {
    fail(p, p.state === 'sent' ? 'failed' : 'expired', 'broker_unreachable', 'the server lost its MQTT broker', BROKER_UNREACHABLE);
  }

  /** Sends a command and resolves with its outcome; never rejects for anything the gateway does. */
  async function send<N extends CommandName>(
    mac: string,
    name: N,
    params: CommandParams<N>,
    options: SendOptions = {},
  ): Promise<CommandOutcome<N>> {
    const id = newId();
    const timeoutMs = options.timeoutMs ?? COMMANDS[name].timeoutMs;
    const ttlMs = options.ttlMs ?? 0;
    const sentAt = now();
    // Params that do not match the protocol are the caller's bug: it throws here, before any state exists. The
    // command is dated again when it goes out, since the bus's wait for the reply starts then.
    const encode = (at: number) =>
      encodeCommand({ id, name, params, ts: at, expiresAt: at + timeoutMs - replyMarginMs(timeoutMs) } as CommandMessage);
    encode(sentAt);
    let settle!: (o: CommandOutcome) => void;
    const done = new Promise<CommandOutcome>((resolve) => (settle = resolve));
    const log = requestLog(deps.logger);
    const p: Pending = {
      id,
      mac,
      name,
      state: 'queued',
      startedAt: durationClock(),
      log,
      waitingForGateway: false,
      timer: undefined,
      settle,
    };
    pending.set(id, p);
    log.debug({ mac, commandId: id, command: name }, 'command queued');
    transition(p, 'queued');
    if (closed) {
      fail(p, 'expired', 'shutdown', 'the gateway link is closed', SERVER_STOPPING);
      return done as Promise<CommandOutcome<N>>;
    }

    // Without a broker nothing can be sent, and a person is waiting: say so now instead of timing out.
    if (!deps.isConnected() && ttlMs === 0) {
      brokerLost(p);
      return done as Promise<CommandOutcome<N>>;
    }
    if (deps.isOnline(mac) !== true) {
      p.waitingForGateway = true;
      const online = ttlMs > 0 && (await deps.waitOnline(mac, ttlMs));
      p.waitingForGateway = false;
      if (!pending.has(id)) return done as Promise<CommandOutcome<N>>;
      if (!online) {
        fail(p, 'expired', 'offline', 'the gateway is offline');
        return done as Promise<CommandOutcome<N>>;
      }
    }
    // A command the broker has not taken within its timeout (broker unreachable) expires unsent.
    p.timer = setTimeout(() => fail(p, 'expired', 'not_sent', 'the broker did not take the command in time'), timeoutMs);
    deps.publish(downTopic(mac, commandChannel(name)), encode(now())).then(
      () => {
        if (!pending.has(id) || p.state !== 'queued') return;
        transition(p, 'sent');
        if (p.timer) clearTimeout(p.timer);
        p.timer = setTimeout(() => fail(p, 'timed_out', 'timeout', `no reply in ${timeoutMs} ms`), timeoutMs);
      },
      (error: Error) => (deps.isConnected() ? fail(p, 'expired', 'not_sent', error.message) : brokerLost(p)),
    );
    return done as Promise<CommandOutcome<N>>;
  }

  return {
    send,

    /** Like send, but answers the result or throws AppError with the localised code. */
    async call<N extends CommandName>(mac: string, name: N, params: CommandParams<N>, options?: SendOptions): Promise<CommandResult<N>> {
      const outcome = await send(mac, name, params, options);
      if (outcome.state === 'succeeded') return outcome.result;
      throw new AppError(outcome.errorCode);
    },

    /** Pairs a reply from up/reply with its command; replies to unknown ids (late, duplicated) are ignored. */
    handleReply(mac: string, reply: ReplyMessage) {
      const p = pending.get(reply.id);
      if (!p || p.mac !== mac) {
        deps.logger.debug({ mac, id: reply.id }, 'reply to no waiting command (late or duplicate)');
        return;
      }
      // Too late to start (its expiresAt had passed): not run, as a command that never went out.
      if (!reply.ok && reply.error.code === 'expired') return fail(p, 'expired', reply.error.code, reply.error.message);
      if (!reply.ok) return fail(p, 'failed', reply.error.code, reply.error.message);
      const result = decodeResult(p.name, reply.result);
      if (!result.ok) {
        p.log.warn({ mac, id: reply.id, err: result.error.message }, 'gateway replied with a malformed result');
        return fail(p, 'failed', 'bad_reply', result.error.message);
      }
      finish(p, { id: p.id, mac, name: p.name, state: 'succeeded', result: result.value } as CommandOutcome);
    },

    /** Observes every state change, for persistence and real-time notices. Returns an unsubscribe. */
    onState(listener: StateListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    pendingCount(): number {
      return pending.size;
    },

    /**
     * The link lost its broker: every command on its way or waiting for its reply fails now with
     * BROKER_UNREACHABLE. Those waiting (with a time to live) for their gateway to come online wait on.
     */
    brokerLost() {
      for (const p of [...pending.values()]) if (!p.waitingForGateway) brokerLost(p);
    },

    /**
     * Ends every waiting command with SERVER_STOPPING (failed when it was sent: the gateway may have carried it
     * out) and refuses new ones, so no caller is left without an answer.
     */
    close() {
      closed = true;
      for (const p of [...pending.values()])
        fail(p, p.state === 'sent' ? 'failed' : 'expired', 'shutdown', 'the server node is stopping', SERVER_STOPPING);
    },
  };
}
export type CommandBus = ReturnType<typeof createCommandBus>;
