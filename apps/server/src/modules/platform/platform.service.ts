import {
  ROLLOUT_TARGET_STATES,
  type FirmwareFileView,
  type GatewayFirmwareTarget,
  type PlatformOverview,
  type Rollout,
  type RolloutCreateBody,
  type RolloutDetail,
  type RolloutTargetState,
} from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { Clock } from '../../lib/clock.ts';
import { toId } from '../access/access.ts';
import type { FirmwareCatalogue } from '../gateways/firmware-catalogue.ts';
import type { PlatformRepo, RolloutRow } from './platform.repo.ts';
import type { RolloutRunner } from './rollout-runner.ts';

/** The rollouts the list shows. */
const LIST_LIMIT = 100;

type Caller = Pick<AuthContext, 'userId' | 'userAuth' | 'operateAuth'>;

function mapRollout(row: RolloutRow, counts: Map<RolloutTargetState, number>): Rollout {
  const all = Object.fromEntries(ROLLOUT_TARGET_STATES.map((state) => [state, counts.get(state) ?? 0])) as Rollout['counts'];
  return {
    id: String(row.id),
    target: row.target,
    version: row.version,
    state: row.state,
    pauseReason: row.pauseReason ?? null,
    selection: row.selection,
    waveSize: row.waveSize,
    concurrency: row.concurrency,
    failureThresholdPct: row.failureThresholdPct,
    window: row.window ?? null,
    currentWave: row.currentWave,
    waves: row.waves,
    total: Object.values(all).reduce((a, b) => a + b, 0),
    counts: all,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

/**
 * The platform administrator's view across tenants and the fleet firmware rollouts. Every call is the platform
 * administrator's alone (the route checks it, and so does each call here, as they read every tenant).
 */
export function createPlatformService(deps: {
  repo: PlatformRepo;
  runner: RolloutRunner;
  firmware: FirmwareCatalogue;
  clock: Clock;
  /** Told about every change of a rollout (the live topic). */
  changed(rolloutId: bigint): void;
}) {
  const { repo, clock } = deps;

  async function summaries(rows: RolloutRow[]): Promise<Rollout[]> {
    const counts = await repo.countsAnyTenant(rows.map((r) => r.id));
    return rows.map((row) => {
      const mine = new Map(counts.filter((c) => c.rolloutId === row.id).map((c) => [c.state, Number(c.n)]));
      return mapRollout(row, mine);
    });
  }

  async function requireRollout(id: string): Promise<RolloutRow> {
    const row = await repo.rollout(toId(id));
    if (!row) throw new AppError(104003);
    return row;
  }

  /** Moves a rollout to a new state with a new chain of steps, from the states that allow it (104006 otherwise). */
  async function restart(auth: Caller, id: string, from: RolloutRow['state'][], state: RolloutRow['state']): Promise<Rollout> {
    assertMay(auth, 'admin');
    const row = await requireRollout(id);
    // Resuming after the threshold paused it accepts that wave's failures; otherwise it would pause again at once.
    const accepts = state === 'running' && row.pauseReason === 'threshold' ? { acceptedWave: row.currentWave } : {};
    const moved = await repo.restartRollout(row.id, from, {
      state,
      pauseReason: null,
      finishedAt: null,
      updatedAt: clock.now(),
      ...accepts,
    });
    if (!moved) throw new AppError(104006);
    await deps.runner.kick(moved.id, moved.step);
    deps.changed(moved.id);
    return (await summaries([moved]))[0]!;
  }

  const service = {
    async overview(auth: Caller): Promise<PlatformOverview> {
      assertMay(auth, 'admin');
      const [tenants, presence, devices, alarms, storage, firmware, databaseBytes] = await Promise.all([
        repo.tenantsAnyTenant(),
        repo.gatewayPresenceAnyTenant(),
        repo.devicesByTenantAnyTenant(),
        repo.openAlarmsByTenantAnyTenant(),
        repo.storageByTenantAnyTenant(),
        repo.fleetVersionsAnyTenant(),
        repo.databaseBytesAnyTenant(),
      ]);
      const gateways = (tenantId: bigint, online: boolean) =>
        presence.filter((p) => p.tenantId === tenantId && p.online === online).reduce((n, p) => n + Number(p.n), 0);
      return {
        tenants: tenants.map((t) => ({
          id: String(t.id),
          account: t.account,
          name: t.name,
          enabled: t.enabled,
          gatewaysOnline: gateways(t.id, true),
          gatewaysOffline: gateways(t.id, false),
          devices: devices.get(t.id) ?? 0,
          openAlarms: alarms.get(t.id) ?? 0,
          storageBytes: storage.get(t.id) ?? 0,
        })),
        poolGateways: presence.filter((p) => p.tenantId === null).reduce((n, p) => n + Number(p.n), 0),
        firmware: firmware.map((f) => ({ target: 'gateway', model: f.model, version: f.version, count: Number(f.count) })),
        databaseBytes,
      };
    },

    firmwareFiles(auth: Caller): FirmwareFileView[] {
      assertMay(auth, 'admin');
      const seen = new Set<string>();
      return deps.firmware
        .files()
        .map((f) => ({ target: f.target, version: f.version }))
        .filter((f) => !seen.has(`${f.target}/${f.version}`) && seen.add(`${f.target}/${f.version}`));
    },

    async rollouts(auth: Caller): Promise<Rollout[]> {
      assertMay(auth, 'admin');
      return summaries(await repo.rollouts(LIST_LIMIT));
    },

    /** A rollout's summary, for the live topic. */
    async summary(id: bigint): Promise<Rollout | undefined> {
      const row = await repo.rollout(id);
      return row && (await summaries([row]))[0];
    },

    async rollout(auth: Caller, id: string): Promise<RolloutDetail> {
      assertMay(auth, 'admin');
      const row = await requireRollout(id);
      const targets = await repo.targets(row.id);
      const ids = targets.flatMap((t) => (t.gatewayId === null ? [] : [t.gatewayId]));
      const gateways = new Map((await repo.targetGatewaysAnyTenant(ids)).map((g) => [g.id, g]));
      const [rollout] = await summaries([row]);
      return {
        rollout: rollout!,
        targets: targets.map((t) => {
          const gateway = t.gatewayId === null ? undefined : gateways.get(t.gatewayId);
          return {
            gatewayId: t.gatewayId === null ? null : String(t.gatewayId),
            mac: t.mac,
            name: gateway?.name ?? '',
            tenant: gateway?.tenant ?? '',
            model: gateway?.model ?? '',
            wave: t.wave,
            fromVersion: t.fromVersion,
            state: t.state,
            errorCode: t.errorCode,
          };
        }),
      };
    },

    async startRollout(auth: Caller, body: RolloutCreateBody): Promise<Rollout> {
      assertMay(auth, 'admin');
      if (body.concurrency > body.waveSize) throw new AppError(104004);
      if (body.window && body.window.start === body.window.end) throw new AppError(104007);
      const target = body.target as GatewayFirmwareTarget;
      if (!deps.firmware.files().some((f) => f.target === target && f.version === body.version)) throw new AppError(104002);
      const matching = (
        await repo.matchingGatewaysAnyTenant({
          target,
          tenantIds: (body.selection.tenantIds ?? []).map(toId),
          versions: body.selection.versions ?? [],
          models: body.selection.models ?? [],
        })
      ).filter((g) => g.running !== body.version && deps.firmware.find(target, body.version, g.mac) !== undefined);
      if (matching.length === 0) throw new AppError(104001);
      if ((await repo.heldByActiveRolloutAnyTenant(matching.map((g) => g.mac))).length > 0) throw new AppError(104005);
      const now = clock.now();
      const row = await repo.insertRollout(
        {
          target,
          version: body.version,
          selection: body.selection,
          waveSize: body.waveSize,
          concurrency: body.concurrency,
          failureThresholdPct: body.failureThresholdPct,
          window: body.window ?? null,
          state: 'running',
          waves: Math.ceil(matching.length / body.waveSize),
          createdBy: auth.userId,
          createdAt: now,
          updatedAt: now,
        },
        matching.map((g, i) => ({ mac: g.mac, gatewayId: g.id, wave: Math.floor(i / body.waveSize) + 1, fromVersion: g.running })),
      );
      await deps.runner.kick(row.id, row.step);
      deps.changed(row.id);
      return (await summaries([row]))[0]!;
    },

    async pauseRollout(auth: Caller, id: string): Promise<Rollout> {
      assertMay(auth, 'admin');
      const row = await requireRollout(id);
      // The chain of steps goes on collecting the updates under way; it starts no new one while paused.
      const moved = await repo.moveRollout(row.id, ['running'], { state: 'paused', pauseReason: 'manual', updatedAt: clock.now() });
      if (!moved) throw new AppError(104006);
      deps.changed(moved.id);
      return (await summaries([moved]))[0]!;
    },

    resumeRollout: (auth: Caller, id: string) => restart(auth, id, ['paused'], 'running'),

    rollBack: (auth: Caller, id: string) => restart(auth, id, ['paused', 'done'], 'rollingBack'),
  };
  return service;
}

export type PlatformService = ReturnType<typeof createPlatformService>;
