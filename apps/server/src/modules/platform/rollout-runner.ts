import { FIRMWARE_RESULT } from '@lumigrid/protocol';
import type { ErrorCode, GatewayFirmwareTarget, RolloutState, RolloutTargetState } from '@lumigrid/contract';
import { ROLLOUT_CHECK_MS } from '../../config.ts';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FirmwareCatalogue } from '../gateways/firmware-catalogue.ts';
import { minutesUntilWindow } from './maintenance-window.ts';
import type { PlatformRepo, RolloutRow, RolloutTargetRow } from './platform.repo.ts';

export const ROLLOUT_JOB = 'firmware.rollout';

/**
 * A gateway claimed for an update that never got its update id (the node stopped between the two writes) is
 * given up after this long: its update may never have been sent.
 */
const CLAIM_LOST_MS = 10 * 60_000;

/** Steps run at most this far apart while gateways wait for their maintenance window. */
const WINDOW_RECHECK_MS = 15 * 60_000;

export interface RolloutRunnerDeps {
  repo: PlatformRepo;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  link: Pick<GatewayLink, 'firmware'> | undefined;
  firmware: FirmwareCatalogue;
  clock: Clock;
  /** Told after every step that may have changed a rollout (the live topic). */
  changed(rolloutId: bigint): void;
  /** How long a step waits before it looks at its updates again (ROLLOUT_CHECK_S). */
  checkMs?: number;
}

/** What a finished update means for its target: where a rollout's and a rollback's updates end. */
const ENDS: Record<'updating' | 'rollingBack', { ok: RolloutTargetState; failed: RolloutTargetState }> = {
  updating: { ok: 'succeeded', failed: 'failed' },
  rollingBack: { ok: 'rolledBack', failed: 'rollbackFailed' },
};

function failureCode(result: number): ErrorCode {
  return result === FIRMWARE_RESULT.failure ? 100102 : 100103;
}

export function rolloutJobKey(rolloutId: bigint, step: number): string {
  return `rollout:${rolloutId}/${step}`;
}

/**
 * Moves rollouts on, one durable job per step (docs/operations.md "Platform view and firmware rollouts"). A step
 * collects the results of the updates it started, pauses at the failure threshold, opens the next wave, starts
 * updates up to the concurrency limit inside each gateway's maintenance window, and schedules the next step. The
 * rollout's `step` lets only the newest chain of steps act, so a pause and a resume never leave two running.
 */
