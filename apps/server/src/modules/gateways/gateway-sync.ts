import { reconnectDelay } from '@lumigrid/protocol';
import { OPERATE_AUTH, SYNC_STATUS, type GatewaySyncList, type GatewaySyncResult } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import { mapSyncItem } from './gateways.mappers.ts';
import { assertMay } from '../../http/authority.ts';
import type { GatewayContext, Caller } from './gateway-context.ts';
import { visibleMapIds } from '../access/access.ts';
import { errorCodeFor } from '../../gateway-link/command-bus.ts';

/** A sync answers within the 30 s request timeout of spec section 7; a slower gateway answers 100109. */
const SYNC_WAIT_MS = 25_000;

/**
 * How long a gateway's configuration waits after a change before it is pushed: the changes of a moment (a
 * holiday list edited line by line, a gateway's retained reports after a reconnect) go in one push.
 */
const PUSH_QUIET_MS = 1_000;

/**
 * A push the gateway never ran (it expired before the broker took it, or reached the gateway after its expiry, as
 * in a fleet's connect storm) is tried again after a wait that doubles each time, with the gateways' own jittered
 * back-off so a fleet's retries spread out. A refusal or silence is not retried: the gateway may have run it.
 */
const PUSH_RETRIES = 6;
const PUSH_RETRY_BACKOFF = { initialMs: 1_500, maxMs: 60_000 };

/** What a push answers when it never ran; a refusal (100107) and silence (100109) have their own codes. */
const CONFIG_NOT_RUN = errorCodeFor('config.apply', 'expired');

