import {
  EMERGENCY_FAILURES,
  EMERGENCY_LIGHT_TYPES,
  EMERGENCY_STATES,
  FUNCTION_RESULTS,
  LIFE_RESULTS,
  type EmergencyFailure,
  type EmergencyLightType,
} from '@lumigrid/protocol';
import { Type, type Static } from 'typebox';
import { IdSchema, Nullable, PlanCoordinateSchema, PageOf, pageFields } from './common.ts';
import { PARAM_RANGES } from './device-params.ts';
import type { ErrorCode } from './errors.ts';
import type { Localised } from './lang.ts';
import type { Destination } from './realtime.ts';
import { weightedLength } from './validation.ts';

/**
 * Emergency-light automatic testing, spec sections 2 (/emergency/set, /emergency/report, the emergency device map),
 * 3 (emergency test task), 4 (emergency state codes, function and life results, task actions), 5 (durations, battery
 * cells, task name) and 7 ("Emergency"); with what EN 50172 / IEC 62034 ask beyond it: recurring tasks staggered
 * between neighbours, an append-only log book per project (site) and a compliance view (docs/decisions.md,
 * "Emergency testing").
 *
 * Words used below: a **task** is what the user creates (devices of one gateway, a test kind, a duration, maybe a
 * recurrence); a **run** is one execution of a task (started by hand or by its recurrence), split into **waves** so
 * that neighbouring lights never test together; a **record** is one light's outcome in one run.
 */

/** Emergency device state codes of spec section 4, as gateways report them (the protocol's table). */
export const EMERGENCY_STATE = EMERGENCY_STATES;
/** Every state code of spec section 4, in order; the screens localise each (`emergency.state.<code>`). */
export const EMERGENCY_STATE_CODES: number[] = Object.values(EMERGENCY_STATES).sort((a, b) => a - b);

/** Function test result codes of spec section 4. */
export const EMERGENCY_FUNCTION_RESULT = FUNCTION_RESULTS;
/** Life (duration) test result codes of spec section 4. */
export const EMERGENCY_LIFE_RESULT = LIFE_RESULTS;

/**
 * What can fail in a test (a final `emergency` event's `failures`, the protocol's list), with the fault code
 * (spec section 4) of the alert it raises: battery 6, charge/discharge circuit 7, lamp (LED) 8, communication 9
 * (no result in time).
 */
export const EMERGENCY_FAILURE_FAULT: Record<EmergencyFailure, number> = { battery: 6, circuit: 7, lamp: 8, communication: 9 };
export { EMERGENCY_FAILURES, type EmergencyFailure };

export const EMERGENCY_TEST_KINDS = ['function', 'life'] as const;
export type EmergencyTestKind = (typeof EMERGENCY_TEST_KINDS)[number];

/** Spec section 3: maintained lights are on in normal operation too, non-maintained only on mains failure. */
export { EMERGENCY_LIGHT_TYPES, type EmergencyLightType };

/** Spec section 4 task actions; each has its confirmation text on the screen. */
export const EMERGENCY_TASK_ACTIONS = ['start', 'stop', 'delete'] as const;
export type EmergencyTaskAction = (typeof EMERGENCY_TASK_ACTIONS)[number];

/**
 * A task's status: `idle` never run (or waiting for its recurrence), `running` a run is under way (waves running or
 * waiting their turn), `finished` the last run ended by itself, `stopped` the last run was stopped by hand.
 */
export const EMERGENCY_TASK_STATUSES = ['idle', 'running', 'finished', 'stopped'] as const;
export type EmergencyTaskStatus = (typeof EMERGENCY_TASK_STATUSES)[number];

/** The outcome of a run (and so of its task): every light passed, at least one failed, or it was stopped. */
export const EMERGENCY_RUN_RESULTS = ['pass', 'failed', 'stopped'] as const;
export type EmergencyRunResult = (typeof EMERGENCY_RUN_RESULTS)[number];

/** What started a run: the start action, or the task's recurrence (the job runner). */
export const EMERGENCY_RUN_TRIGGERS = ['manual', 'schedule'] as const;
export type EmergencyRunTrigger = (typeof EMERGENCY_RUN_TRIGGERS)[number];

/**
 * How a recurring task repeats: `none`, `monthly` on a day of the month, `yearly` on a day of a month. EN 50172 asks
 * for a monthly function test and a yearly full-duration (life) test; the task's own test kind is what runs.
 */
export const EMERGENCY_RECURRENCES = ['none', 'monthly', 'yearly'] as const;
export type EmergencyRecurrence = (typeof EMERGENCY_RECURRENCES)[number];

/** The colours of the emergency device map and its legend, from a light's state code (emergencyCategory). */
export const EMERGENCY_MAP_CATEGORIES = ['charging', 'full', 'testing', 'failed', 'depleted', 'offline', 'unknown'] as const;
export type EmergencyMapCategory = (typeof EMERGENCY_MAP_CATEGORIES)[number];

