import type { GatewayInfo, StateMessage } from '@lumigrid/protocol';

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

/** Online/offline of every gateway the link has heard of, with waiters for "tell me when it is back". */
export function createPresence(now: () => number = Date.now) {
  const gateways = new Map<string, GatewayPresence>();
  const waiters = new Map<string, Set<(online: boolean) => void>>();
  const listeners = new Set<Listener>();

  function wake(mac: string, online: boolean) {
    const set = waiters.get(mac);
    if (!set) return;
    waiters.delete(mac);
    for (const resolve of set) resolve(online);
  }

  function put(presence: GatewayPresence) {
    gateways.set(presence.mac, presence);
    if (presence.online) wake(presence.mac, true);
    for (const listener of listeners) listener(presence);
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
      const presence: GatewayPresence =
        message.state === 'online'
          ? { mac, online: true, info: message.info, reason: undefined, since: now() }
          : { mac, online: false, info: before?.info, reason: message.reason, since: now() };
      put(presence);
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

    /** A cleared retained state (empty payload): the gateway was removed. */
    forget(mac: string) {
      gateways.delete(mac);
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

    waiterCount(): number {
      let n = 0;
      for (const set of waiters.values()) n += set.size;
      return n;
    },

    /** Releases every waiter with false. */
    close() {
      for (const mac of [...waiters.keys()]) wake(mac, false);
      listeners.clear();
    },
  };
}
export type Presence = ReturnType<typeof createPresence>;
