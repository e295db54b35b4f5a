import { Type, type Static } from 'typebox';
import { IdSchema, Nullable, PageOf, pageFields } from './common.ts';
import { CCT_MAX_K, CCT_MIN_K } from './device-units.ts';
import { MAP_IMAGE_FILE_PATTERN } from './projects.ts';
import type { ErrorCode } from './errors.ts';
import { unsafeTextIn, weightedLength } from './validation.ts';

/**
 * Scenes and schedules, spec sections 2, 3, 5 and 7 "Scenes", paths under /api4/scene/v1/. A scene belongs to a
 * project and may span gateways: the server splits it into one part per gateway, each carried to its gateway
 * with the configuration, and the gateways run their schedules on their own clocks (docs/decisions.md,
 * "Scenes run on the gateways").
 */

/**
 * The kinds of spec section 3 and the creation routes of section 2: normal (manual), schedule, group schedule,
 * sunrise/sunset, sequence, and report once (a scene that runs once at a date and time).
 */
export const SCENE_KINDS = ['manual', 'schedule', 'groupSchedule', 'sun', 'sequence', 'once'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];
export const SceneKindSchema = Type.Enum(SCENE_KINDS, { description: 'manual, schedule, groupSchedule, sun, sequence or once' });

/** Kinds that the gateways start on their own clocks. */
export const TIMED_SCENE_KINDS: readonly SceneKind[] = ['schedule', 'groupSchedule', 'sun', 'once'];

export const SCENE_LIMITS = {
  /** Weighted length (a Chinese character counts 3): 7 Chinese characters or 21 others (spec section 5). */
  name: { max: 21 },
  /** Devices and groups of one scene on one gateway (spec section 9: 10, or 20 where the server allows it). */
  targetsPerGateway: { default: 10, extended: 20 },
  /** Scenes with a part on one gateway: the gateway's scene table ("the scene has reached the maximum number"). */
  scenesPerGateway: 64,
  /** Manual runs one account may have waiting for their gateways at once ("manual execution has reached the maximum quantity"). */
  manualRunsInFlight: 4,
  /** Steps of a sequence (spec: sequence number 1-8, DALI scene 0-15). */
  steps: { max: 16 },
  /** Times one scene has (start and end times, sunrise and sunset). */
  triggers: { max: 8 },
  /** Hold of a sequence step, seconds. */
  holdS: { max: 3600 },
  /** Fade time, seconds (spec section 5 fade time 0-254). */
  fadeS: { max: 254 },
  /** Offset from sunrise or sunset, minutes. */
  offsetMin: { min: -720, max: 720 },
  daliScene: { min: 0, max: 15 },
  sequenceNo: { min: 1, max: 8 },
  /** Minutes a device switched by hand stays in manual override (0: until the next scheduled event). */
  overrideMin: { max: 1440 },
  /** Holidays one project keeps. */
  holidays: { max: 366 },
  /** The keys of a scene panel. */
  panelKey: { min: 1, max: 6 },
  /** A sensor linkage: the level on detection and after it, the hold in seconds (a multiple of 10), the daylight target. */
  linkage: {
    detectPercent: { min: 1, max: 100 },
    clearPercent: { min: 0, max: 100 },
    holdS: { min: 10, max: 2540, step: 10 },
    lux: { min: 0, max: 60000 },
  },
} as const;

/** Letters of any script, digits, spaces, '-', '_', '.', '(' and ')': the spec's "no special characters". */
const SCENE_NAME_PATTERN = /^[\p{L}\p{N} _.()-]+$/u;

/** The problem with a scene name (after trimming): 100001 empty, 100011 too long, 310010 special characters. */
export function sceneNameProblem(name: string): ErrorCode | undefined {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 100001;
  if (weightedLength(trimmed) > SCENE_LIMITS.name.max) return 100011;
  if (unsafeTextIn(trimmed) || !SCENE_NAME_PATTERN.test(trimmed)) return 310010;
  return undefined;
}

const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, local time of the gateway' });
const LocalDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