/** The legend's colours (status colours of spec section 9 where they apply). */
export const EMERGENCY_CATEGORY_COLOURS: Record<EmergencyMapCategory, string> = {
  charging: '#faad14',
  full: '#52c41a',
  testing: '#1677ff',
  failed: '#f5222d',
  depleted: '#722ed1',
  offline: '#8c8c8c',
  unknown: '#d9d9d9',
};

/** What a state code looks like on the map. */
export function emergencyCategory(state: number | null | undefined, online = true): EmergencyMapCategory {
  const S = EMERGENCY_STATES;
  if (!online || state === S.offline) return 'offline';
  if (state === null || state === undefined) return 'unknown';
  if (state === S.batteryCapacityLow || state === S.batteryFault || state === S.chargeDischargeFault || state === S.ledLoadFault)
    return 'failed';
  if (state === S.batteryDepleted) return 'depleted';
  if (state === S.lifeTestRunning || state === S.functionTestRunning || state === S.emergencyDischarge) return 'testing';
  if (state === S.charging || state === S.onCharging || state === S.offCharging || state === S.lifeTestImpossibleWhileCharging)
    return 'charging';
  if (state === S.fullyCharged || state === S.onFullyCharged || state === S.offFullyCharged || state === S.testFinished) return 'full';
  return 'unknown';
}

/** Log-book entry types: a finished test (pass or stopped), a failure, a repair, an acknowledgement of a failure. */
export const LOG_BOOK_TYPES = ['test', 'failure', 'repair', 'acknowledgement'] as const;
export type LogBookType = (typeof LOG_BOOK_TYPES)[number];

export const EMERGENCY_LIMITS = {
  /** Spec section 5: function test 15-254 s (Invalid Input with the range: 100243). */
  functionDurationS: { min: PARAM_RANGES.functionTestDuration.min, max: PARAM_RANGES.functionTestDuration.max },
  /** Spec section 5: life test 5-600 min (100244). */
  lifeDurationMin: { min: PARAM_RANGES.lifeTestDuration.min, max: PARAM_RANGES.lifeTestDuration.max },
  /** Spec section 5: battery cells 1-20 (100240). */
  batteryCells: { min: PARAM_RANGES.batteryCells.min, max: PARAM_RANGES.batteryCells.max },
  /** Spec section 5: a Chinese name of 1-8 characters; counted as a Chinese character 3, others 1: 1-24. */
  name: { max: 24 },
  /** Lights one task tests (one gateway's emergency lights; the protocol takes 256 addresses a command). */
  devices: { max: 256 },
  /** Stagger spacing, metres on the floor plan (0: no stagger); and the plan's real width it is measured with. */
  spacingM: { min: 0, max: 1000 },
  planWidthM: { min: 1, max: 10000 },
  /** Spec/EN 50172: no duration test on a circuit (a gateway) in the 24 h after another one there. */
  lifeRestMs: 24 * 3600_000,
  /** EN 50172: a light is overdue without a function test in 31 days or a life test in 365 days. */
  functionDueDays: 31,
  lifeDueDays: 365,
  /** A light with no result this long after its wave should have ended counts as a communication failure (code 9). */
  resultMarginMs: 120_000,
  note: { max: 500 },
} as const;

/** Why a task name is refused (100011 too long, 100001 empty), or undefined. */
export function emergencyTaskNameProblem(name: string): ErrorCode | undefined {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 100001;
  if (weightedLength(trimmed) > EMERGENCY_LIMITS.name.max) return 100011;
  return undefined;
}

/** The code of the "Invalid Input (range)" message when a duration is out of its test kind's range, or undefined. */
export function emergencyDurationProblem(test: EmergencyTestKind, duration: number): ErrorCode | undefined {
  const rule = test === 'function' ? PARAM_RANGES.functionTestDuration : PARAM_RANGES.lifeTestDuration;
  return Number.isInteger(duration) && duration >= rule.min && duration <= rule.max ? undefined : rule.code;
}

/** A test's duration on the wire: a function test's seconds as they are, a life test's minutes x 60. */
export function emergencyDurationS(test: EmergencyTestKind, duration: number): number {
  return test === 'function' ? duration : duration * 60;
}

