import { Type, type Static } from 'typebox';
import { FIRMWARE_TARGETS } from './commands.ts';
import { DeviceAddrSchema, DeviceKindSchema, DeviceStateSchema, FaultCodeSchema } from './devices.ts';
import { GatewayInfoSchema } from './gateway.ts';
import {
  BatteryCellsSchema,
  BatteryCurrentSchema,
  BatteryTemperatureSchema,
  BatteryVoltageSchema,
  EmergencyFailureSchema,
  EmergencyTestSchema,
} from './emergency.ts';

const EpochMs = Type.Integer({ minimum: 0, description: 'milliseconds since 1970-01-01T00:00:00Z, gateway clock' });

/**
 * up/state, retained. `online` is published on connect with the gateway's info; `offline` is the last will
 * (reason `lost`) and what a gateway publishes itself before a planned disconnect (restart, update).
 */
export const StateMessageSchema = Type.Union([
  Type.Object({ state: Type.Literal('online'), info: GatewayInfoSchema, ts: Type.Optional(EpochMs) }, { additionalProperties: false }),
  Type.Object(
    {
      state: Type.Literal('offline'),
      reason: Type.Union([Type.Literal('lost'), Type.Literal('restart'), Type.Literal('update'), Type.Literal('shutdown')]),
      ts: Type.Optional(EpochMs),
    },
    { additionalProperties: false },
  ),
]);
export type StateMessage = Static<typeof StateMessageSchema>;

/**
 * down/ack: the cloud received an online state and is subscribed to the gateway's up topics, so what the
 * gateway stored while nobody was listening can go now (docs/protocol.md section 3). `state` is the `ts` of
 * the online state it answers, so a gateway tells the answer to this connection's state from a stale one.
 */
export const OnlineAckMessageSchema = Type.Object(
  { state: Type.Optional(EpochMs), ts: Type.Integer({ minimum: 0, description: 'milliseconds since 1970-01-01T00:00:00Z, cloud clock' }) },
  { additionalProperties: false },
);
export type OnlineAckMessage = Static<typeof OnlineAckMessageSchema>;

