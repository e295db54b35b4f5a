import { Type, type Static } from 'typebox';
import { IdSchema, Nullable } from './common.ts';
import { GATEWAY_FIRMWARE_TARGETS } from './gateways.ts';
import type { Destination } from './realtime.ts';

const DateTime = Type.String({ format: 'date-time' });

/** The platform administrator's view across tenants (docs/operations.md "Platform view and firmware rollouts"). */
export const PlatformTenantSchema = Type.Object({
  /** The account (tenant). */
  id: IdSchema,
  account: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  gatewaysOnline: Type.Integer({ minimum: 0 }),
  gatewaysOffline: Type.Integer({ minimum: 0 }),
  devices: Type.Integer({ minimum: 0 }),
  /** Alarms not back to normal (docs/alarms.md). */
  openAlarms: Type.Integer({ minimum: 0 }),
  /** Bytes the tenant's rows take in the database's largest per-tenant tables (devices, states, energy, alarms, audit). */
  storageBytes: Type.Integer({ minimum: 0 }),
});
export type PlatformTenant = Static<typeof PlatformTenantSchema>;

/** How many gateways of one model run one version of a firmware part. */
export const FleetVersionSchema = Type.Object({
  target: Type.String(),
  model: Type.String({ description: 'The gateway model it reports; empty when it has not said' }),
  version: Type.String({ description: 'Empty when the gateway has never reported its versions' }),
  count: Type.Integer({ minimum: 0 }),
});
export type FleetVersion = Static<typeof FleetVersionSchema>;

export const PlatformOverviewSchema = Type.Object({
  tenants: Type.Array(PlatformTenantSchema),
  /** Provisioned gateways no account has bound (the pool). */
  poolGateways: Type.Integer({ minimum: 0 }),
  /** The gateway firmware (part `gateway`) running in the fleet, by model and version. */
  firmware: Type.Array(FleetVersionSchema),
  /** The whole database, in bytes. */
  databaseBytes: Type.Integer({ minimum: 0 }),
});
export type PlatformOverview = Static<typeof PlatformOverviewSchema>;

const TargetSchema = Type.Unsafe<(typeof GATEWAY_FIRMWARE_TARGETS)[number]>({
  type: 'string',
  enum: [...GATEWAY_FIRMWARE_TARGETS],
  description: 'The firmware part: gateway, zigbee, zigbee2, zigbee3, wisun or plc',
});

/** A firmware file of the catalogue (DATA_DIR/firmware/manifest.json). */
export const FirmwareFileViewSchema = Type.Object({ target: Type.String(), version: Type.String() });
export type FirmwareFileView = Static<typeof FirmwareFileViewSchema>;

export const ROLLOUT_LIMITS = {
  waveSize: { minimum: 1, maximum: 500 },
  concurrency: { minimum: 1, maximum: 100 },
  filter: { max: 100 },
} as const;

/** `HH:MM`, 24-hour. */
const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour' });

/** When gateways may update: from `start` to `end` in each gateway's own time zone (past midnight when end < start). */
export const MaintenanceWindowSchema = Type.Object(
  { start: ClockTime, end: ClockTime },
  { additionalProperties: false, description: 'Local to each gateway (its time zone; UTC when it has none)' },
);
export type MaintenanceWindow = Static<typeof MaintenanceWindowSchema>;

/** Which gateways a rollout takes: every filter given must match; an empty or absent one matches all. */
export const RolloutSelectionSchema = Type.Object(
  {
    tenantIds: Type.Optional(Type.Array(IdSchema, { maxItems: ROLLOUT_LIMITS.filter.max, description: 'Accounts whose gateways' })),
    versions: Type.Optional(
      Type.Array(Type.String({ maxLength: 32 }), { maxItems: ROLLOUT_LIMITS.filter.max, description: 'Versions of the part they run now' }),
    ),
    models: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: ROLLOUT_LIMITS.filter.max, description: 'Gateway models' }),
    ),
  },
  { additionalProperties: false },
);
export type RolloutSelection = Static<typeof RolloutSelectionSchema>;