/** Seconds as `H:MM:SS`, one form for a 30-second function test and a 3-hour duration test (log book, screens). */
export function durationClock(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const Time = Type.String({ format: 'date-time' });
const TestKindSchema = Type.Union([Type.Literal('function'), Type.Literal('life')], { description: 'function or life (duration)' });
const LightTypeSchema = Type.Enum(EMERGENCY_LIGHT_TYPES, { description: 'maintained or non-maintained' });
const TaskStatusSchema = Type.Enum(EMERGENCY_TASK_STATUSES);
const RunResultSchema = Type.Enum(EMERGENCY_RUN_RESULTS);
const RunTriggerSchema = Type.Enum(EMERGENCY_RUN_TRIGGERS);
const FailureSchema = Type.Enum(EMERGENCY_FAILURES);
const LogBookTypeSchema = Type.Enum(LOG_BOOK_TYPES);
const StateCode = Type.Integer({ minimum: 0, maximum: 99, description: 'Emergency state code of spec section 4 (EMERGENCY_STATE)' });
const Note = Type.String({ maxLength: EMERGENCY_LIMITS.note.max });

/** A task's recurrence: when its runs start by themselves, and how far apart lights testing together must be. */
export const EmergencyScheduleSchema = Type.Object({
  rule: Type.Enum(EMERGENCY_RECURRENCES, { description: 'none, monthly or yearly' }),
  /** Day of the month the run starts (1-28, so every month has it). */
  day: Type.Integer({ minimum: 1, maximum: 28, default: 1 }),
  /** Month of a yearly run (1-12); ignored for monthly. */
  month: Type.Integer({ minimum: 1, maximum: 12, default: 1 }),
  /** Local start time, HH:mm, in `timeZone`. */
  time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', default: '02:00' }),
  /** IANA time zone of `time`; the gateway's zone (or UTC) when empty. */
  timeZone: Type.String({ maxLength: 64, default: '' }),
});
export type EmergencySchedule = Static<typeof EmergencyScheduleSchema>;

/**
 * Stagger of every run (by hand or by schedule): lights of the task closer than `spacingM` on the floor plan never
 * test at the same time; the run is split into waves. `planWidthM` is the real width of the map's floor plan, which
 * turns plan positions into metres (the height follows the image's aspect ratio). 0 runs every light at once.
 */
export const EmergencyStaggerSchema = Type.Object({
  spacingM: Type.Number({ minimum: EMERGENCY_LIMITS.spacingM.min, maximum: EMERGENCY_LIMITS.spacingM.max, default: 0 }),
  planWidthM: Type.Number({ minimum: EMERGENCY_LIMITS.planWidthM.min, maximum: EMERGENCY_LIMITS.planWidthM.max, default: 50 }),
});
export type EmergencyStagger = Static<typeof EmergencyStaggerSchema>;

/** What a task is made of, as opt takes it and get answers it. */
const taskFields = {
  /** Spec section 5: required; 1-8 Chinese characters (a Chinese character counts 3, others 1: at most 24). */
  name: Type.String({ minLength: 1, maxLength: 64 }),
  projectId: IdSchema,
  buildId: IdSchema,
  mapId: IdSchema,
  /** The gateway whose emergency lights the task tests; its map is `mapId`. */
  gatewayId: IdSchema,
  /** The lights moved to the right-hand list: emergency lights of that gateway, at least one (110009). */
  deviceIds: Type.Array(IdSchema, { maxItems: EMERGENCY_LIMITS.devices.max }),
  test: TestKindSchema,
  /** Function test: seconds, 15-254 (100243). Life test: minutes, 5-600 (100244). */
  duration: Type.Integer({ minimum: 0, maximum: 100000 }),
  /** 1-20 (100240). */
  batteryCells: Type.Integer({ minimum: 0, maximum: 1000 }),
  lightType: LightTypeSchema,
  /** Spec section 4's setting: a life test may start on a battery that is not fully charged. */
  allowWhileCharging: Type.Boolean({ default: false }),
  schedule: EmergencyScheduleSchema,
  stagger: EmergencyStaggerSchema,
};

/** POST emergency/v1/opt: creates a task (no id) or updates one (id). */
export const EmergencyTaskSaveBodySchema = Type.Object({
  id: Type.Optional(IdSchema),
  ...taskFields,
  schedule: Type.Optional(EmergencyScheduleSchema),
  stagger: Type.Optional(EmergencyStaggerSchema),
  allowWhileCharging: Type.Optional(Type.Boolean()),
});
export type EmergencyTaskSaveBody = Static<typeof EmergencyTaskSaveBodySchema>;

export const EmergencyTaskIdSchema = Type.Object({ id: IdSchema });
export type EmergencyTaskId = Static<typeof EmergencyTaskIdSchema>;

/** A task as the detection-management table shows it (spec section 3). */
export const EmergencyTaskSchema = Type.Object({
  id: IdSchema,
  ...taskFields,
  projectName: Type.String(),
  buildName: Type.String(),
  mapName: Type.String(),
  gatewayName: Type.String(),
  /** Inspection quantity: the lights in the task. */
  quantity: Type.Integer(),
  status: TaskStatusSchema,
  /** Detection progress of the current or last run, 0-100 (lights with a result / lights). */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  result: Nullable(RunResultSchema, 'The last run\u2019s outcome, or null while none ended'),
  /** Lights passed and failed in the current or last run. */
  passed: Type.Integer(),
  failed: Type.Integer(),
  /** The current or last run, or null. */
  lastRunId: Nullable(IdSchema, 'The current or last run, or null'),
  lastRunAt: Nullable(Time, 'When the current or last run started, or null'),
  /** When the recurrence starts the next run, or null (no recurrence). */
  nextRunAt: Nullable(Time, 'Next scheduled run, or null'),
  createdAt: Time,
});
export type EmergencyTask = Static<typeof EmergencyTaskSchema>;

/** POST emergency/v1/page_emergencys_task: the account's tasks, newest first. */
export const EmergencyTaskListBodySchema = Type.Object({
  projectId: Type.Optional(IdSchema),
  /** Part of the name. */
  name: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(TaskStatusSchema),
  test: Type.Optional(TestKindSchema),
  ...pageFields,
});
export type EmergencyTaskListBody = Static<typeof EmergencyTaskListBodySchema>;

export const EmergencyTaskPageSchema = PageOf(EmergencyTaskSchema);
export type EmergencyTaskPage = Static<typeof EmergencyTaskPageSchema>;

/** GET emergency/v1/execute/{id}/{action}: a task and one of start, stop, delete. */
export const EmergencyExecuteParamsSchema = Type.Object({
  id: IdSchema,
  action: Type.Enum(EMERGENCY_TASK_ACTIONS, { description: 'start, stop or delete' }),
});
export type EmergencyExecuteParams = Static<typeof EmergencyExecuteParamsSchema>;

/** What an action did. */
export const EmergencyExecuteResultSchema = Type.Object({
  /** The run started (start), stopped (stop) or stopped by the deletion, or null. */
  runId: Nullable(IdSchema, 'The run the action started or stopped, or null'),
  /** start: lights the gateway started now (the first wave); the other waves follow. */
  started: Type.Integer(),
  /** start: lights the gateway refused, with the state it gave (29: a life test while charging). */
  refused: Type.Array(Type.Object({ deviceId: IdSchema, name: Type.String(), state: StateCode })),
  /** start: when the first wave starts, later than now when the 24-hour rest of a life test holds it back. */
  startsAt: Nullable(Time, 'When the first wave starts, or null'),
  /** stop / delete: lights the gateway stopped. */
  stopped: Type.Integer(),
});
export type EmergencyExecuteResult = Static<typeof EmergencyExecuteResultSchema>;

/** GET emergency/v1/get/{id}/{runId}: a task, and its lights as they stand in a run (0: the current or last run). */
export const EmergencyTaskGetParamsSchema = Type.Object({
  id: IdSchema,
  runId: { ...IdSchema, description: 'A run of the task, or 0 for the current or last run' },
});
export type EmergencyTaskGetParams = Static<typeof EmergencyTaskGetParamsSchema>;

/** One light of a task: where it is, how it stands now, and how it did in the run asked for. */
export const EmergencyTaskDeviceSchema = Type.Object({
  deviceId: IdSchema,
  name: Type.String(),
  addr: Type.String(),
  type: Type.Integer({ description: 'Device type code' }),
  x: Nullable(PlanCoordinateSchema, 'Position on the map, or null'),
  y: Nullable(PlanCoordinateSchema, 'Position on the map, or null'),
  online: Type.Boolean(),
  /** Live emergency state code (device reports and test events), or null before the first report. */
  state: Nullable(StateCode, 'Live state code, or null'),
  battery: Nullable(Type.Integer({ minimum: 0, maximum: 100 }), 'Battery charge %, or null'),
  /** The wave of the run the light tests in (1 first). */
  wave: Nullable(Type.Integer(), 'Wave in the run, or null without a run'),
  /** Progress of the light's test in the run, 0-100, or null before it started. */
  progress: Nullable(Type.Integer({ minimum: 0, maximum: 100 }), 'Test progress, or null'),
  /** Result code in the run: function 0 pass / 1 testing / 2 failed; life 0 stopped / 1 failed / 2 pass / 3 capacity low / 4 testing. */
  result: Nullable(Type.Integer(), 'Result code of spec section 4, or null while waiting'),
  passed: Nullable(Type.Boolean(), 'true pass, false failed or stopped, null without a result'),
  failures: Type.Array(FailureSchema),
});
export type EmergencyTaskDevice = Static<typeof EmergencyTaskDeviceSchema>;

/** One run of a task (test records, spec section 3). */
export const EmergencyRunSchema = Type.Object({
  id: IdSchema,
  taskId: Nullable(IdSchema, 'The task, or null once it was deleted'),
  taskName: Type.String({ description: 'The task\u2019s name when the run started' }),
  projectId: IdSchema,
  projectName: Type.String(),
  buildName: Type.String({ description: 'The building of the task\u2019s map when the run started' }),
  mapName: Type.String(),
  gatewayName: Type.String(),
  test: TestKindSchema,
  duration: Type.Integer({ description: 'Seconds (function) or minutes (life)' }),
  trigger: RunTriggerSchema,
  /** Who started it by hand ('' for a run its recurrence started). */
  startedBy: Type.String(),
  /** Who stopped it by hand ('' unless stopped). */
  stoppedBy: Type.String(),
  /** running (waves running or waiting), or ended: finished or stopped. */
  state: Type.Union([Type.Literal('running'), Type.Literal('finished'), Type.Literal('stopped')]),
  result: Nullable(RunResultSchema, 'The outcome once ended, or null'),
  startedAt: Time,
  finishedAt: Nullable(Time, 'When it ended, or null'),
  total: Type.Integer({ description: 'Lights in the run' }),
  passed: Type.Integer(),
  failed: Type.Integer(),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  waves: Type.Integer({ description: 'Waves the stagger split it into' }),
  currentWave: Type.Integer({ description: 'The wave running or next (waves + 1 when all ran)' }),
  /** When the next wave starts, while one waits (a life test rests 24 h between waves on a gateway). */
  nextWaveAt: Nullable(Time, 'When the next wave starts, or null'),
});
export type EmergencyRun = Static<typeof EmergencyRunSchema>;

/** A task with its lights. */
export const EmergencyTaskDetailSchema = Type.Object({
  task: EmergencyTaskSchema,
  run: Nullable(EmergencyRunSchema, 'The run asked for, or null when the task never ran'),
  devices: Type.Array(EmergencyTaskDeviceSchema),
});
export type EmergencyTaskDetail = Static<typeof EmergencyTaskDetailSchema>;

/** GET emergency/v1/trees/{projectId}/{taskId}: the create/edit screen's transfer tree. */
export const EmergencyTreeParamsSchema = Type.Object({
  projectId: IdSchema,
  taskId: { ...IdSchema, description: 'The task being edited (its lights are selected), or 0 for a new task' },
});
export type EmergencyTreeParams = Static<typeof EmergencyTreeParamsSchema>;

/** A light in the tree: one of the gateway's emergency lights. */
export const EmergencyTreeDeviceSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  type: Type.Integer({ description: 'Device type code' }),
  addr: Type.String(),
  state: Nullable(StateCode, 'Live state code, or null'),
  online: Type.Boolean(),
  /** In the task being edited (the right-hand list). */
  selected: Type.Boolean(),
  /** In another task's run now: it cannot start in this task until that run ends. */
  busy: Type.Boolean(),
});
export type EmergencyTreeDevice = Static<typeof EmergencyTreeDeviceSchema>;

export const EmergencyTreeGatewaySchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  mac: Type.String(),
  online: Type.Boolean(),
  devices: Type.Array(EmergencyTreeDeviceSchema),
});
export const EmergencyTreeMapSchema = Type.Object({ id: IdSchema, name: Type.String(), gateways: Type.Array(EmergencyTreeGatewaySchema) });
export const EmergencyTreeBuildingSchema = Type.Object({ id: IdSchema, name: Type.String(), maps: Type.Array(EmergencyTreeMapSchema) });

/**
 * The project > buildings > maps > gateways > emergency lights tree of the create/edit screen: every building and
 * map of the project (so each can be chosen), the gateways bound to each map, and each gateway's emergency lights.
 * `selected` lists the edited task's lights.
 */
export const EmergencyTreeSchema = Type.Object({
  project: Type.Object({ id: IdSchema, name: Type.String() }),
  builds: Type.Array(EmergencyTreeBuildingSchema),
  selected: Type.Array(IdSchema, { description: 'The edited task\u2019s lights; empty for a new task' }),
});
export type EmergencyTree = Static<typeof EmergencyTreeSchema>;

/** GET emergency/v1/emergency_state/{id}: the emergency lights of map {id}. */
export const EmergencyMapParamsSchema = Type.Object({ id: { ...IdSchema, description: 'A map of the caller\u2019s account' } });
export type EmergencyMapParams = Static<typeof EmergencyMapParamsSchema>;