/** up/report: device states, batched; a full report after connect and `devices.report`, changes otherwise. */
export const ReportMessageSchema = Type.Object(
  {
    ts: EpochMs,
    /** True when the batch is part of a full report (every device), false for changes only. */
    full: Type.Boolean(),
    devices: Type.Array(DeviceStateSchema, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
);
export type ReportMessage = Static<typeof ReportMessageSchema>;

/** One measurement of one device on up/telemetry. */
export const TelemetrySampleSchema = Type.Object(
  {
    addr: DeviceAddrSchema,
    /** Active power, watts. */
    power: Type.Optional(Type.Number({ minimum: 0, maximum: 100000 })),
    /** Energy counter since the device was installed, watt-hours; never decreases. */
    energyWh: Type.Optional(Type.Number({ minimum: 0 })),
    voltage: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
    current: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
    battery: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    batteryVoltage: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    temperature: Type.Optional(Type.Number({ minimum: -60, maximum: 150 })),
    lux: Type.Optional(Type.Number({ minimum: 0, maximum: 100000 })),
  },
  { additionalProperties: false },
);
export type TelemetrySample = Static<typeof TelemetrySampleSchema>;

/** up/telemetry: power, energy, battery, temperature (ARCHITECTURE.md section 5). */
export const TelemetryMessageSchema = Type.Object(
  { ts: EpochMs, samples: Type.Array(TelemetrySampleSchema, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);
export type TelemetryMessage = Static<typeof TelemetryMessageSchema>;

/**
 * Firmware update outcome as the real-time notice of spec section 4 carries it: 1 success, 2 failure;
 * the cloud itself decides 3 (timeout) when no outcome arrives in time.
 */
export const FIRMWARE_RESULT = { success: 1, failure: 2, timeout: 3 } as const;

/** up/event: one thing that happened, by type. */
export const EventMessageSchema = Type.Union([
  /** A sensor saw something: motion (value 1 occupied, 0 cleared), daylight (lux), temperature (°C). */
  Type.Object(
    {
      type: Type.Literal('sensor'),
      ts: EpochMs,
      addr: DeviceAddrSchema,
      sensor: Type.Union([Type.Literal('motion'), Type.Literal('daylight'), Type.Literal('temperature'), Type.Literal('cct')]),
      value: Type.Number(),
    },
    { additionalProperties: false },
  ),
  /** A device fault was raised or cleared (fault codes of spec section 4). */
  Type.Object(
    { type: Type.Literal('fault'), ts: EpochMs, addr: DeviceAddrSchema, code: FaultCodeSchema, raised: Type.Boolean() },
    { additionalProperties: false },
  ),
  /**
   * Emergency test progress or result (spec section 4 state and result codes, emergency.ts). The last event of
   * a test carries `result` (a stopped function test has none: state 26 ends it) and the measurements.
   */
  Type.Object(
    {
      type: Type.Literal('emergency'),
      ts: EpochMs,
      addr: DeviceAddrSchema,
      test: EmergencyTestSchema,
      state: Type.Integer({ minimum: 0, maximum: 99 }),
      result: Type.Optional(Type.Integer({ minimum: 0, maximum: 9 })),
      progress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
      voltageBefore: Type.Optional(Type.Number()),
      voltageAfter: Type.Optional(Type.Number()),
      /** How long the test actually ran, seconds. */
      durationS: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_000 })),
      /** Battery at the end: voltage (V), discharge current (A), temperature (°C), cells. */
      batteryVoltage: Type.Optional(BatteryVoltageSchema),
      batteryCurrent: Type.Optional(BatteryCurrentSchema),
      batteryTemperature: Type.Optional(BatteryTemperatureSchema),
      batteryCells: Type.Optional(BatteryCellsSchema),
      /** The lamp's power in emergency operation, W. */
      powerW: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
      /** What the test found wrong; empty on a pass. */
      failures: Type.Optional(Type.Array(EmergencyFailureSchema, { maxItems: 4 })),
    },
    { additionalProperties: false },
  ),
  /**
   * Firmware update progress of the update started by command `update` (its command id). The last event
   * of an update has `result` 1 (success: the gateway then runs `version`) or 2 (failure).
   */
  Type.Object(
    {
      type: Type.Literal('firmware'),
      ts: EpochMs,
      update: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
      target: Type.Enum(FIRMWARE_TARGETS),
      stage: Type.Union([Type.Literal('downloading'), Type.Literal('installing'), Type.Literal('rebooting'), Type.Literal('done')]),
      progress: Type.Integer({ minimum: 0, maximum: 100 }),
      result: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
      version: Type.Optional(Type.String({ maxLength: 32 })),
      message: Type.Optional(Type.String({ maxLength: 512 })),
    },
    { additionalProperties: false },
  ),
  /**
   * The gateway ran a scene of its configuration: on its own schedule (`schedule`, with the schedule's id),
   * from a scene panel key (`panel`) or on `scene.run` (`manual`). `targets` devices and groups were
   * addressed, `failed` of them unreachable. Runs while the cloud was away are sent when it is back, with the
   * time they happened.
   */
  Type.Object(
    {
      type: Type.Literal('scene'),
      ts: EpochMs,
      scene: Type.Integer({ minimum: 1, maximum: 65535 }),
      trigger: Type.Union([Type.Literal('schedule'), Type.Literal('panel'), Type.Literal('manual')]),
      schedule: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
      targets: Type.Integer({ minimum: 0 }),
      failed: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
  /** A device joined (or left) the gateway's network. */
  Type.Object(
    {
      type: Type.Literal('join'),
      ts: EpochMs,
      addr: DeviceAddrSchema,
      kind: DeviceKindSchema,
      joined: Type.Boolean(),
      bridge: Type.Optional(DeviceAddrSchema),
    },
    { additionalProperties: false },
  ),
]);
export type EventMessage = Static<typeof EventMessageSchema>;