/** What a member does when the scene runs; only what the device can do is sent (a switch ignores kelvin). */
export const SceneActionSchema = Type.Object(
  {
    on: Type.Boolean(),
    percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Brightness 0-100 %' })),
    kelvin: Type.Optional(Type.Integer({ minimum: CCT_MIN_K, maximum: CCT_MAX_K, description: 'Colour temperature' })),
    color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'Colour, #rrggbb' })),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Curtain opening 0-100 %' })),
    channels: Type.Optional(Type.Array(Type.Boolean(), { minItems: 1, maxItems: 4, description: 'Switch channels 1-4' })),
  },
  { additionalProperties: false },
);
export type SceneAction = Static<typeof SceneActionSchema>;

export const SceneMemberSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('device'), Type.Literal('group')]),
    id: IdSchema,
    action: SceneActionSchema,
  },
  { additionalProperties: false },
);
export type SceneMember = Static<typeof SceneMemberSchema>;

/** One step: its members take their actions, then the scene holds before the next step (sequences). */
export const SceneStepSchema = Type.Object(
  {
    members: Type.Array(SceneMemberSchema, { maxItems: 256 }),
    holdS: Type.Integer({ minimum: 0, maximum: SCENE_LIMITS.holdS.max, description: 'Seconds before the next step' }),
  },
  { additionalProperties: false },
);
export type SceneStep = Static<typeof SceneStepSchema>;

/**
 * A time the gateways run the scene: a clock time or sunrise/sunset with an offset. `start` applies the members'
 * actions, `end` switches them off (the end time of a schedule, the morning of a sunset-to-sunrise scene).
 */
export const SceneTriggerSchema = Type.Object(
  {
    at: Type.Union([Time, Type.Literal('sunrise'), Type.Literal('sunset')]),
    offsetMin: Type.Integer({ minimum: SCENE_LIMITS.offsetMin.min, maximum: SCENE_LIMITS.offsetMin.max }),
    then: Type.Union([Type.Literal('start'), Type.Literal('end')]),
  },
  { additionalProperties: false },
);
export type SceneTrigger = Static<typeof SceneTriggerSchema>;

const Weekday = Type.Integer({ minimum: 0, maximum: 6, description: '0 Sunday ... 6 Saturday' });

/** Everything a scene is made of, as add/big takes it and get answers it. */
export const SceneFieldsSchema = Type.Object(
  {
    projectId: IdSchema,
    name: Type.String({ maxLength: 64 }),
    kind: SceneKindSchema,
    fadeS: Type.Integer({ minimum: 0, maximum: SCENE_LIMITS.fadeS.max, description: 'Fade time, seconds' }),
    steps: Type.Array(SceneStepSchema, { minItems: 1, maxItems: SCENE_LIMITS.steps.max }),
    triggers: Type.Array(SceneTriggerSchema, { maxItems: SCENE_LIMITS.triggers.max }),
    /** Repeat days of a timed scene (at least one); a scene of kind once runs on `from` only. */
    days: Type.Array(Weekday, { maxItems: 7 }),
    from: Nullable(LocalDate, 'First date it runs, or null'),
    to: Nullable(LocalDate, 'Last date it runs, or null'),
    skipHolidays: Type.Boolean({ description: "Holiday filter: not on the project's holidays" }),
    daliScene: Nullable(Type.Integer({ minimum: 0, maximum: 15 }), 'DALI scene number of a sequence, or null'),
    sequenceNo: Nullable(Type.Integer({ minimum: 1, maximum: 8 }), 'Sequence number, or null'),
  },
  { additionalProperties: false },
);
export type SceneFields = Static<typeof SceneFieldsSchema>;

/** The fields a new scene of a kind starts from: no members, times, days, dates or sequence numbers yet. */
export function newSceneFields(projectId: string, kind: SceneKind, name = ''): SceneFields {
  return {
    projectId,
    name,
    kind,
    fadeS: 0,
    steps: [{ members: [], holdS: 0 }],
    triggers: [],
    days: [],
    from: null,
    to: null,
    skipHolidays: false,
    daliScene: null,
    sequenceNo: null,
  };
}

export const SceneUpdateBodySchema = Type.Object({ id: IdSchema, ...SceneFieldsSchema.properties }, { additionalProperties: false });
export type SceneUpdateBody = Static<typeof SceneUpdateBodySchema>;

/**
 * The rules of a scene that need nothing but its fields, in the order a user fixes them: name, members (110009),
 * the kind's shape, repeat days (310006), times (310008), dates, sequence numbers. The server adds what needs the
 * database: lighting devices (100204), targets per gateway (310005), gateway locations (310009).
 */
