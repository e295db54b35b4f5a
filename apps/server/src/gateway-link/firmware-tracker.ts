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
    try {
      options.onResult(progress);
    } catch (error) {
      options.logger.error({ err: error, mac }, 'firmware result handler failed');
    }
    if (result !== FIRMWARE_RESULT.success) {
      void options.bus.send(mac, 'gateway.restart', {}, { ttlMs: options.restartTtlMs ?? 2 * 60_000 }).then((o) => {
        if (o.state !== 'succeeded') options.logger.warn({ mac, state: o.state }, 'restart after a failed firmware update did not succeed');
      });
    }
  }

  return {
    /** Starts an update; answers the command's outcome (accepted or why not). One update per gateway at a time. */
    async start(mac: string, params: CommandParams<'firmware.update'>): Promise<CommandOutcome<'firmware.update'>> {
      const running = updates.get(mac);
      if (running && running.result === undefined) {
        return { id: running.update, mac, name: 'firmware.update', state: 'failed', error: { code: 'busy', message: 'an update is already running' }, errorCode: 100102 };
      }
      const outcome = await options.bus.send(mac, 'firmware.update', params);
      if (outcome.state !== 'succeeded') return outcome;
      const u = { mac, update: outcome.id, target: params.target, version: params.version, stage: 'requested' as const, progress: 0, startedAt: now(), result: undefined, timer: undefined };
      updates.set(mac, { ...u, timer: setTimeout(() => conclude(mac, FIRMWARE_RESULT.timeout), timeoutMs) });
      return outcome;
    },

    /** Feeds a firmware event from the link. Events of an unknown or finished update are ignored. */
    handleEvent(mac: string, event: FirmwareEvent) {
      const u = updates.get(mac);
      if (!u || u.update !== event.update || u.result !== undefined) return;
      u.stage = event.stage;
      u.progress = event.progress;
      if (event.result !== undefined) conclude(mac, event.result);
    },

    /** What the progress poll (gateway_upgrade_progress) shows. */
    progress(mac: string): FirmwareProgress | undefined {
      const u = updates.get(mac);
      if (!u) return undefined;
      const { timer: _timer, ...progress } = u;
      return progress;
    },

    activeCount(): number {
      return [...updates.values()].filter((u) => u.timer !== undefined).length;
    },

    close() {
      for (const u of updates.values()) if (u.timer) clearTimeout(u.timer);
      updates.clear();
    },
  };
}
export type FirmwareTracker = ReturnType<typeof createFirmwareTracker>;