/** Configuration sync: the version every change raises, and sending the configuration to the gateway. */
export function gatewaySyncCalls(ctx: GatewayContext) {
  const { deps, repo, clock, requireGateway, statusChanged, configFor } = ctx;
  const pushTimers = new Map<bigint, NodeJS.Timeout>();
  const pushes = new Map<bigint, Promise<void>>();
  /** The gateways this node has seen online since it last saw them go: a reconnect is the first sighting. */
  const seenOnline = new Set<string>();
  let closed = false;

  /**
   * GET gateway/v1/sync/{id}: sends the configuration with its version on down/config and answers when the
   * gateway acknowledged it (status 3). A refusal answers 100107, silence 100109; the status is then 4.
   */
  async function sync(auth: Caller, id: string): Promise<GatewaySyncResult> {
    assertMay(auth, 'control');
    const row = await requireGateway(auth, id);
    const link = deps.link;
    if (!link) throw new AppError(100101);
    const version = row.configVersion;
    const config = await configFor({ tenantId: auth.tenantId, gatewayId: row.id });
    await repo.setSyncStatus({ tenantId: auth.tenantId, id: row.id, status: SYNC_STATUS.syncing, version });
    statusChanged(row.mac, { kind: 'sync', syncStatus: SYNC_STATUS.syncing });
    const outcome = await link.bus.send(row.mac, 'config.apply', { version, config }, { timeoutMs: deps.commandTimeoutMs ?? SYNC_WAIT_MS });
    if (outcome.state !== 'succeeded') {
      await repo.setSyncStatus({ tenantId: auth.tenantId, id: row.id, status: SYNC_STATUS.failed, version });
      // The reply may be lost while the gateway's own state already reports the version: that is a sync.
      const now = await requireGateway(auth, row.id);
      statusChanged(row.mac, { kind: 'sync', syncStatus: now.syncStatus });
      if (now.syncStatus === SYNC_STATUS.synced && now.syncedVersion === version) {
        return { id: String(row.id), status: now.syncStatus, version };
      }
      throw new AppError(outcome.errorCode);
    }
    await repo.acknowledge({ tenantId: auth.tenantId, id: row.id, version: outcome.result.version, at: clock.now() });
    const after = await requireGateway(auth, row.id);
    statusChanged(row.mac, { kind: 'sync', syncStatus: after.syncStatus });
    return { id: String(row.id), status: after.syncStatus, version: outcome.result.version };
  }

  /**
   * Syncs a gateway as its owner would, when it is online and runs another version than the cloud's. Answers
   * whether the push should be tried again: the gateway never ran it.
   */
  async function pushNow(tenantId: bigint, id: bigint): Promise<boolean> {
    const row = await repo.find({ tenantId, id });
    if (closed || !row?.online || !deps.link || row.syncedVersion === row.configVersion) return false;
    try {
      await sync({ tenantId, operateAuth: OPERATE_AUTH.owner }, String(id));
      return false;
    } catch (error) {
      // The sync status (failed) and the banner say it; a retry, the next change or a reconnect tries again.
      deps.logger.warn(
        { mac: row.mac, err: { message: error instanceof Error ? error.message : String(error) } },
        'configuration push failed',
      );
      return error instanceof AppError && error.code === CONFIG_NOT_RUN;
    }
  }

  /**
   * Pushes a gateway's configuration once it has had no change for PUSH_QUIET_MS (or after a retry's wait); one
   * push per gateway at a time.
   */
  function pushSoon(tenantId: bigint, id: bigint, retry = 0) {
    if (closed || !deps.link) return;
    clearTimeout(pushTimers.get(id));
    const waitMs = retry === 0 ? PUSH_QUIET_MS : reconnectDelay(retry - 1, PUSH_RETRY_BACKOFF);
    const timer = setTimeout(() => {
      pushTimers.delete(id);
      const next = (pushes.get(id) ?? Promise.resolve())
        .then(() => pushNow(tenantId, id))
        .then((notRun) => {
          // A change meanwhile has its own push waiting, which sends the same configuration.
          if (notRun && retry < PUSH_RETRIES && !pushTimers.has(id)) pushSoon(tenantId, id, retry + 1);
        })
        .catch((error: unknown) => deps.logger.error({ err: error, gatewayId: String(id) }, 'configuration push failed'))
        .finally(() => {
          if (pushes.get(id) === next) pushes.delete(id);
        });
      pushes.set(id, next);
    }, waitMs);
    pushTimers.set(id, timer);
  }

  return {
    /** GET gateway/v1/sync_status: the gateways whose configuration is not synced. */
    async syncStatus(auth: Caller): Promise<GatewaySyncList> {
      return (await repo.notSynced({ tenantId: auth.tenantId, mapIds: visibleMapIds(auth) })).map(mapSyncItem);
    },

    sync,

    /** Every gateway's highest configuration version by MAC, before a restore replaces the table. */
    async configVersionsAnyTenant(): Promise<Array<{ id: bigint; mac: string; version: number }>> {
      return repo.configVersionsAnyTenant();
    },

    /**
     * After a restore: every gateway needs its configuration again (the restored one may differ from what it
     * runs). Versions go past anything each ran; online gateways are sent their configuration now, in the
     * background, the others show as not synced until someone syncs them.
     */
    async resyncAfterRestore(previous: Array<{ mac: string; version: number }>): Promise<void> {
      const bound = await repo.raiseVersionsPastAnyTenant({ previous, at: clock.now() });
      for (const row of bound) statusChanged(row.mac, { kind: 'sync', syncStatus: SYNC_STATUS.notSynced });
      for (const row of bound.filter((r) => r.online && r.tenantId !== null)) {
        const owner = { tenantId: row.tenantId!, operateAuth: OPERATE_AUTH.owner };
        void sync(owner, String(row.id)).catch((error: unknown) =>
          deps.logger.error(
            { mac: row.mac, err: { message: error instanceof Error ? error.message : String(error) } },
            'configuration sync after a restore failed',
          ),
        );
      }
    },

    /** Raises the configuration version of gateways whose configuration changed (groups, scenes, ... call it). */
    async configChanged(q: { tenantId: bigint; gatewayIds: bigint[] }): Promise<void> {
      await repo.raiseConfigVersion({ tenantId: q.tenantId, ids: q.gatewayIds, at: clock.now() });
    },

    /**
     * Sends the gateways their configuration soon, debounced per gateway, when they are online and run
     * another version (after configChanged: holidays, linkages, panel keys). Failures stay in the sync status.
     */
    pushConfig(q: { tenantId: bigint; gatewayIds: bigint[] }): void {
      for (const id of new Set(q.gatewayIds)) pushSoon(q.tenantId, id);
    },

    /**
     * A stored presence change (gateway-fleet): a gateway that comes back online running another version
     * than the cloud's (none after a reset, an older one after changes made while it was away) gets its
     * configuration without anyone pressing sync.
     */
    async presenceStored(mac: string, online: boolean): Promise<void> {
      if (!online) {
        seenOnline.delete(mac);
        return;
      }
      if (seenOnline.has(mac)) return;
      seenOnline.add(mac);
      const row = await repo.findByMacAnyTenant({ mac });
      if (row?.tenantId && row.online && row.syncedVersion !== row.configVersion) pushSoon(row.tenantId, row.id);
    },

    /** Stops pushing (the server closes): waiting pushes are dropped, running ones end. */
    async closePushes(): Promise<void> {
      closed = true;
      for (const timer of pushTimers.values()) clearTimeout(timer);
      pushTimers.clear();
      await Promise.all([...pushes.values()]);
    },
  };
}