export function sceneFieldsProblem(scene: SceneFields): ErrorCode | undefined {
  const name = sceneNameProblem(scene.name);
  if (name) return name;
  const members = scene.steps.flatMap((s) => s.members);
  if (members.length === 0 || scene.steps.some((s) => s.members.length === 0)) return 110009;
  if (scene.kind !== 'sequence' && scene.steps.length !== 1) return 100001;
  if (scene.kind === 'groupSchedule' && members.some((m) => m.type !== 'group')) return 310011;
  const timed = TIMED_SCENE_KINDS.includes(scene.kind);
  if (!timed && scene.triggers.length > 0) return 100001;
  if (timed) {
    if (scene.kind !== 'once' && scene.days.length === 0) return 310006;
    if (!scene.triggers.some((t) => t.then === 'start')) return 310008;
    const sunRelative = scene.kind === 'sun';
    if (scene.triggers.some((t) => (t.at === 'sunrise' || t.at === 'sunset') !== sunRelative)) return 100001;
    if (!sunRelative && scene.triggers.some((t) => t.offsetMin !== 0)) return 100001;
  }
  if (scene.kind === 'once' && (scene.from === null || scene.to !== scene.from)) return 310012;
  if (scene.from !== null && scene.to !== null && scene.from > scene.to) return 310012;
  if (scene.kind === 'sequence' && (scene.daliScene === null || scene.sequenceNo === null)) return 100001;
  return undefined;
}

/** The gateways' part of a scene: one per gateway its members are on. */
export const ScenePartSchema = Type.Object({
  id: IdSchema,
  gatewayId: IdSchema,
  gatewayName: Type.String(),
  /** The gateway's time zone, in which it runs the scene's times. */
  timezone: Type.String(),
  online: Type.Boolean(),
  /** The gateway acknowledged a configuration that carries this part as it is now. */
  onGateway: Type.Boolean(),
  /** Devices and groups of the scene on this gateway. */
  targets: Type.Integer(),
});
export type ScenePart = Static<typeof ScenePartSchema>;

/** How one gateway's part of one run went. */
export const SceneRunPartSchema = Type.Object({
  gatewayId: IdSchema,
  gatewayName: Type.String(),
  /** 0 when the gateway ran it; otherwise the business code (100101 offline, 310003 not on the gateway yet, ...). */
  code: Type.Integer(),
  targets: Type.Integer(),
  failed: Type.Integer({ description: 'Devices and groups the gateway could not reach' }),
});
export type SceneRunPart = Static<typeof SceneRunPartSchema>;

export const SCENE_RUN_TRIGGERS = ['manual', 'schedule', 'panel'] as const;
export type SceneRunTrigger = (typeof SCENE_RUN_TRIGGERS)[number];

/** One run of a scene: a manual run (every part at once) or a run a gateway started and reported. */
export const SceneRunSchema = Type.Object({
  at: Type.String({ format: 'date-time', description: 'When it ran (the gateway clock for runs the gateways started)' }),
  trigger: Type.Enum(SCENE_RUN_TRIGGERS),
  /** start applied the members' actions, end switched them off. */
  then: Type.Union([Type.Literal('start'), Type.Literal('end')]),
  parts: Type.Array(SceneRunPartSchema),
});
export type SceneRun = Static<typeof SceneRunSchema>;

