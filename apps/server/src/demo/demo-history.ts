import {
  EMERGENCY_STATES,
  FUNCTION_RESULTS,
  LIFE_RESULTS,
  type CommandName,
  type EmergencyFailure,
  type EventMessage,
} from '@lumigrid/protocol';
import type { EmergencySchedule, EmergencyTaskSaveBody, EmergencyTree } from '@lumigrid/contract';
import type { AuthContext } from '../http/auth.ts';
import type { GatewayLink } from '../gateway-link/gateway-link.ts';
import type { JobContext, JobHandler, ScheduledJob } from '../jobs/job-runner.ts';
import type { Clock } from '../lib/clock.ts';
import type { EmergencyRunner } from '../modules/emergency/emergency-runner.ts';
import type { EmergencyService } from '../modules/emergency/emergency.service.ts';
import { localDateOf } from '../modules/reports/report-schedule.ts';

type Caller = Pick<AuthContext, 'userId' | 'tenantId' | 'operateAuth' | 'lang'>;
type EmergencyEvent = Extract<EventMessage, { type: 'emergency' }>;
type Bus = Pick<GatewayLink['bus'], 'send'>;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What the demo's emergency log book holds: two months of a monthly function test and a yearly life test. */
export const DEMO_EMERGENCY = {
  days: 60,
  /** A task a gateway: a monthly function test of its emergency lights (30 s, EN 50172's monthly check). */
  monthly: { prefix: 'Monthly', durationS: 30 },
  /** The yearly full-duration test (3 h) of the first gateway's lights, which fell in the last two months. */
  yearly: { name: 'Annual 3 h test', durationMin: 180 },
  /** The light whose battery failed the last monthly test, was replaced two days later and passed a retest. */
  repair: { afterMs: 2 * DAY_MS, note: 'Battery pack replaced (3-cell NiMH); luminaire cleaned', retestAfterMs: HOUR_MS },
  /** Battery cells of the demo's emergency lights, as the simulator models them. */
  cells: 3,
} as const;

/**
 * A clock and a queue of what happens when, for a past the services live through again: jobs the emergency runner
 * schedules (the recurrence, the deadlines) and what the recorded gateway answers run in time order, and the clock
 * stands at each one's time while it runs.
 */
export function createRecordedTime(start: Date) {
  let now = start.getTime();
  const queue: Array<{ at: number; seq: number; run: () => Promise<unknown> }> = [];
  const handlers = new Map<string, JobHandler>();
  const keys = new Set<string>();
  let seq = 0;
  const clock: Clock = { now: () => new Date(now) };
  const at = (time: number, run: () => Promise<unknown>) => {
    queue.push({ at: Math.max(time, now), seq: seq++, run });
  };
  return {
    clock,
    at,
    /** The durable job runner as the emergency runner sees it: each job once per kind and key, run at its time. */
    jobs: {
      async schedule(job: ScheduledJob) {
        if (keys.has(`${job.kind}/${job.key}`)) return false;
        keys.add(`${job.kind}/${job.key}`);
        const context: JobContext = { id: BigInt(seq), kind: job.kind, key: job.key, attempt: 1, signal: new AbortController().signal };
        at(job.runAt.getTime(), async () => handlers.get(job.kind)?.(job.payload ?? null, context));
        return true;
      },
      register(kind: string, handler: JobHandler) {
        handlers.set(kind, handler);
      },
    },
    /** Runs everything due by `end` in time order (what runs may queue more), then stands at `end`. */
    async until(end: Date) {
      for (;;) {
        queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = queue[0];
        if (!next || next.at > end.getTime()) break;
        queue.shift();
        now = next.at;
        await next.run();
      }
      now = end.getTime();
    },
  };
}
export type RecordedTime = ReturnType<typeof createRecordedTime>;

/**
 * A gateway's emergency side as it behaved: every light it is asked to test starts and reports its result when the
 * test's time is up, with the measurements a simulated light of `cells` NiMH cells sends; a light whose battery is
 * worn fails halfway with a battery failure, as the simulator's do, until `replaced` is called.
 */
