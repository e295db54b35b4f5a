import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { DomainModule } from '../../http/module.ts';
import { keepLease, LEASE_DEFAULTS, nodeName, serverLease, type LeaseKeeper, type LeaseOptions } from '../../lifecycle/lease.ts';
import type { AlarmsByHandEvent, FaultsChangedEvent, RealtimeBus } from '../../realtime/realtime-bus.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { RaisedAlert } from '../alerts/alert-tracker.ts';
import { createAlarmKeeper, type AlarmKeeper, type AlarmKeeperDeps, type ClearedFaults } from './alarm-keeper.ts';
import { createAlarmsRepo, type AlarmRow } from './alarms.repo.ts';
import { registerAlarmRoutes } from './alarms.routes.ts';
import { createAlarmsService } from './alarms.service.ts';

/** The lease (server_leases) of the node that runs the alarm engine. */
export const ALARM_LEASE = 'alarms';
/** How long a node that does not run the engine waits for its answer to an acknowledge or shelve. */
export const BY_HAND_TIMEOUT_MS = 5000;

/** Faults kept while the node's first try for the lease is under way (those of a start, the demo's). */
const EARLY_MAX = 10_000;

const idOrNull = (id: string | null) => (id === null ? null : BigInt(id));

/**
 * Alarm management over the fault list: fed by the alert tracker's raises and clears (docs/alarms.md). One
 * server node runs the alarm engine, the one holding the `alarms` lease; the others send it the faults their
 * trackers raise and clear, and the acknowledges and shelves they answer, over the real-time bus. A node that
 * takes the lease over rebuilds the engine from the standing alarms and the open faults.
 */