/** A scene as the list shows it. */
export const SceneViewSchema = Type.Object({
  id: IdSchema,
  projectId: IdSchema,
  name: Type.String(),
  kind: SceneKindSchema,
  image: Nullable(Type.String(), 'URL of the scene picture, or null'),
  devices: Type.Integer({ description: 'Devices among the members' }),
  groups: Type.Integer({ description: 'Groups among the members' }),
  parts: Type.Array(ScenePartSchema),
  /** The next time a gateway runs it (epoch ms), computed as the gateways compute it; null for none. */
  nextRun: Nullable(Type.Integer(), 'Epoch ms of the next run, or null'),
  lastRun: Nullable(SceneRunSchema, 'The latest run, or null'),
  /** synced: every part is on its gateway; pending: a gateway has not taken its part yet. */
  state: Type.Union([Type.Literal('synced'), Type.Literal('pending')]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type SceneView = Static<typeof SceneViewSchema>;

/** A member as the editor shows it, with what it is. */
export const SceneMemberViewSchema = Type.Object({
  ...SceneMemberSchema.properties,
  name: Type.String(),
  gatewayId: IdSchema,
  mapId: Nullable(IdSchema, 'The map it is on, or null'),
  /** Device type code, or null for a group. */
  deviceType: Nullable(Type.Integer(), 'Device type code, or null for a group'),
});
export type SceneMemberView = Static<typeof SceneMemberViewSchema>;

export const SceneDetailSchema = Type.Object({
  ...SceneViewSchema.properties,
  fields: SceneFieldsSchema,
  members: Type.Array(SceneMemberViewSchema, { description: 'Every member of every step, with names' }),
  /** The next seven runs (epoch ms), each with what it does. */
  upcoming: Type.Array(
    Type.Object({
      at: Type.Integer(),
      then: Type.Union([Type.Literal('start'), Type.Literal('end')]),
      gatewayId: IdSchema,
      /** The gateway's time zone. */
      timezone: Type.String(),
    }),
  ),
});
export type SceneDetail = Static<typeof SceneDetailSchema>;

/** add/big and update/big answer the scene and how each gateway took its part. */
export const SceneSaveResultSchema = Type.Object({
  scene: SceneViewSchema,
  /** Per gateway: 0 took it, 100101 offline (the sync banner offers it), 310003 timeout for adding scene. */
  sync: Type.Array(Type.Object({ gatewayId: IdSchema, gatewayName: Type.String(), code: Type.Integer() })),
});
export type SceneSaveResult = Static<typeof SceneSaveResultSchema>;

export const SceneListBodySchema = Type.Object({
  projectId: IdSchema,
  name: Type.Optional(Type.String({ maxLength: 64, description: 'Part of the name' })),
  kind: Type.Optional(SceneKindSchema),
  ...pageFields,
});
export type SceneListBody = Static<typeof SceneListBodySchema>;

export const SceneExportBodySchema = Type.Object({
  projectId: IdSchema,
  name: Type.Optional(Type.String({ maxLength: 64 })),
  kind: Type.Optional(SceneKindSchema),
});
export type SceneExportBody = Static<typeof SceneExportBodySchema>;

export const ScenePageSchema = PageOf(SceneViewSchema);
export type ScenePage = Static<typeof ScenePageSchema>;

/** Scene pictures: jpg or png up to 1 MB (spec section 5). */
export const SCENE_IMAGE = { maxBytes: 1024 * 1024 } as const;

/** Where a scene picture is served from. */
export function sceneImageUrl(file: string): string {
  return `/api4/scene/v1/image/${file}`;
}

export const SceneImageUploadSchema = Type.Object({
  id: Type.Optional(IdSchema),
  file: Type.Optional(Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The picture: png or jpeg' })),
});
export const SceneImageFileParamsSchema = Type.Object({
  file: Type.String({ pattern: MAP_IMAGE_FILE_PATTERN, description: '32 hex digits and .png or .jpg' }),
});

export const SceneIdParamsSchema = Type.Object({ id: IdSchema });
export type SceneIdParams = Static<typeof SceneIdParamsSchema>;

/** A manual scene as a panel key or a quick run picks it. */
export const ManualSceneSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  kind: Type.Union([Type.Literal('manual'), Type.Literal('sequence')]),
  gatewayIds: Type.Array(IdSchema),
});
export const ManualSceneListSchema = Type.Array(ManualSceneSchema);
export type ManualScene = Static<typeof ManualSceneSchema>;

export const SceneRunsBodySchema = Type.Object({
  id: IdSchema,
  ...pageFields,
});
export type SceneRunsBody = Static<typeof SceneRunsBodySchema>;
export const SceneRunPageSchema = PageOf(SceneRunSchema);
export type SceneRunPage = Static<typeof SceneRunPageSchema>;

/** The week view of schedule management: every run the gateways will start, from a local date. */
export const SceneWeekBodySchema = Type.Object({
  projectId: IdSchema,
  from: LocalDate,
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, default: 7 })),
});
export type SceneWeekBody = Static<typeof SceneWeekBodySchema>;
export const SceneWeekRunSchema = Type.Object({
  sceneId: IdSchema,
  name: Type.String(),
  kind: SceneKindSchema,
  gatewayId: IdSchema,
  gatewayName: Type.String(),
  at: Type.Integer({ description: 'Epoch ms' }),
  /** The gateway's time zone, so the view shows the gateway's local time. */
  timezone: Type.String(),
  then: Type.Union([Type.Literal('start'), Type.Literal('end')]),
});
export type SceneWeekRun = Static<typeof SceneWeekRunSchema>;
export const SceneWeekSchema = Type.Array(SceneWeekRunSchema);