const LastTest = Nullable(
  Type.Object({ at: Time, passed: Type.Boolean(), runId: IdSchema }),
  'The last function or life test that ended with a result, or null',
);

/** An emergency light on the emergency device map. */
export const EmergencyMapLightSchema = Type.Object({
  deviceId: IdSchema,
  name: Type.String(),
  addr: Type.String(),
  type: Type.Integer(),
  gatewayId: IdSchema,
  x: Nullable(PlanCoordinateSchema, 'Position on the map, or null'),
  y: Nullable(PlanCoordinateSchema, 'Position on the map, or null'),
  online: Type.Boolean(),
  state: Nullable(StateCode, 'Live state code, or null'),
  /** The legend colour the state falls in (emergencyCategory). */
  category: Type.Enum(EMERGENCY_MAP_CATEGORIES),
  battery: Nullable(Type.Integer({ minimum: 0, maximum: 100 }), 'Battery charge %, or null'),
  lastFunctionTest: LastTest,
  lastLifeTest: LastTest,
  /** No function test in 31 days (or never). */
  functionOverdue: Type.Boolean(),
  /** No life test in 365 days (or never). */
  lifeOverdue: Type.Boolean(),
});
export type EmergencyMapLight = Static<typeof EmergencyMapLightSchema>;

export const EmergencyMapSchema = Type.Object({ mapId: IdSchema, lights: Type.Array(EmergencyMapLightSchema) });
export type EmergencyMap = Static<typeof EmergencyMapSchema>;