export function createAlarmsModule(
  deps: Omit<AlarmKeeperDeps, 'repo' | 'logger' | 'bannerGapMs' | 'openFaults'> & {
    db: Db;
    accounts: Pick<AccountsService, 'findById'>;
    bus: Pick<RealtimeBus, 'publish' | 'subscribe'>;
    logger: FastifyBaseLogger;
    /** This node's name on the bus and in the lease. */
    node?: string;
    /** The engine's lease (tests try by hand with a long tryMs). */
    lease?: Partial<LeaseOptions>;
  },
) {
  const { bus } = deps;
  const node = deps.node ?? nodeName();
  const repo = createAlarmsRepo(deps.db);
  const keeper = createAlarmKeeper({ ...deps, repo, openFaults: () => repo.openFaultsAnyTenant() });
  /** Whether this node runs the engine: set before the engine is rebuilt, so what arrives meanwhile queues behind it. */
  let owner = false;
  let lease: LeaseKeeper | undefined;
  /** Faults that came before this node knew whether it runs the engine: the engine takes them if it does. */
  let early: Array<() => void> | undefined = [];
  function toEngine(work: () => void) {
    if (owner) work();
    else if (early && early.length < EARLY_MAX) early.push(work);
  }
  const asked = new Map<string, (count: number) => void>();
  const warn = (err: unknown) => deps.logger.warn({ err }, 'alarm not updated');

  /** A fault another node's tracker raised or cleared, for the engine here. */
  function heard(event: FaultsChangedEvent) {
    const gatewayId = BigInt(event.gatewayId);
    const { cleared, raised } = event;
    if (cleared) void keeper.faultCleared({ gatewayId, addr: event.addr, codes: cleared }).catch(warn);
    if (raised)
      void keeper
        .faultRaised({
          tenantId: BigInt(raised.tenantId),
          gatewayId,
          gatewayName: raised.gatewayName,
          deviceId: idOrNull(raised.deviceId),
          addr: event.addr,
          name: raised.name,
          projectId: idOrNull(raised.projectId),
          mapId: idOrNull(raised.mapId),
          code: raised.code,
        })
        .catch(warn);
  }

  function applyByHand(op: AlarmsByHandEvent['op'], rows: AlarmRow[], byName: string, until?: Date, reason?: string) {
    if (op === 'ack') return keeper.acknowledge(rows, byName);
    if (op === 'shelve') return keeper.shelve(rows, until!, reason!, byName);
    return keeper.unshelve(rows, byName);
  }

  /** An acknowledge or shelve another node answered, applied here; the answer goes back over the bus. */
  async function byHandFor(event: AlarmsByHandEvent) {
    const rows = await repo.byIdsAnyTenant(event.ids.map(BigInt));
    const until = event.until === undefined ? undefined : new Date(event.until);
    const count = await applyByHand(event.op, rows, event.byName, until, event.reason);
    bus.publish({ kind: 'alarmsByHandDone', request: event.request, count });
  }

  /** Applies a hand-made change here when this node runs the engine, otherwise asks the node that does. */
  function byHand(op: AlarmsByHandEvent['op'], rows: AlarmRow[], byName: string, until?: Date, reason?: string): Promise<number> {
    if (owner) return applyByHand(op, rows, byName, until, reason);
    const request = randomBytes(8).toString('hex');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        asked.delete(request);
        reject(new AppError(105001));
      }, BY_HAND_TIMEOUT_MS);
      asked.set(request, (count) => {
        clearTimeout(timer);
        asked.delete(request);
        resolve(count);
      });
      bus.publish({
        kind: 'alarmsByHand',
        node,
        request,
        op,
        ids: rows.map((row) => String(row.id)),
        byName,
        ...(until ? { until: until.toISOString() } : {}),
        ...(reason !== undefined ? { reason } : {}),
      });
    });
  }

  const unsubscribe = bus.subscribe((event) => {
    if (event.kind === 'faultsChanged') {
      if (event.node !== node) toEngine(() => heard(event));
    } else if (event.kind === 'alarmsByHand') {
      if (owner && event.node !== node) void byHandFor(event).catch(warn);
    } else if (event.kind === 'alarmsByHandDone') asked.get(event.request)?.(event.count);
    else if (event.kind === 'alarmSettingsChanged') keeper.settingsChanged(BigInt(event.projectId));
  });

  const alarms = createAlarmsService({
    repo,
    keeper: {
      acknowledge: (rows, byName) => byHand('ack', rows, byName),
      shelve: (rows, until, reason, byName) => byHand('shelve', rows, byName, until, reason),
      unshelve: (rows, byName) => byHand('unshelve', rows, byName),
      settingsChanged: (projectId) => {
        keeper.settingsChanged(projectId);
        bus.publish({ kind: 'alarmSettingsChanged', projectId: String(projectId) });
      },
    },
    clock: deps.clock,
    nameOf: async (userId) => {
      const user = await deps.accounts.findById(userId);
      return user?.name || user?.account || '';
    },
  });

  return {
    service: alarms,
    keeper,
    /** Whether this node runs the engine, and tries for it now (tests). */
    owner: { held: () => owner, tryNow: () => lease?.tryNow() ?? Promise.resolve() },
    /** For the alert tracker: a fault raised on this node becomes an alarm by its code's rules. */
    alertRaised: (alert: RaisedAlert) => toEngine(() => void keeper.faultRaised({ ...alert }).catch(warn)),
    /** For the alert tracker: faults cleared on this node. */
    alertsCleared: (cleared: ClearedFaults) => toEngine(() => void keeper.faultCleared(cleared).catch(warn)),
    /** Takes the engine's lease if no node holds it (and waits for the first try), then keeps trying. */
    async start() {
      lease = keepLease({
        lease: serverLease(deps.db, ALARM_LEASE),
        what: 'alarm engine',
        holder: node,
        clock: deps.clock,
        logger: deps.logger,
        options: { ...LEASE_DEFAULTS, ...deps.lease },
        onHeld: async () => {
          owner = true;
          const started = keeper.start();
          // Behind the rebuild, in the engine's queue: a fault of the start already open comes in once.
          for (const work of early?.splice(0) ?? []) work();
          await started;
        },
        onLost: async () => {
          owner = false;
          await keeper.stop();
        },
      });
      await lease.settled();
      early = undefined;
    },
    register: (route) => registerAlarmRoutes(route, { alarms }),
    async close() {
      unsubscribe();
      await lease?.stop();
      keeper.close();
    },
  } satisfies DomainModule & Record<string, unknown>;
}
export type AlarmsModule = ReturnType<typeof createAlarmsModule>;
export type { AlarmKeeper };