export const RolloutCreateBodySchema = Type.Object(
  {
    target: TargetSchema,
    version: Type.String({ minLength: 1, maxLength: 32, description: 'A version of the catalogue for that part' }),
    selection: RolloutSelectionSchema,
    waveSize: Type.Integer({ ...ROLLOUT_LIMITS.waveSize, description: 'Gateways per wave' }),
    concurrency: Type.Integer({ ...ROLLOUT_LIMITS.concurrency, description: 'Updates running at once; at most the wave size' }),
    failureThresholdPct: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: 'The rollout pauses when more than this percent of a wave has failed',
    }),
    window: Type.Optional(MaintenanceWindowSchema),
  },
  { additionalProperties: false },
);
export type RolloutCreateBody = Static<typeof RolloutCreateBodySchema>;

/** Where a rollout is: running its waves, paused (by hand or at the threshold), done, or rolling back. */
export const ROLLOUT_STATES = ['running', 'paused', 'done', 'rollingBack', 'rolledBack'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

/** Where one gateway of a rollout is. */
export const ROLLOUT_TARGET_STATES = ['pending', 'updating', 'succeeded', 'failed', 'rollingBack', 'rolledBack', 'rollbackFailed'] as const;
export type RolloutTargetState = (typeof ROLLOUT_TARGET_STATES)[number];

const RolloutCountsSchema = Type.Object(
  Object.fromEntries(ROLLOUT_TARGET_STATES.map((state) => [state, Type.Integer({ minimum: 0 })])) as Record<
    RolloutTargetState,
    ReturnType<typeof Type.Integer>
  >,
);

export const RolloutSchema = Type.Object({
  id: IdSchema,
  target: Type.String(),
  version: Type.String(),
  state: Type.Unsafe<RolloutState>({ type: 'string', enum: [...ROLLOUT_STATES] }),
  pauseReason: Nullable(
    Type.Unsafe<'threshold' | 'manual'>({ type: 'string', enum: ['threshold', 'manual'] }),
    'threshold: a wave failed past the threshold; manual: paused by hand; null when not paused',
  ),
  selection: RolloutSelectionSchema,
  waveSize: Type.Integer(),
  concurrency: Type.Integer(),
  failureThresholdPct: Type.Integer(),
  window: Nullable(MaintenanceWindowSchema, 'The maintenance window, or null for any time'),
  /** The wave running or next to run, from 1. */
  currentWave: Type.Integer({ minimum: 1 }),
  waves: Type.Integer({ minimum: 1 }),
  total: Type.Integer({ minimum: 0 }),
  counts: RolloutCountsSchema,
  createdAt: DateTime,
  finishedAt: Nullable(DateTime, 'When it ended (done or rolled back)'),
});
export type Rollout = Static<typeof RolloutSchema>;

export const RolloutTargetSchema = Type.Object({
  gatewayId: Nullable(IdSchema, 'Null when the gateway was deleted since'),
  mac: Type.String(),
  name: Type.String(),
  tenant: Type.String({ description: 'The owning account, empty for a pool gateway' }),
  model: Type.String(),
  wave: Type.Integer({ minimum: 1 }),
  fromVersion: Type.String(),
  state: Type.Unsafe<RolloutTargetState>({ type: 'string', enum: [...ROLLOUT_TARGET_STATES] }),
  errorCode: Nullable(Type.Integer(), 'Why it failed (100101 offline, 100102 failed, 100103 timed out, 260007 no file)'),
});
export type RolloutTarget = Static<typeof RolloutTargetSchema>;

export const RolloutDetailSchema = Type.Object({ rollout: RolloutSchema, targets: Type.Array(RolloutTargetSchema) });
export type RolloutDetail = Static<typeof RolloutDetailSchema>;

export const RolloutParamsSchema = Type.Object({ id: IdSchema });

/** The live topic of rollouts: every change of one is published there as a Rollout, to platform administrators only. */
export const ROLLOUT_TOPIC: Destination<Rollout> = '/topic/firmware_rollouts';
