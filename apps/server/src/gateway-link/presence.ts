import { isDeepStrictEqual } from 'node:util';
import { realSchedule, type GatewayInfo, type StateMessage, type TimerSchedule } from '@lumigrid/protocol';

/** What the cloud knows about a gateway's connection, from its retained up/state and last will. */
export interface GatewayPresence {
  mac: string;
  online: boolean;
  /** The info of the last online state; kept while offline so the detail screen still shows it. */
  info: GatewayInfo | undefined;
  /**
   * Why it is not online: lost (last will), restart, update, shutdown; or unknown: the server has lost its
   * MQTT broker, so it cannot tell whether the gateway is connected (neither online nor offline).
   */
  reason: 'lost' | 'restart' | 'update' | 'shutdown' | 'unknown' | undefined;
  /** When the cloud saw the change (cloud clock, epoch ms). */
  since: number;
}

type Listener = (presence: GatewayPresence) => void;

/**
 * Online/offline of every gateway the link has heard of, with waiters for "tell me when it is back".
 *
 * `graceMs`: a gateway whose connection is lost (its last will) is offline at once for the link (commands wait
 * for it), but its listeners (the gateways table, browsers, alerts) hear of it only when it is still offline after
 * the grace period; one that says it goes (shutdown, restart, update) is told at once. A gateway back within it (a fleet reconnecting after a broker or server restart, a client taken
 * over by its own reconnect) is never told as offline; its online state is passed on as a refresh of what
 * the listeners already hold, with its new info. The same online state heard again (a gateway repeats one the
 * cloud did not answer, docs/protocol.md section 3) changes nothing and is told to nobody.
 */
export function createPresence(now: () => number = Date.now, options: { graceMs?: number; schedule?: TimerSchedule } = {}) {
  const graceMs = options.graceMs ?? 0;
  const schedule = options.schedule ?? realSchedule;
  const gateways = new Map<string, GatewayPresence>();
  /** Offline waiting out the grace period before the listeners hear of it, by MAC. */
  const held = new Map<string, () => void>();
  const waiters = new Map<string, Set<(online: boolean) => void>>();
  const listeners = new Set<Listener>();
  /** The `ts` of the online state each online gateway last said, to know it again when it is repeated. */
  const onlineTs = new Map<string, number>();

  function wake(mac: string, online: boolean) {
    const set = waiters.get(mac);
    if (!set) return;
    waiters.delete(mac);
    for (const resolve of set) resolve(online);
  }

  function tell(presence: GatewayPresence) {
    for (const listener of listeners) listener(presence);
  }

  function release(mac: string) {
    held.get(mac)?.();
    held.delete(mac);
  }

  function put(presence: GatewayPresence) {
    release(presence.mac);
    gateways.set(presence.mac, presence);
    if (presence.online) wake(presence.mac, true);
    tell(presence);
  }

  /** Offline of a gateway that was online: told only if it is still offline once the grace period is over. */
  function hold(presence: GatewayPresence) {
    gateways.set(presence.mac, presence);
    if (held.has(presence.mac)) return;
    held.set(
      presence.mac,
      schedule(() => {
        held.delete(presence.mac);
        const current = gateways.get(presence.mac);
        // Dated from when it went, so what follows (alerts) counts its own wait from there.
        if (current && !current.online) tell({ ...current, since: presence.since });
      }, graceMs),
    );
  }

  /** Every gateway `from` picks becomes not online for `reason`, its info kept. */
  function moveAll(from: (p: GatewayPresence) => boolean, reason: 'unknown' | 'lost') {
    for (const before of [...gateways.values()])
      if (from(before)) put({ mac: before.mac, online: false, info: before.info, reason, since: now() });
  }

  return {
    /** Applies a state message; answers the new presence. */
    update(mac: string, message: StateMessage): GatewayPresence {
      const before = gateways.get(mac);
      const repeated =
        message.state === 'online' &&
        before?.online === true &&
        message.ts !== undefined &&
        onlineTs.get(mac) === message.ts &&
        isDeepStrictEqual(before.info, message.info);
      if (repeated) return before;
      if (message.state === 'online' && message.ts !== undefined) onlineTs.set(mac, message.ts);
      else onlineTs.delete(mac);
      const presence: GatewayPresence =
        message.state === 'online'
          ? { mac, online: true, info: message.info, reason: undefined, since: now() }
          : { mac, online: false, info: before?.info, reason: message.reason, since: now() };
      // Only a lost connection waits out the grace: a gateway that says it goes (shutdown, restart, update) is gone.
      if (!presence.online && presence.reason === 'lost' && graceMs > 0 && (before?.online || held.has(mac))) hold(presence);
      else put(presence);
      return presence;
    },

    /**
     * The server lost its broker: every gateway it knows is unknown until its state is heard again. Its
     * info is kept; waiters keep waiting (the gateway may well be back once the broker is).
     */
    markAllUnknown() {
      moveAll((p) => p.reason !== 'unknown', 'unknown');
    },

    /**
     * Some time after the broker came back: a gateway whose state was not heard again (the restarted broker
     * lost the retained states, and the gateway has not reconnected since) is not connected: offline, lost.
     */
    settleUnknown() {
      moveAll((p) => p.reason === 'unknown', 'lost');
    },

    /**
     * Gateways the listeners hold as online (the gateways table, after a server restart): unknown to the link
     * until heard again, and, like every unknown, offline (lost) if not heard of within the settle time
     * (settleUnknown). Nobody is told now: a gateway back in time was never offline for its users.
     */
    expect(macs: Iterable<string>) {
      for (const mac of macs)
        if (!gateways.has(mac)) gateways.set(mac, { mac, online: false, info: undefined, reason: 'unknown', since: now() });
    },

    /** A cleared retained state (empty payload): the gateway was removed. */
    forget(mac: string) {
      release(mac);
      gateways.delete(mac);
      onlineTs.delete(mac);
    },

    isOnline(mac: string): boolean | undefined {
      return gateways.get(mac)?.online;
    },

    get(mac: string): GatewayPresence | undefined {
      return gateways.get(mac);
    },

    list(): GatewayPresence[] {
      return [...gateways.values()];
    },

    /** Resolves true as soon as the gateway is online, false after ms; the waiter is always released. */
    waitOnline(mac: string, ms: number): Promise<boolean> {
      if (gateways.get(mac)?.online) return Promise.resolve(true);
      return new Promise((resolve) => {
        const set = waiters.get(mac) ?? new Set();
        waiters.set(mac, set);
        const timer = setTimeout(() => {
          set.delete(entry);
          if (set.size === 0 && waiters.get(mac) === set) waiters.delete(mac);
          resolve(false);
        }, ms);
        const entry = (online: boolean) => {
          clearTimeout(timer);
          resolve(online);
        };
        set.add(entry);
      });
    },

    onChange(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Gateways whose offline waits out the grace period (tests: a reconnect in time leaves none). */
    holding(): number {
      return held.size;
    },

    waiterCount(): number {
      let n = 0;
      for (const set of waiters.values()) n += set.size;
      return n;
    },

    /** Releases every waiter with false. */
    close() {
      for (const mac of [...held.keys()]) release(mac);
      for (const mac of [...waiters.keys()]) wake(mac, false);
      listeners.clear();
    },
  };
}
export type Presence = ReturnType<typeof createPresence>;