export function createRecordedGateway(time: RecordedTime, hear: (mac: string, event: EmergencyEvent) => Promise<void>) {
  const worn = new Map<string, { from: number; until: number }>();
  const failures: Array<{ mac: string; addr: string; at: number }> = [];
  const listeners: Array<(failure: { mac: string; addr: string; at: number }) => void> = [];

  function finalEvent(addr: string, test: 'function' | 'life', durationS: number, failed: boolean, ts: number): EmergencyEvent {
    const cells = DEMO_EMERGENCY.cells;
    // NiMH: 1.38 V a cell charged, about 1.2 V after a full-duration discharge, far lower when a worn pack gives up.
    const drop = failed ? 0.3 : test === 'life' ? 0.17 : 0.02;
    const voltageBefore = Math.round(cells * 1.38 * 100) / 100;
    const voltageAfter = Math.round(cells * (1.38 - drop) * 100) / 100;
    const failures: EmergencyFailure[] = failed ? ['battery'] : [];
    const state = failed ? EMERGENCY_STATES.batteryFault : EMERGENCY_STATES.testFinished;
    const result =
      test === 'function' ? (failed ? FUNCTION_RESULTS.failed : FUNCTION_RESULTS.pass) : failed ? LIFE_RESULTS.failed : LIFE_RESULTS.pass;
    return {
      type: 'emergency',
      ts,
      addr,
      test,
      state,
      result,
      progress: failed ? 50 : 100,
      voltageBefore,
      voltageAfter,
      durationS,
      batteryVoltage: voltageAfter,
      batteryCurrent: 0.65,
      batteryTemperature: test === 'life' ? 31 : 24,
      batteryCells: cells,
      powerW: 2.4,
      failures,
    };
  }

  const bus: Bus = {
    async send(mac: string, name: CommandName, params: unknown) {
      // Only tests are started in the past; a stop never happens there.
      const { addrs, test, durationS } = params as { addrs: string[]; test: 'function' | 'life'; durationS: number };
      const started = time.clock.now().getTime();
      if (name !== 'emergency.start') return { state: 'succeeded', result: { stopped: [] } } as never;
      for (const addr of addrs) {
        const wear = worn.get(`${mac}/${addr}`);
        const failed = wear !== undefined && started >= wear.from && started < wear.until;
        const ranS = failed ? Math.round(durationS / 2) : durationS;
        const endsAt = started + ranS * 1000;
        time.at(endsAt, async () => {
          await hear(mac, finalEvent(addr, test, ranS, failed, endsAt));
          if (failed) {
            const failure = { mac, addr, at: endsAt };
            failures.push(failure);
            for (const listener of listeners) listener(failure);
          }
        });
      }
      return { state: 'succeeded', result: { started: addrs, refused: [] } } as never;
    },
  };

  return {
    bus,
    /** The light's battery wears out at `from`: its tests fail until it is replaced. */
    wearOut(mac: string, addr: string, from: Date) {
      worn.set(`${mac}/${addr}`, { from: from.getTime(), until: Number.POSITIVE_INFINITY });
    },
    replaced(mac: string, addr: string, at: Date) {
      const wear = worn.get(`${mac}/${addr}`);
      if (wear) wear.until = at.getTime();
    },
    onFailure(listener: (failure: { mac: string; addr: string; at: number }) => void) {
      listeners.push(listener);
    },
    failures,
  };
}

export interface DemoEmergencyDeps {
  /** The live emergency service: what exists, and the recurrence queued from today on. */
  live: Pick<EmergencyService, 'tree' | 'tasks' | 'save'>;
  /** The emergency module on a recorded clock and gateway (emergency.module.ts `onRecord`). */
  record: (
    clock: Clock,
    gateway: Bus,
    jobs: RecordedTime['jobs'],
  ) => { service: Pick<EmergencyService, 'save' | 'execute' | 'repair'>; runner: Pick<EmergencyRunner, 'hear'> };
  /** Now, on the live clock. */
  now: () => Date;
  timezone: string;
}

/** The day of the month (1-28) of an instant in a zone, so a monthly or yearly schedule falls on it. */
function dayIn(at: Date, timeZone: string): { day: number; month: number } {
  const { month, day } = localDateOf(at, timeZone);
  return { day: Math.min(28, day), month };
}

/**
 * The demo's emergency log book: sixty days of the tasks' scheduled tests, lived through again by the emergency
 * service and runner on a recorded clock, so every run, record and log-book entry is written by the code that
 * writes today's, with its own time. One light's battery wears out before the last monthly test, which fails it;
 * the maintainer records the new battery two days later and retests by hand, and the light passes. Made once:
 * a project that already has the demo's monthly task keeps its book as it is. Answers the runs' failed lights.
 */