/** Holidays of a project (the holiday filter) and its manual override timeout. */
export const SceneSettingsSchema = Type.Object({
  projectId: IdSchema,
  holidays: Type.Array(Type.Object({ date: LocalDate, name: Type.String({ maxLength: 50 }) }, { additionalProperties: false }), {
    maxItems: SCENE_LIMITS.holidays.max,
  }),
  overrideMin: Type.Integer({ minimum: 0, maximum: SCENE_LIMITS.overrideMin.max }),
});
export type SceneSettings = Static<typeof SceneSettingsSchema>;
export const SceneProjectParamsSchema = Type.Object({ projectId: IdSchema });

/** POST device/v1/input_scene: binds a key of a scene panel to a manual scene, or frees it (sceneId null). */
export const InputSceneBodySchema = Type.Object({
  panelId: IdSchema,
  key: Type.Integer({ minimum: SCENE_LIMITS.panelKey.min, maximum: SCENE_LIMITS.panelKey.max }),
  sceneId: Nullable(IdSchema, 'The scene, or null to free the key'),
});
export type InputSceneBody = Static<typeof InputSceneBodySchema>;
export const PanelKeysSchema = Type.Array(Type.Object({ key: Type.Integer(), sceneId: IdSchema, sceneName: Type.String() }));
export type PanelKeys = Static<typeof PanelKeysSchema>;

/** POST device/v1/execute_auto: hands devices switched by hand back to their sensors and schedules. */
export const ExecuteAutoBodySchema = Type.Object({
  deviceIds: Type.Array(IdSchema, { minItems: 1, maxItems: 1000 }),
});
export type ExecuteAutoBody = Static<typeof ExecuteAutoBodySchema>;
export const ExecuteAutoResultSchema = Type.Object({
  released: Type.Integer({ description: 'Devices that were in manual override' }),
  parts: Type.Array(Type.Object({ gatewayId: IdSchema, gatewayName: Type.String(), code: Type.Integer() })),
});
export type ExecuteAutoResult = Static<typeof ExecuteAutoResultSchema>;

/**
 * Sensor linkage: a motion or daylight sensor drives a group of its gateway. On detection the group goes to
 * `onDetectPercent` (unless the daylight is above `lux`), and `holdS` after the last detection to
 * `onClearPercent` (0 switches it off). Gateways run it in the sensor mode "default linkage" (sensor_sync_model).
 */
const LINKAGE = SCENE_LIMITS.linkage;
export const SensorLinkageSchema = Type.Object(
  {
    sensorId: IdSchema,
    groupId: IdSchema,
    onDetectPercent: Type.Integer({ minimum: LINKAGE.detectPercent.min, maximum: LINKAGE.detectPercent.max }),
    onClearPercent: Type.Integer({ minimum: LINKAGE.clearPercent.min, maximum: LINKAGE.clearPercent.max }),
    holdS: Type.Integer({
      minimum: LINKAGE.holdS.min,
      maximum: LINKAGE.holdS.max,
      multipleOf: LINKAGE.holdS.step,
      description: 'Hold time, seconds, a multiple of 10',
    }),
    lux: Nullable(
      Type.Integer({ minimum: LINKAGE.lux.min, maximum: LINKAGE.lux.max }),
      'Daylight target: no switching on above this many lux; null for always',
    ),
  },
  { additionalProperties: false },
);
export type SensorLinkage = Static<typeof SensorLinkageSchema>;

export const SensorLinkageViewSchema = Type.Object({
  ...SensorLinkageSchema.properties,
  sensorName: Type.String(),
  groupName: Type.String(),
  gatewayId: IdSchema,
  /** The gateway acknowledged a configuration that carries the linkage as it is now. */
  onGateway: Type.Boolean(),
});
export type SensorLinkageView = Static<typeof SensorLinkageViewSchema>;
export const SensorLinkageListSchema = Type.Array(SensorLinkageViewSchema);
export const SceneMapParamsSchema = Type.Object({ mapId: IdSchema });
