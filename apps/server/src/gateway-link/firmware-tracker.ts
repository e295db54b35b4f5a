import { FIRMWARE_RESULT, type CommandParams, type EventMessage } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandBus, CommandOutcome } from './command-bus.ts';

type FirmwareEvent = Extract<EventMessage, { type: 'firmware' }>;

/** The notice result of spec section 4: 1 success, 2 failure, 3 (anything else) timeout. */
export type FirmwareResult = (typeof FIRMWARE_RESULT)[keyof typeof FIRMWARE_RESULT];

export interface FirmwareProgress {
  mac: string;
  update: string;
  target: FirmwareEvent['target'];
  version: string;
  stage: FirmwareEvent['stage'] | 'requested';
  progress: number;
  startedAt: number;
  result: FirmwareResult | undefined;
}

export interface FirmwareTrackerOptions {
  bus: CommandBus;
  logger: FastifyBaseLogger;
  /** Called once per update with its outcome; the gateways module turns it into the real-time notice. */
  onResult(progress: FirmwareProgress): void;
  /** An update with no outcome after this long has timed out. Spec: 10-20 minutes, so 25 by default. */
  timeoutMs?: number;
  /** How long the restart after a failed or timed-out update may wait for the gateway (reconnect 1-2 min). */
  restartTtlMs?: number;
  now?: () => number;
  /**
   * Where updates live when several server nodes share the work (the gateways table): any node may receive
   * a gateway's events, and the store decides which node concludes an update, exactly once. Without one,
   * this process's memory is the store (one node).
   */
  store?: FirmwareStore;
  /** How often a node with a store looks for updates past their deadline (ms). */
  sweepMs?: number;
}

/** Firmware updates kept where every server node sees them. Each call is one conditional statement. */
export interface FirmwareStore {
  /** The update now running on the gateway (no result yet), if any. */
  running(mac: string): Promise<FirmwareProgress | undefined>;
  begin(progress: FirmwareProgress, deadline: number): Promise<void>;
  /**
   * Applies an event of update `update` when it is the gateway's running one; answers the progress after it,
   * with `concluded` true only for the one call that wrote the result.
   */
  advance(
    mac: string,
    update: string,
    change: { stage: FirmwareProgress['stage']; progress: number; result?: FirmwareResult },
  ): Promise<(FirmwareProgress & { concluded: boolean }) | undefined>;
  /** Times out every running update past its deadline; answers each such update once, across all nodes. */
  expire(now: number): Promise<FirmwareProgress[]>;
}

/**
 * Runs firmware updates: sends `firmware.update`, follows its progress events, decides the outcome
 * (timeout when the gateway goes quiet) and restarts the gateway on any result other than success,
 * as spec section 4 says.
 */
export function createFirmwareTracker(options: FirmwareTrackerOptions) {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 25 * 60_000;
  const updates = new Map<string, FirmwareProgress & { timer: NodeJS.Timeout | undefined }>();

  /** Tells the listener about an outcome and restarts the gateway unless it succeeded (spec section 4). */
  function announce(progress: FirmwareProgress) {
    try {
      options.onResult(progress);
    } catch (error) {
      options.logger.error({ err: error, mac: progress.mac }, 'firmware result handler failed');
    }
    if (progress.result !== FIRMWARE_RESULT.success) {
      void options.bus.send(progress.mac, 'gateway.restart', {}, { ttlMs: options.restartTtlMs ?? 2 * 60_000 }).then((o) => {
        if (o.state !== 'succeeded')
          options.logger.warn({ mac: progress.mac, state: o.state }, 'restart after a failed firmware update did not succeed');
      });
    }
  }

  const { store } = options;
  // With a store, each node sweeps for updates past their deadline; the store lets one node win each.
  const sweeper = store
    ? setInterval(
        () => {
          store
            .expire(now())
            .then((expired) => expired.forEach(announce))
            .catch((error: unknown) => options.logger.error({ err: error }, 'firmware timeout sweep failed'));
        },
        options.sweepMs ?? Math.min(5_000, Math.max(100, Math.floor(timeoutMs / 10))),
      )
    : undefined;
  sweeper?.unref();

  function conclude(mac: string, result: FirmwareResult) {
    const u = updates.get(mac);
    if (!u || u.result !== undefined) return;
    if (u.timer) clearTimeout(u.timer);
    u.timer = undefined;
    u.result = result;
    if (result === FIRMWARE_RESULT.success) {
      u.stage = 'done';
      u.progress = 100;
    }
    const { timer: _timer, ...progress } = u;
    // With a store, the store's conditional write decides who announces (handleEvent); memory only mirrors it.
    if (!store) announce(progress);
  }

  return {
    /** Starts an update; answers the command's outcome (accepted or why not). One update per gateway at a time. */
    async start(mac: string, params: CommandParams<'firmware.update'>): Promise<CommandOutcome<'firmware.update'>> {
      const local = updates.get(mac);
      const running = store ? await store.running(mac) : local?.result === undefined ? local : undefined;
      if (running) {
        return {
          id: running.update,
          mac,
          name: 'firmware.update',
          state: 'failed',
          error: { code: 'busy', message: 'an update is already running' },
          errorCode: 100102,
        };
      }
      const outcome = await options.bus.send(mac, 'firmware.update', params);
      if (outcome.state !== 'succeeded') return outcome;
      const u = {
        mac,
        update: outcome.id,
        target: params.target,
        version: params.version,
        stage: 'requested' as const,
        progress: 0,
        startedAt: now(),
        result: undefined,
        timer: undefined,
      };
      if (store) {
        await store.begin(u, u.startedAt + timeoutMs);
        updates.set(mac, u);
      } else {
        updates.set(mac, { ...u, timer: setTimeout(() => conclude(mac, FIRMWARE_RESULT.timeout), timeoutMs) });
      }
      return outcome;
    },

    /** Feeds a firmware event from the link. Events of an unknown or finished update are ignored. */
    handleEvent(mac: string, event: FirmwareEvent): Promise<void> | undefined {
      const u = updates.get(mac);
      if (u && u.update === event.update && u.result === undefined) {
        u.stage = event.stage;
        u.progress = event.progress;
        if (event.result !== undefined) conclude(mac, event.result);
      }
      if (!store) return undefined;
      // Any node may receive the event (shared subscription): the store holds the update, whoever started it.
      return store
        .advance(mac, event.update, {
          stage: event.stage,
          progress: event.progress,
          ...(event.result !== undefined ? { result: event.result } : {}),
        })
        .then((after) => {
          if (!after?.concluded) return;
          const { concluded: _concluded, ...progress } = after;
          announce(progress);
        })
        .catch((error: unknown) => options.logger.error({ err: error, mac }, 'could not store firmware progress'));
    },

    /** What the progress poll (gateway_upgrade_progress) shows, without a store; with one, the store's row does. */
    progress(mac: string): FirmwareProgress | undefined {
      // With a store, this node's memory may be stale (another node concluded, the gateway was unbound): ask the store.
      if (store) return undefined;
      const u = updates.get(mac);
      if (!u) return undefined;
      const { timer: _timer, ...progress } = u;
      return progress;
    },

    /** Updates this node waits on (timers; with a store the sweep waits instead). */
    activeCount(): number {
      return [...updates.values()].filter((u) => u.timer !== undefined).length;
    },

    close() {
      if (sweeper) clearInterval(sweeper);
      for (const u of updates.values()) if (u.timer) clearTimeout(u.timer);
      updates.clear();
    },
  };
}
export type FirmwareTracker = ReturnType<typeof createFirmwareTracker>;