export async function ensureEmergencyHistory(
  deps: DemoEmergencyDeps,
  caller: Caller,
  projectId: string,
): Promise<{ tasks: number; failures: number }> {
  const tree: EmergencyTree = await deps.live.tree(caller, { projectId, taskId: '0' });
  const places = tree.builds.flatMap((b) =>
    b.maps.flatMap((m) => m.gateways.filter((g) => g.devices.length > 0).map((g) => ({ buildId: b.id, mapId: m.id, gateway: g }))),
  );
  if (places.length === 0) return { tasks: 0, failures: 0 };
  const existing = await deps.live.tasks(caller, { projectId, name: DEMO_EMERGENCY.monthly.prefix, page: 1, pageSize: 1 });
  if (existing.total > 0) return { tasks: 0, failures: 0 };

  const end = deps.now();
  const start = new Date(end.getTime() - DEMO_EMERGENCY.days * DAY_MS);
  const time = createRecordedTime(start);
  // The gateway answers the runner that sends it the tests: it hears them only once both are made.
  const gateway = createRecordedGateway(time, (mac, event) => recorded.runner.hear(mac, event));
  const recorded = deps.record(time.clock, gateway.bus, time.jobs);

  // The monthly day falls about two and a half weeks ago, so the window holds two monthly runs; the yearly one
  // about forty days ago, between them.
  const monthlyDay = dayIn(new Date(end.getTime() - 18 * DAY_MS), deps.timezone);
  const yearlyDay = dayIn(new Date(end.getTime() - 40 * DAY_MS), deps.timezone);
  const schedule = (rule: 'monthly' | 'yearly', on: { day: number; month: number }, at: string): EmergencySchedule => ({
    rule,
    day: on.day,
    month: on.month,
    time: at,
    timeZone: '',
  });
  const bodies: EmergencyTaskSaveBody[] = places.map((place, i) => ({
    name: `${DEMO_EMERGENCY.monthly.prefix} ${place.gateway.name.replace(/^Level 3 /, '')}`.slice(0, 24),
    projectId,
    buildId: place.buildId,
    mapId: place.mapId,
    gatewayId: place.gateway.id,
    deviceIds: place.gateway.devices.map((d) => d.id),
    test: 'function',
    duration: DEMO_EMERGENCY.monthly.durationS,
    batteryCells: DEMO_EMERGENCY.cells,
    lightType: 'maintained',
    // A quarter of an hour apart, so the gateways' tests do not all start at once.
    schedule: schedule('monthly', monthlyDay, `02:${String(15 * (i % 4)).padStart(2, '0')}`),
  }));
  const first = places[0]!;
  bodies.push({
    ...bodies[0]!,
    name: DEMO_EMERGENCY.yearly.name,
    test: 'life',
    duration: DEMO_EMERGENCY.yearly.durationMin,
    schedule: schedule('yearly', yearlyDay, '03:00'),
  });
  const saved: Array<{ id: string; body: EmergencyTaskSaveBody }> = [];
  for (const body of bodies) saved.push({ id: (await recorded.service.save(caller, body)).id, body });

  // The first gateway's first light: its battery wears out three weeks ago, before the last monthly test.
  const light = first.gateway.devices[0]!;
  gateway.wearOut(first.gateway.mac, light.addr, new Date(end.getTime() - 21 * DAY_MS));
  gateway.onFailure((failure) => {
    const repairAt = failure.at + DEMO_EMERGENCY.repair.afterMs;
    time.at(repairAt, async () => {
      gateway.replaced(failure.mac, failure.addr, time.clock.now());
      await recorded.service.repair(caller, { deviceId: light.id, note: DEMO_EMERGENCY.repair.note });
    });
    // The retest: the maintainer runs the light's monthly task again by hand, and every light passes.
    time.at(repairAt + DEMO_EMERGENCY.repair.retestAfterMs, () => recorded.service.execute(caller, { id: saved[0]!.id, action: 'start' }));
  });
  await time.until(end);

  // From today on the recurrence is the live job runner's: saving each task again queues its next occurrence.
  for (const { id, body } of saved) await deps.live.save(caller, { ...body, id });
  return { tasks: saved.length, failures: gateway.failures.length };
}