export function createRolloutRunner(deps: RolloutRunnerDeps) {
  const { repo, clock } = deps;
  const checkMs = deps.checkMs ?? ROLLOUT_CHECK_MS;

  /** Records the results the gateway link has stored for the updates this rollout started. */
  async function collect(rollout: RolloutRow, targets: RolloutTargetRow[]): Promise<void> {
    const now = clock.now();
    const underWay = targets.filter((t) => t.state === 'updating' || t.state === 'rollingBack');
    for (const target of underWay.filter((t) => t.updateId === null && now.getTime() - (t.startedAt?.getTime() ?? 0) > CLAIM_LOST_MS)) {
      const from = target.state as 'updating' | 'rollingBack';
      if (await repo.moveTarget(rollout.id, target.mac, from, { state: ENDS[from].failed, errorCode: 100103, finishedAt: now }))
        Object.assign(target, { state: ENDS[from].failed, errorCode: 100103 });
    }
    const waiting = underWay.filter((t) => t.updateId !== null);
    const firmware = new Map((await repo.firmwareOfAnyTenant(waiting.map((t) => t.mac))).map((g) => [g.mac, g]));
    for (const target of waiting) {
      const from = target.state as 'updating' | 'rollingBack';
      const gateway = firmware.get(target.mac);
      // Another update replaced this one on the gateway (started by its account): this one's result never comes.
      const replaced = gateway?.fwUpdateId !== target.updateId;
      if (!replaced && (gateway?.fwResult ?? null) === null) continue;
      const ok = !replaced && gateway?.fwResult === FIRMWARE_RESULT.success;
      const errorCode = ok ? null : replaced ? 100102 : failureCode(gateway!.fwResult!);
      if (
        await repo.moveTarget(rollout.id, target.mac, from, { state: ok ? ENDS[from].ok : ENDS[from].failed, errorCode, finishedAt: now })
      )
        Object.assign(target, { state: ok ? ENDS[from].ok : ENDS[from].failed, errorCode });
    }
  }

  /** Starts one gateway's update to `version`; answers the target's state after it. */
  async function start(rollout: RolloutRow, target: RolloutTargetRow, from: RolloutTargetState, version: string) {
    const running: RolloutTargetState = from === 'pending' ? 'updating' : 'rollingBack';
    const failed: RolloutTargetState = from === 'pending' ? 'failed' : 'rollbackFailed';
    const now = clock.now();
    const fail = async (errorCode: ErrorCode) => {
      await repo.moveTarget(rollout.id, target.mac, running, { state: failed, errorCode, finishedAt: clock.now() });
      return failed;
    };
    // Claimed first: a second run of this step finds it taken and leaves it alone.
    if (!(await repo.moveTarget(rollout.id, target.mac, from, { state: running, startedAt: now, errorCode: null, finishedAt: null })))
      return target.state;
    const file = deps.firmware.find(rollout.target as GatewayFirmwareTarget, version, target.mac);
    if (!file) return fail(260007);
    if (!deps.link) return fail(100101);
    const outcome = await deps.link.firmware.start(target.mac, {
      target: file.target,
      version: file.version,
      url: file.url,
      ...(file.size !== undefined ? { size: file.size } : {}),
      ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
    });
    if (outcome.state !== 'succeeded') return fail(outcome.errorCode);
    await repo.moveTarget(rollout.id, target.mac, running, { updateId: outcome.id });
    return running;
  }

  /**
   * Starts what may start now among `candidates`: at most `free`, each in its window. Answers the minutes until
   * the first window opens for those left waiting on theirs (undefined when none waits).
   */
  async function startSome(
    rollout: RolloutRow,
    candidates: RolloutTargetRow[],
    free: number,
    from: RolloutTargetState,
    versionOf: (t: RolloutTargetRow) => string,
  ): Promise<number | undefined> {
    const zones = new Map((await repo.firmwareOfAnyTenant(candidates.map((t) => t.mac))).map((g) => [g.mac, g.timezone]));
    const now = clock.now();
    const chosen: RolloutTargetRow[] = [];
    let waitMin: number | undefined;
    for (const target of candidates) {
      if (chosen.length >= free) break;
      const wait = minutesUntilWindow(rollout.window, zones.get(target.mac) ?? null, now);
      if (wait === 0) chosen.push(target);
      else waitMin = Math.min(waitMin ?? wait, wait);
    }
    const states = await Promise.all(chosen.map((t) => start(rollout, t, from, versionOf(t))));
    chosen.forEach((t, i) => (t.state = states[i]!));
    return waitMin;
  }

  /**
   * The wave's failures past the threshold: more than failureThresholdPct percent of its gateways failed. A
   * resume after such a pause accepts that wave's failures.
   */
  function pastThreshold(rollout: RolloutRow, waveNumber: number, wave: RolloutTargetRow[]): boolean {
    if (waveNumber <= rollout.acceptedWave) return false;
    const failed = wave.filter((t) => t.state === 'failed').length;
    return failed * 100 > rollout.failureThresholdPct * wave.length;
  }

  /** One step of a running rollout; answers whether another step should follow, and after how long. */
  async function runWaves(rollout: RolloutRow, targets: RolloutTargetRow[]): Promise<number | undefined> {
    let wave = rollout.currentWave;
    for (;;) {
      const inWave = targets.filter((t) => t.wave === wave);
      if (pastThreshold(rollout, wave, inWave)) {
        await repo.moveRollout(rollout.id, ['running'], { state: 'paused', pauseReason: 'threshold', updatedAt: clock.now() });
        // Updates already under way still report: keep collecting them while paused.
        return inWave.some((t) => t.state === 'updating') ? checkMs : undefined;
      }
      if (inWave.some((t) => t.state === 'pending' || t.state === 'updating')) break;
      if (wave >= rollout.waves) {
        await repo.moveRollout(rollout.id, ['running'], { state: 'done', finishedAt: clock.now(), updatedAt: clock.now() });
        return undefined;
      }
      wave += 1;
      await repo.moveRollout(rollout.id, ['running'], { currentWave: wave, updatedAt: clock.now() });
    }
    const inWave = targets.filter((t) => t.wave === wave);
    const free = rollout.concurrency - inWave.filter((t) => t.state === 'updating').length;
    const pending = inWave.filter((t) => t.state === 'pending');
    const waitMin = free > 0 ? await startSome(rollout, pending, free, 'pending', () => rollout.version) : undefined;
    // Gateways waiting only on their window: look again when the first one opens.
    if (waitMin === undefined || inWave.some((t) => t.state === 'updating')) return checkMs;
    return Math.min(waitMin * 60_000, WINDOW_RECHECK_MS);
  }

  /** One step of a rollback: the gateways the rollout updated get their previous version back. */
  async function runRollback(rollout: RolloutRow, targets: RolloutTargetRow[]): Promise<number | undefined> {
    const back = targets.filter((t) => t.state === 'rollingBack').length;
    const left = targets.filter((t) => t.state === 'succeeded');
    if (back === 0 && left.length === 0) {
      await repo.moveRollout(rollout.id, ['rollingBack'], { state: 'rolledBack', finishedAt: clock.now(), updatedAt: clock.now() });
      return undefined;
    }
    const free = rollout.concurrency - back;
    const waitMin = free > 0 ? await startSome(rollout, left, free, 'succeeded', (t) => t.fromVersion) : undefined;
    return waitMin === undefined || back > 0 ? checkMs : Math.min(waitMin * 60_000, WINDOW_RECHECK_MS);
  }

  async function runStep(rolloutId: bigint, step: number): Promise<void> {
    const rollout = await repo.rollout(rolloutId);
    // A newer chain of steps (a resume, a rollback) took over: this one ends here.
    if (!rollout || rollout.step !== step) return;
    const targets = await repo.targets(rolloutId);
    await collect(rollout, targets);
    const active: RolloutState[] = ['running', 'paused', 'rollingBack'];
    let nextInMs: number | undefined;
    if (rollout.state === 'running') nextInMs = await runWaves(rollout, targets);
    else if (rollout.state === 'rollingBack') nextInMs = await runRollback(rollout, targets);
    else if (rollout.state === 'paused' && targets.some((t) => t.state === 'updating')) nextInMs = checkMs;
    deps.changed(rolloutId);
    if (nextInMs === undefined || !active.includes(rollout.state)) return;
    // Scheduled before the step is raised: a node dying between the two runs this step again, which schedules
    // the same job (same key) and then raises the step.
    await deps.jobs.schedule({
      kind: ROLLOUT_JOB,
      key: rolloutJobKey(rolloutId, step + 1),
      runAt: new Date(clock.now().getTime() + nextInMs),
      payload: { rolloutId: String(rolloutId), step: step + 1 },
    });
    await repo.advanceStep(rolloutId, step, clock.now());
  }

  deps.jobs.register(ROLLOUT_JOB, async (payload) => {
    const { rolloutId, step } = payload as { rolloutId: string; step: number };
    await runStep(BigInt(rolloutId), step);
  });

  return {
    /** Schedules the first step of a new chain: the rollout's step was just raised to `step`. */
    async kick(rolloutId: bigint, step: number): Promise<void> {
      await deps.jobs.schedule({
        kind: ROLLOUT_JOB,
        key: rolloutJobKey(rolloutId, step),
        runAt: clock.now(),
        payload: { rolloutId: String(rolloutId), step },
      });
    },
  };
}

export type RolloutRunner = ReturnType<typeof createRolloutRunner>;