const timeRange = {
  /** Runs (records) that started at or after. */
  from: Type.Optional(Time),
  /** ... and before. */
  to: Type.Optional(Time),
};

/** POST emergency/v1/page_test_records: runs, newest first. */
export const EmergencyRunListBodySchema = Type.Object({
  projectId: Type.Optional(IdSchema),
  taskId: Type.Optional(IdSchema),
  test: Type.Optional(TestKindSchema),
  ...timeRange,
  ...pageFields,
});
export type EmergencyRunListBody = Static<typeof EmergencyRunListBodySchema>;

export const EmergencyRunPageSchema = PageOf(EmergencyRunSchema);
export type EmergencyRunPage = Static<typeof EmergencyRunPageSchema>;

/** One light's outcome in one run (spec section 3 per-device details). */
export const EmergencyRecordSchema = Type.Object({
  id: IdSchema,
  runId: IdSchema,
  taskId: Nullable(IdSchema, 'The task, or null once deleted'),
  taskName: Type.String(),
  deviceId: Nullable(IdSchema, 'The light, or null once deleted'),
  deviceName: Type.String(),
  addr: Type.String(),
  mapName: Type.String(),
  test: TestKindSchema,
  wave: Type.Integer(),
  /** The last state code the light gave in the run (27 finished, 25 depleted, 26 stopped, 29 refused, ...). */
  state: Nullable(StateCode, 'Last state code, or null'),
  /** Result code of spec section 4 (function 0/1/2, life 0-4), or null while waiting. */
  result: Nullable(Type.Integer(), 'Result code, or null'),
  passed: Nullable(Type.Boolean(), 'true pass, false failed or stopped, null while testing'),
  progress: Nullable(Type.Integer({ minimum: 0, maximum: 100 }), 'Progress, or null'),
  failures: Type.Array(FailureSchema),
  /** Fault code of the alert the failure raised (6-9), or null. */
  faultCode: Nullable(Type.Integer(), 'Fault code raised, or null'),
  voltageBefore: Nullable(Type.Number(), 'Battery volts before the test'),
  voltageAfter: Nullable(Type.Number(), 'Battery volts after the test'),
  durationS: Nullable(Type.Number(), 'How long the light ran on battery, seconds'),
  batteryVoltage: Nullable(Type.Number(), 'Volts at the end'),
  batteryCurrent: Nullable(Type.Number(), 'Amperes at the end'),
  batteryTemperature: Nullable(Type.Number(), '°C at the end'),
  batteryCells: Nullable(Type.Integer(), 'Cells of the battery'),
  powerW: Nullable(Type.Number(), 'Power at the end, watts'),
  startedAt: Nullable(Time, 'When the light started, or null while waiting'),
  finishedAt: Nullable(Time, 'When its result came (or it timed out), or null'),
});
export type EmergencyRecord = Static<typeof EmergencyRecordSchema>;

export const EmergencyRecordPageSchema = PageOf(EmergencyRecordSchema);
export type EmergencyRecordPage = Static<typeof EmergencyRecordPageSchema>;

/** POST emergency/v1/details: one run's records, by wave then name. */
export const EmergencyRunDetailsBodySchema = Type.Object({ runId: IdSchema, ...pageFields });
export type EmergencyRunDetailsBody = Static<typeof EmergencyRunDetailsBodySchema>;

/** POST emergency/v1/page_Single_test_records: one light's records, newest first. */
export const EmergencyDeviceRecordsBodySchema = Type.Object({
  deviceId: IdSchema,
  ...timeRange,
  ...pageFields,
});
export type EmergencyDeviceRecordsBody = Static<typeof EmergencyDeviceRecordsBodySchema>;

/** POST emergency/v1/download_emergency_report: every record the filters take, newest run first. */
export const EmergencyReportBodySchema = Type.Object({
  projectId: Type.Optional(IdSchema),
  taskId: Type.Optional(IdSchema),
  runId: Type.Optional(IdSchema),
  deviceId: Type.Optional(IdSchema),
  ...timeRange,
});
export type EmergencyReportBody = Static<typeof EmergencyReportBodySchema>;

