import {
  EMERGENCY_FAILURE_FAULT,
  EMERGENCY_FUNCTION_RESULT,
  EMERGENCY_LIFE_RESULT,
  EMERGENCY_LIMITS,
  EMERGENCY_STATE,
  emergencyCategory,
  emergencyDestination,
  emergencyDurationS,
  type EmergencyFailure,
  type EmergencyTopicMessage,
  type ErrorCode,
} from '@lumigrid/contract';
import type { WebhookEvents } from '../webhooks/webhooks.service.ts';
import type { DecodedUp, EventMessage } from '@lumigrid/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayLink } from '../../gateway-link/gateway-link.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RealtimeHub } from '../../realtime/realtime-hub.ts';
import { nextPlannedRun, staggerWaves } from './emergency-plan.ts';
import { runAnswer } from './emergency.mappers.ts';
import type { EmergencyRepo, LogBookInsert, RecordRow, RunRow, TaskRow } from './emergency.repo.ts';
import { denyAccess } from '../access/access.ts';

type EmergencyEvent = Extract<EventMessage, { type: 'emergency' }>;
/** The fields a final event carries (docs/protocol.md "emergency"); read loosely, older gateways send fewer. */
type FinalFields = Partial<{
  voltageBefore: number;
  voltageAfter: number;
  durationS: number;
  batteryVoltage: number;
  batteryCurrent: number;
  batteryTemperature: number;
  batteryCells: number;
  powerW: number;
  failures: string[];
}>;

/** Who started or stopped a run by hand: the user and the name the log book keeps. */
export interface RunActor {
  userId: bigint;
  name: string;
}

export const EMERGENCY_JOBS = { wave: 'emergency.wave', deadline: 'emergency.deadline', plan: 'emergency.plan' } as const;

/** What a failure's state code says failed, when the event does not list its failures. */
function failuresOfState(state: number): EmergencyFailure[] {
  if (state === EMERGENCY_STATE.chargeDischargeFault) return ['circuit'];
  if (state === EMERGENCY_STATE.ledLoadFault) return ['lamp'];
  return ['battery'];
}

/** How a result code reads: pass, failed (with what failed), stopped or still testing. */
export function outcomeOf(test: 'function' | 'life', result: number, state: number): 'pass' | 'failed' | 'stopped' | 'testing' {
  if (state === EMERGENCY_STATE.manuallyStopped) return 'stopped';
  if (test === 'function') {
    if (result === EMERGENCY_FUNCTION_RESULT.pass) return 'pass';
    if (result === EMERGENCY_FUNCTION_RESULT.testing) return 'testing';
    return 'failed';
  }
  if (result === EMERGENCY_LIFE_RESULT.pass) return 'pass';
  if (result === EMERGENCY_LIFE_RESULT.testing) return 'testing';
  if (result === EMERGENCY_LIFE_RESULT.stopped) return 'stopped';
  return 'failed';
}

/**
 * Runs emergency tests: a run of a task is split into waves (the stagger); each wave is sent to the gateway
 * (emergency.start), followed through the gateway's `emergency` events, and timed out on the job runner when a light
 * stays silent (communication failure, code 9). Outcomes go to the records, the log book, the alert tracker and the
 * map's real-time topic. A life wave waits 24 h after the last life test on its gateway. Recurring tasks are jobs.
 */