/** One line of a project's log book: appended, never changed or removed (docs/decisions.md). */
export const LogBookEntrySchema = Type.Object({
  id: IdSchema,
  /** Order within the project's log book, 1 first, without gaps. */
  seq: Type.Integer(),
  at: Time,
  type: LogBookTypeSchema,
  deviceId: Nullable(IdSchema, 'The light, or null'),
  deviceName: Type.String({ description: 'The light\u2019s name when written' }),
  addr: Type.String(),
  /** The building and map the light stood on when written ('' for entries written before buildings were kept). */
  buildName: Type.String(),
  mapName: Type.String(),
  taskName: Type.String(),
  runId: Nullable(IdSchema, 'The run of a test or failure, or null'),
  test: Nullable(TestKindSchema, 'The test kind of a test or failure, or null'),
  /** test and failure: whether the run was started by hand or by its recurrence. */
  trigger: Nullable(RunTriggerSchema, 'How the test started, or null'),
  /** test and failure: who started the run by hand ('' when its recurrence did). */
  startedBy: Type.String(),
  /** test and failure: who stopped the run by hand ('' when it was not stopped). */
  stoppedBy: Type.String(),
  /** test and failure: how long the light ran on its battery, seconds (null when not measured). */
  durationS: Nullable(Type.Number(), 'Duration achieved, seconds, or null'),
  /** test and failure: the duration the test asked for (the rated duration of a duration test), seconds. */
  ratedDurationS: Nullable(Type.Integer(), 'Duration the test asked for, seconds, or null'),
  /** test: pass or stopped; failure: failed; repair and acknowledgement: null. */
  result: Nullable(RunResultSchema, 'Outcome of a test, or null'),
  /** Failure: the fault code (6 battery, 7 circuit, 8 lamp, 9 communication); a repair: the fault it repaired, if known. */
  faultCode: Nullable(Type.Integer(), 'Fault code of a failure or repaired by a repair, or null'),
  failures: Type.Array(FailureSchema),
  note: Type.String(),
  /** Who wrote a repair or acknowledgement; '' for what the system wrote. */
  by: Type.String(),
  /** acknowledgement: the entry (a failure) it acknowledges. */
  refId: Nullable(IdSchema, 'The acknowledged entry, or null'),
  /** failure: the first acknowledgement appended for it (who, when), or null while unacknowledged. */
  acknowledged: Nullable(Type.Object({ by: Type.String(), at: Time, entryId: IdSchema }), 'Acknowledgement, or null'),
});
export type LogBookEntry = Static<typeof LogBookEntrySchema>;

const logBookFilters = {
  /** The site: one project's log book. */
  projectId: IdSchema,
  type: Type.Optional(LogBookTypeSchema),
  from: Type.Optional(Time),
  to: Type.Optional(Time),
};

/** POST emergency/v1/page_log_book: a project's log book, newest first. */
export const LogBookListBodySchema = Type.Object({ ...logBookFilters, ...pageFields });
export type LogBookListBody = Static<typeof LogBookListBodySchema>;

export const LogBookPageSchema = PageOf(LogBookEntrySchema);
export type LogBookPage = Static<typeof LogBookPageSchema>;

/** POST emergency/v1/download_log_book(_excel): the entries the filters take, oldest first. */
export const LogBookReportBodySchema = Type.Object(logBookFilters);
export type LogBookReportBody = Static<typeof LogBookReportBodySchema>;

/** POST emergency/v1/acknowledge: appends an acknowledgement of a failure entry. */
export const LogBookAcknowledgeBodySchema = Type.Object({ entryId: IdSchema, note: Type.Optional(Note) });
export type LogBookAcknowledgeBody = Static<typeof LogBookAcknowledgeBodySchema>;

/** POST emergency/v1/repair: appends a repair of a light, with what was done. */
export const LogBookRepairBodySchema = Type.Object({
  deviceId: IdSchema,
  note: Type.String({ minLength: 1, maxLength: EMERGENCY_LIMITS.note.max }),
});
export type LogBookRepairBody = Static<typeof LogBookRepairBodySchema>;

export const LogBookAppendedSchema = Type.Object({ entry: LogBookEntrySchema });
export type LogBookAppended = Static<typeof LogBookAppendedSchema>;

/**
 * Where a light stands against EN 50172: `compliant` (the last function and duration tests passed and neither is
 * overdue), `overdue` (a test is due and none failed), `failed` (the last test of a kind failed and no repair was
 * recorded since), `repaired` (repaired after its failure, awaiting the test that shows it works). A failure stays
 * until a later test of that kind passes.
 */
export const COMPLIANCE_STATES = ['compliant', 'overdue', 'failed', 'repaired'] as const;
export type ComplianceState = (typeof COMPLIANCE_STATES)[number];

/** POST emergency/v1/page_compliance: a project's emergency lights and their due tests, failed first, then most overdue. */
export const ComplianceListBodySchema = Type.Object({
  projectId: IdSchema,
  /** Only lights that need attention: failed, repaired and awaiting a retest, or overdue (default true). */
  overdueOnly: Type.Optional(Type.Boolean({ default: true })),
  ...pageFields,
});
export type ComplianceListBody = Static<typeof ComplianceListBodySchema>;