export function createEmergencyRunner(deps: {
  repo: EmergencyRepo;
  clock: Clock;
  jobs: Pick<JobRunner, 'schedule' | 'register'>;
  link: Pick<GatewayLink, 'bus' | 'onUp'> | undefined;
  /** Raises and clears the alert of a failed or passed test (a `fault` event of the alert tracker's). */
  faults: (message: DecodedUp) => void;
  realtime: Pick<RealtimeHub, 'publish'>;
  logger: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  commandTimeoutMs?: number;
  /** Told each run that finished or was stopped (webhooks). */
  events?: WebhookEvents;
}) {
  const { repo, clock, logger } = deps;
  const chains = new Map<string, Promise<unknown>>();

  /** Runs one run's work after the work before it, so its records and waves move in order on this node. */
  function serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const next = (chains.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    const settled = next.catch(() => undefined);
    chains.set(key, settled);
    void settled.finally(() => {
      if (chains.get(key) === settled) chains.delete(key);
    });
    return next;
  }

  function publish(mapId: bigint | null, message: EmergencyTopicMessage) {
    if (mapId !== null) deps.realtime.publish(emergencyDestination(mapId), message);
  }

  /** A wave's job (its start, or the deadline of its results): one per run and wave, so a wave is never planned twice. */
  async function scheduleWaveJob(
    kind: typeof EMERGENCY_JOBS.wave | typeof EMERGENCY_JOBS.deadline,
    runId: bigint,
    wave: number,
    runAt: Date,
  ) {
    await deps.jobs.schedule({ kind, key: `run:${runId}/wave:${wave}`, runAt, payload: { runId: String(runId), wave } });
  }

  async function publishRun(runId: bigint) {
    const run = await repo.findRunAnyTenant(runId);
    if (!run) return;
    const counts = (await repo.runCounts([run.id])).get(run.id);
    publish(run.mapId, { kind: 'run', run: runAnswer(run, counts) });
  }

  /** Tells integrators a run ended, with its outcome and counts (webhooks); queued off this path. */
  function tellFinished(runId: bigint) {
    deps.events?.emit(async () => {
      const run = await repo.findRunAnyTenant(runId);
      if (!run) return undefined;
      const answer = runAnswer(run, (await repo.runCounts([run.id])).get(run.id));
      return { kind: 'emergency.testFinished', tenantId: run.tenantId, projectId: run.projectId, at: clock.now(), data: answer };
    });
  }

  async function command<N extends 'emergency.start' | 'emergency.stop'>(
    mac: string,
    name: N,
    params: Parameters<GatewayLink['bus']['send']>[2] & object,
  ) {
    if (!deps.link) throw new AppError(100105);
    const outcome = await deps.link.bus.send(
      mac,
      name,
      params as never,
      deps.commandTimeoutMs ? { timeoutMs: deps.commandTimeoutMs } : undefined,
    );
    if (outcome.state === 'succeeded')
      return outcome.result as { started?: string[]; refused?: Array<{ addr: string; state: number }>; stopped?: string[] };
    throw new AppError(outcome.errorCode as ErrorCode);
  }

  function startParams(run: RunRow, addrs: string[], lightType: 'maintained' | 'non-maintained') {
    return {
      addrs,
      test: run.test,
      durationS: run.durationS,
      allowWhileCharging: run.allowWhileCharging,
      batteryCells: run.batteryCells,
      lightType,
    };
  }

  /** What a test's entry in the log book says besides its outcome: what an inspector reads (EN 50172, EN 62034). */
  function logOf(run: RunRow, record: RecordRow): Omit<LogBookInsert, 'type'> {
    return {
      tenantId: run.tenantId,
      projectId: run.projectId,
      at: record.finishedAt ?? clock.now(),
      deviceId: record.deviceId,
      deviceName: record.deviceName,
      addr: record.addr,
      buildName: run.buildName,
      mapName: run.mapName,
      taskName: run.taskName,
      runId: run.id,
      test: run.test,
      trigger: run.trigger,
      startedBy: run.startedBy,
      stoppedBy: run.stoppedBy,
      durationS: record.durationS,
      ratedDurationS: run.durationS,
    };
  }

  /** Closes a light's record with its outcome: the log book, the alert and the map hear of it. */
  async function conclude(run: RunRow, record: RecordRow, mac: string) {
    const base = logOf(run, record);
    const at = record.finishedAt ?? clock.now();
    if (record.faultCode !== null) {
      await repo.appendLog([{ ...base, type: 'failure', result: 'failed', faultCode: record.faultCode, failures: record.failures }]);
      deps.faults({
        mac,
        channel: 'event',
        message: { type: 'fault', ts: at.getTime(), addr: record.addr, code: record.faultCode, raised: true },
      });
    } else if (record.passed) {
      await repo.appendLog([{ ...base, type: 'test', result: 'pass' }]);
      // A pass shows the light works again: the alerts a failed test raised clear.
      for (const code of Object.values(EMERGENCY_FAILURE_FAULT))
        deps.faults({ mac, channel: 'event', message: { type: 'fault', ts: at.getTime(), addr: record.addr, code, raised: false } });
    } else if (record.startedAt !== null) {
      await repo.appendLog([{ ...base, type: 'test', result: 'stopped' }]);
    }
  }

  /** After a light's outcome: when its wave has no open record left, the next wave (or the end of the run). */
  async function advance(runId: bigint) {
    const run = await repo.findRunAnyTenant(runId);
    if (!run || run.state !== 'running') return;
    const records = await repo.runRecords(run.id);
    const wave = records.filter((r) => r.record.wave === run.currentWave);
    if (wave.some((r) => r.record.finishedAt === null) || run.nextWaveAt !== null) return;
    const nextWave = run.currentWave + 1;
    if (nextWave > run.waves) {
      const all = records.map((r) => r.record);
      const result = all.some((r) => r.faultCode !== null) ? 'failed' : all.every((r) => r.passed) ? 'pass' : 'stopped';
      await repo.updateRun({
        id: run.id,
        expectWave: run.currentWave,
        values: { state: 'finished', result, finishedAt: clock.now(), currentWave: nextWave },
      });
      await publishRun(run.id);
      tellFinished(run.id);
      return;
    }
    if (!(await repo.updateRun({ id: run.id, expectWave: run.currentWave, values: { currentWave: nextWave } }))) return;
    await startWave(run.id, nextWave);
  }

  /**
   * Sends a wave to the gateway, unless a life test must rest first (then the wave is a job at the end of the rest).
   * Answers what the gateway said; a gateway that cannot be reached makes the wave's lights communication failures.
   */
  async function startWave(runId: bigint, wave: number) {
    const run = await repo.findRunAnyTenant(runId);
    if (!run || run.state !== 'running' || run.currentWave !== wave) return undefined;
    const records = (await repo.runRecords(run.id))
      .map((r) => r.record)
      .filter((r) => r.wave === wave && r.finishedAt === null && r.startedAt === null);
    if (records.length === 0) return undefined;
    const now = clock.now();
    if (run.test === 'life') {
      const rest = await repo.lifeRestUntil({ gatewayId: run.gatewayId, exceptRunId: run.id, restMs: EMERGENCY_LIMITS.lifeRestMs });
      if (rest && rest.getTime() > now.getTime()) {
        await repo.updateRun({ id: run.id, expectWave: wave, values: { nextWaveAt: rest } });
        await scheduleWaveJob(EMERGENCY_JOBS.wave, run.id, wave, rest);
        await publishRun(run.id);
        return { started: [] as string[], refused: [] as Array<{ addr: string; state: number }>, startsAt: rest };
      }
    }
    await repo.updateRun({ id: run.id, expectWave: wave, values: { nextWaveAt: null } });
    const place = await repo.gatewayPlace({ tenantId: run.tenantId, gatewayId: run.gatewayId });
    const task = run.taskId !== null ? await repo.findTaskAnyTenant(run.taskId) : undefined;
    const addrs = records.map((r) => r.addr);
    let answer: { started: string[]; refused: Array<{ addr: string; state: number }> };
    let failure: unknown;
    try {
      if (!place) denyAccess();
      const result = await command(place.mac, 'emergency.start', startParams(run, addrs, task?.lightType ?? 'maintained'));
      answer = { started: result.started ?? [], refused: result.refused ?? [] };
    } catch (err) {
      failure = err;
      answer = { started: [], refused: [] };
    }
    await repo.startRecords({ runId: run.id, addrs: answer.started, at: now });
    for (const refused of answer.refused) {
      const record = records.find((r) => r.addr === refused.addr);
      if (record) await repo.updateOpenRecord({ id: record.id, values: { state: refused.state, passed: false, finishedAt: now } });
    }
    const silent = records.filter((r) => !answer.started.includes(r.addr) && !answer.refused.some((x) => x.addr === r.addr));
    // Not reached, or not answered for: the light could not be tested, a communication anomaly (code 9).
    for (const record of silent) {
      const closed = await repo.updateOpenRecord({
        id: record.id,
        values: {
          startedAt: now,
          finishedAt: now,
          passed: false,
          failures: ['communication'],
          faultCode: EMERGENCY_FAILURE_FAULT.communication,
        },
      });
      if (closed && place) await conclude(run, closed, place.mac);
    }
    if (answer.started.length > 0) {
      const deadline = new Date(now.getTime() + run.durationS * 1000 + EMERGENCY_LIMITS.resultMarginMs);
      await scheduleWaveJob(EMERGENCY_JOBS.deadline, run.id, wave, deadline);
    }
    await publishRun(run.id);
    if (answer.started.length === 0) await advance(run.id);
    if (failure) throw failure;
    return { ...answer, startsAt: now };
  }

  /** A light said nothing by the wave's deadline: a communication failure (code 9). */
  async function deadline(runId: bigint, wave: number) {
    const run = await repo.findRunAnyTenant(runId);
    if (!run || run.state !== 'running') return;
    const place = await repo.gatewayPlace({ tenantId: run.tenantId, gatewayId: run.gatewayId });
    const now = clock.now();
    for (const { record } of await repo.runRecords(run.id)) {
      if (record.wave !== wave || record.finishedAt !== null || record.startedAt === null) continue;
      const closed = await repo.updateOpenRecord({
        id: record.id,
        values: { finishedAt: now, passed: false, failures: ['communication'], faultCode: EMERGENCY_FAILURE_FAULT.communication },
      });
      if (closed && place) await conclude(run, closed, place.mac);
    }
    await advance(run.id);
  }

  /** A gateway's `emergency` event: progress or the outcome of a light in a run; always the light's live state. */
  async function onEvent(mac: string, event: EmergencyEvent) {
    const open = await repo.openRecordAnyTenant({ mac, addr: event.addr });
    // The server's clock, not the gateway's: the rest between life tests and the deadlines are counted on it.
    const at = clock.now();
    if (!open) {
      const light = await repo.lightByAddrAnyTenant({ mac, addr: event.addr });
      if (light)
        publish(light.mapId, {
          kind: 'light',
          deviceId: String(light.id),
          state: event.state,
          category: emergencyCategory(event.state),
          battery: null,
          online: true,
          runId: null,
          taskId: null,
          progress: event.progress ?? null,
          result: event.result ?? null,
        });
      return;
    }
    const { run } = open;
    await serial(String(run.id), async () => {
      // Read again in the run's turn: the wave that starts the light may have been writing it.
      const record = await repo.recordById(open.record.id);
      if (!record || record.finishedAt !== null || record.startedAt === null) return;
      const outcome = event.result === undefined ? 'testing' : outcomeOf(run.test, event.result, event.state);
      const extra = event as EmergencyEvent & FinalFields;
      let written: RecordRow | undefined;
      if (outcome === 'testing') {
        written = await repo.updateOpenRecord({
          id: record.id,
          values: { state: event.state, progress: event.progress ?? record.progress, result: event.result ?? null },
        });
      } else {
        const failures =
          outcome === 'failed'
            ? (extra.failures?.filter((f): f is EmergencyFailure => f in EMERGENCY_FAILURE_FAULT) ?? []).length > 0
              ? extra.failures!.filter((f): f is EmergencyFailure => f in EMERGENCY_FAILURE_FAULT)
              : failuresOfState(event.state)
            : [];
        written = await repo.updateOpenRecord({
          id: record.id,
          values: {
            state: event.state,
            result: event.result ?? null,
            progress: 100,
            passed: outcome === 'pass',
            failures,
            faultCode: failures.length > 0 ? EMERGENCY_FAILURE_FAULT[failures[0]!] : null,
            voltageBefore: extra.voltageBefore ?? null,
            voltageAfter: extra.voltageAfter ?? null,
            durationS: extra.durationS ?? (record.startedAt ? Math.max(0, (at.getTime() - record.startedAt.getTime()) / 1000) : null),
            batteryVoltage: extra.batteryVoltage ?? extra.voltageAfter ?? null,
            batteryCurrent: extra.batteryCurrent ?? null,
            batteryTemperature: extra.batteryTemperature ?? null,
            batteryCells: extra.batteryCells ?? run.batteryCells,
            powerW: extra.powerW ?? null,
            finishedAt: at,
          },
        });
        if (written) await conclude(run, written, mac);
      }
      if (!written) return;
      publish(run.mapId, {
        kind: 'light',
        deviceId: written.deviceId === null ? '0' : String(written.deviceId),
        state: event.state,
        category: emergencyCategory(event.state),
        battery: null,
        online: true,
        runId: String(run.id),
        taskId: run.taskId === null ? null : String(run.taskId),
        progress: written.progress,
        result: written.result,
      });
      if (outcome !== 'testing') await advance(run.id);
    });
  }

  /** Starts a run of a task: records for its lights in waves, then the first wave. `by` is who started it by hand. */
  async function startRun(task: TaskRow, trigger: 'manual' | 'schedule', by?: RunActor) {
    const place = await repo.gatewayPlace({ tenantId: task.tenantId, gatewayId: task.gatewayId });
    if (!place) denyAccess();
    const lights = await repo.gatewayLights({ tenantId: task.tenantId, gatewayId: task.gatewayId, ids: await repo.taskDeviceIds(task.id) });
    if (lights.length === 0) throw new AppError(110009);
    const aspect = place.imageWidth && place.imageHeight ? place.imageHeight / place.imageWidth : 1;
    const waves = staggerWaves(lights, { spacingM: task.stagger.spacingM, planWidthM: task.stagger.planWidthM, aspect });
    const run = await repo.insertRun(
      {
        tenantId: task.tenantId,
        taskId: task.id,
        projectId: task.projectId,
        mapId: task.mapId,
        gatewayId: task.gatewayId,
        taskName: task.name,
        projectName: place.projectName,
        buildName: place.buildName,
        mapName: place.mapName,
        gatewayName: place.name,
        test: task.test,
        duration: task.duration,
        durationS: emergencyDurationS(task.test, task.duration),
        batteryCells: task.batteryCells,
        allowWhileCharging: task.allowWhileCharging,
        trigger,
        startedBy: by?.name ?? '',
        startedByUserId: by?.userId ?? null,
        state: 'running',
        waves: Math.max(1, ...waves.values()),
        currentWave: 1,
        startedAt: clock.now(),
      },
      lights.map((l) => ({
        tenantId: task.tenantId,
        deviceId: l.id,
        gatewayId: l.gatewayId,
        addr: l.addr,
        deviceName: l.name,
        test: task.test,
        wave: waves.get(l.id) ?? 1,
      })),
    );
    const answer = await serial(String(run.id), () => startWave(run.id, 1));
    return { run, answer };
  }

  /** Stops a running run: the lights testing get emergency.stop; every open record closes as stopped, by `by`. */
  async function stopRun(run: RunRow, by?: RunActor) {
    return serial(String(run.id), async () => {
      const now = clock.now();
      const records = (await repo.runRecords(run.id)).map((r) => r.record).filter((r) => r.finishedAt === null);
      const testing = records.filter((r) => r.startedAt !== null);
      const place = await repo.gatewayPlace({ tenantId: run.tenantId, gatewayId: run.gatewayId });
      let stopped = 0;
      if (testing.length > 0 && place) {
        try {
          const result = await command(place.mac, 'emergency.stop', { addrs: testing.map((r) => r.addr) });
          stopped = result.stopped?.length ?? 0;
        } catch (err) {
          // The run ends all the same: a light the gateway did not stop ends its test by itself.
          logger.warn({ err, runId: String(run.id) }, 'emergency.stop not answered');
        }
      }
      const stoppedBy = { stoppedBy: by?.name ?? '', stoppedByUserId: by?.userId ?? null };
      if (
        !(await repo.updateRun({
          id: run.id,
          values: { state: 'stopped', result: 'stopped', finishedAt: now, nextWaveAt: null, ...stoppedBy },
        }))
      )
        return { stopped };
      const ended: RunRow = { ...run, ...stoppedBy };
      for (const record of records) {
        const closed = await repo.updateOpenRecord({
          id: record.id,
          values: {
            finishedAt: now,
            passed: false,
            ...(record.startedAt !== null
              ? { state: EMERGENCY_STATE.manuallyStopped, result: run.test === 'life' ? EMERGENCY_LIFE_RESULT.stopped : null }
              : {}),
          },
        });
        if (closed && place) await conclude(ended, closed, place.mac);
      }
      await publishRun(run.id);
      tellFinished(run.id);
      return { stopped };
    });
  }

  /** Queues the next occurrence of a task's recurrence (or none), once across nodes. */
  async function schedulePlan(task: TaskRow, timeZone: string) {
    const next = nextPlannedRun(task.schedule, timeZone, clock.now());
    await repo.setNextRun({ id: task.id, nextRunAt: next });
    if (next)
      await deps.jobs.schedule({
        kind: EMERGENCY_JOBS.plan,
        key: `task:${task.id}/${next.toISOString()}`,
        runAt: next,
        payload: { taskId: String(task.id), at: next.toISOString() },
      });
    return next;
  }

  function timeZoneOf(task: TaskRow, gatewayZone: string | null | undefined) {
    return task.schedule.timeZone || gatewayZone || 'UTC';
  }

  deps.jobs.register(EMERGENCY_JOBS.wave, async (payload) => {
    const { runId, wave } = payload as { runId: string; wave: number };
    await serial(runId, () =>
      startWave(BigInt(runId), wave).catch((err: unknown) => logger.warn({ err, runId }, 'emergency wave not started')),
    );
  });
  deps.jobs.register(EMERGENCY_JOBS.deadline, async (payload) => {
    const { runId, wave } = payload as { runId: string; wave: number };
    await serial(runId, () => deadline(BigInt(runId), wave));
  });
  deps.jobs.register(EMERGENCY_JOBS.plan, async (payload) => {
    const { taskId, at } = payload as { taskId: string; at: string };
    const task = await repo.findTaskAnyTenant(BigInt(taskId));
    // Edited (another occurrence queued) or deleted since: this occurrence is stale.
    if (!task || task.nextRunAt?.toISOString() !== at) return { outcome: 'stale' };
    const last = await repo.lastRunOfTask(task.id);
    let outcome: string = 'started';
    if (last?.state === 'running') outcome = 'skipped: running';
    else
      await startRun(task, 'schedule').catch((err: unknown) => {
        outcome = `not started: ${err instanceof AppError ? err.code : String(err)}`;
        logger.warn({ err, taskId }, 'scheduled emergency test not started');
      });
    const place = await repo.gatewayPlace({ tenantId: task.tenantId, gatewayId: task.gatewayId });
    await schedulePlan(task, timeZoneOf(task, place?.timezone));
    return { outcome };
  });

  const unsubscribe = deps.link?.onUp((message) => {
    if (message.channel !== 'event' || message.message.type !== 'emergency') return;
    const event = message.message;
    void onEvent(message.mac, event).catch((err: unknown) => logger.warn({ err, mac: message.mac }, 'emergency event not recorded'));
  });

  return {
    startRun,
    stopRun,
    /** Records a gateway's `emergency` event and resolves once it is written (a recorded gateway's, src/demo). */
    hear: onEvent,
    schedulePlan,
    timeZoneOf,
    /** Resolves when every run's work received so far is done (tests). */
    async settled() {
      while (chains.size > 0) await Promise.all(chains.values());
    },
    close() {
      unsubscribe?.();
    },
  };
}
export type EmergencyRunner = ReturnType<typeof createEmergencyRunner>;