export const ComplianceRowSchema = Type.Object({
  deviceId: IdSchema,
  name: Type.String(),
  addr: Type.String(),
  buildName: Type.String(),
  mapId: Nullable(IdSchema, 'Its map, or null'),
  mapName: Type.String(),
  gatewayName: Type.String(),
  lastFunctionTestAt: Nullable(Time, 'Last function test with a result, or null (never)'),
  lastLifeTestAt: Nullable(Time, 'Last life test with a result, or null (never)'),
  /** Whether that last function test passed (false: it failed), or null (never tested). */
  lastFunctionTestPassed: Nullable(Type.Boolean(), 'Whether the last function test passed, or null (never)'),
  lastLifeTestPassed: Nullable(Type.Boolean(), 'Whether the last life test passed, or null (never)'),
  /** A pass: lastFunctionTestAt + 31 days; a failure: its time (a retest is due at once); null: never tested (due now). */
  functionDueAt: Nullable(Time, 'When the next function test is due, or null (never tested)'),
  /** A pass: lastLifeTestAt + 365 days; a failure: its time; null: never tested. */
  lifeDueAt: Nullable(Time, 'When the next life test is due, or null (never tested)'),
  /** No function test with a result in 31 days (or never). */
  functionOverdue: Type.Boolean(),
  /** No life test with a result in 365 days (or never). */
  lifeOverdue: Type.Boolean(),
  state: Type.Enum(COMPLIANCE_STATES, { description: 'compliant, overdue, failed (awaiting repair) or repaired (awaiting retest)' }),
  /** The last repair recorded in the log book after the light's outstanding failure, or null. */
  repairedAt: Nullable(Time, 'Repair recorded after the failure, or null'),
});
export type ComplianceRow = Static<typeof ComplianceRowSchema>;

export const CompliancePageSchema = Type.Object({
  total: Type.Integer(),
  /** Of the project's emergency lights (not only the page): overdue for each test. */
  functionOverdue: Type.Integer(),
  lifeOverdue: Type.Integer(),
  /** Of the project's emergency lights: whose last function or duration test failed (repaired or not). */
  failed: Type.Integer(),
  /** ... of those, with no repair recorded since. */
  awaitingRepair: Type.Integer(),
  lights: Type.Integer({ description: 'Emergency lights of the project' }),
  list: Type.Array(ComplianceRowSchema),
});
export type CompliancePage = Static<typeof CompliancePageSchema>;

export const PDF_MIME = 'application/pdf';
/** A PDF document. */
export const PdfSchema = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'A PDF document' });

/** The real-time destination of one map's emergency changes. */
export function emergencyDestination(mapId: string | bigint): Destination<EmergencyTopicMessage> {
  return `/topic/emergency/${mapId}`;
}

/**
 * What `/topic/emergency/{mapId}` carries (users of the map's account may subscribe):
 * - `light`: a light's live state changed (a test event or a device report), with its task run's progress;
 * - `run`: a run of a task on the map started, moved on (a wave, a result) or ended.
 */
export const EmergencyLightMessageSchema = Type.Object({
  kind: Type.Literal('light'),
  deviceId: IdSchema,
  state: Nullable(StateCode, 'Live state code'),
  category: Type.Enum(EMERGENCY_MAP_CATEGORIES),
  battery: Nullable(Type.Integer(), 'Battery %'),
  online: Type.Boolean(),
  /** While the light tests in a run: that run, its progress and result so far. */
  runId: Nullable(IdSchema, 'The run it tests in, or null'),
  taskId: Nullable(IdSchema, 'The task of that run, or null'),
  progress: Nullable(Type.Integer(), 'Test progress 0-100, or null'),
  result: Nullable(Type.Integer(), 'Result code, or null'),
});
export type EmergencyLightMessage = Static<typeof EmergencyLightMessageSchema>;

export const EmergencyRunMessageSchema = Type.Object({ kind: Type.Literal('run'), run: EmergencyRunSchema });
export type EmergencyRunMessage = Static<typeof EmergencyRunMessageSchema>;

export const EmergencyTopicMessageSchema = Type.Union([EmergencyLightMessageSchema, EmergencyRunMessageSchema]);
export type EmergencyTopicMessage = EmergencyLightMessage | EmergencyRunMessage;

/** Texts of the server-written reports (log book PDF and Excel, test record workbook). */
export const EMERGENCY_RESULT_TEXT: Record<EmergencyRunResult, Localised> = {
  pass: { en: 'Pass', cn: '通过', tc: '通過', ja: '合格' },
  failed: { en: 'Failed', cn: '失败', tc: '失敗', ja: '不合格' },
  stopped: { en: 'Stopped', cn: '已停止', tc: '已停止', ja: '停止' },
};
export const LOG_BOOK_TYPE_TEXT: Record<LogBookType, Localised> = {
  test: { en: 'Test', cn: '测试', tc: '測試', ja: '点検' },
  failure: { en: 'Failure', cn: '故障', tc: '故障', ja: '故障' },
  repair: { en: 'Repair', cn: '维修', tc: '維修', ja: '修理' },
  acknowledgement: { en: 'Acknowledgement', cn: '确认', tc: '確認', ja: '確認' },
};
export const EMERGENCY_TEST_TEXT: Record<EmergencyTestKind, Localised> = {
  function: { en: 'Function test', cn: '功能测试', tc: '功能測試', ja: '機能点検' },
  life: { en: 'Duration test', cn: '持续时间测试', tc: '持續時間測試', ja: '持続時間点検' },
};
