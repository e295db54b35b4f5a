import { Type, type Static, type TSchema } from 'typebox';
import { GatewayConfigSchema, LightActionSchema } from './config.ts';
import { DeviceAddrSchema, DeviceKindSchema, DeviceParamValuesSchema, JoinedDeviceSchema } from './devices.ts';
import { BridgeSchema, GatewayInfoSchema, GatewayParamsSchema, MicrowaveParamsSchema, SensorModeSchema } from './gateway.ts';
import {
  BatteryCellsSchema,
  BatteryVoltageSchema,
  EmergencyFailureSchema,
  EmergencyLightTypeSchema,
  EmergencyTestSchema,
} from './emergency.ts';

const Empty = Type.Object({}, { additionalProperties: false });
const EpochMs = Type.Integer({ minimum: 0, description: 'milliseconds since 1970-01-01T00:00:00Z' });

/** Firmware parts a gateway can update, matching the version fields of GatewayInfo. */
export const FIRMWARE_TARGETS = ['gateway', 'zigbee', 'zigbee2', 'zigbee3', 'wisun', 'plc'] as const;
export type FirmwareTarget = (typeof FIRMWARE_TARGETS)[number];

/**
 * What a command does, which decides what its failure tells the user: a read answers "acquisition failed" or
 * "loading timeout", a set "setting failed" or "parameter set timeout", a control that the gateway did not
 * answer; firmware updates and configuration syncs have messages of their own.
 */
export type CommandPurpose = 'read' | 'set' | 'control' | 'firmware' | 'config';

/**
 * Every command the cloud sends: its params, the result a successful reply carries, its purpose, how long the
 * cloud waits for the reply, and whether it is a radio command that the Zigbee rate limits apply to.
 * `config.apply` travels on down/config, every other command on down/cmd.
 */
export const COMMANDS = {
  /** Gateway fields of spec section 3 (detail, check_gateway_version). */
  'gateway.info': { params: Empty, result: GatewayInfoSchema, purpose: 'read', timeoutMs: 10_000 },
  /** Identify ("tryme"): the gateway blinks its LED for a while. */
  'gateway.identify': {
    params: Type.Object({ durationS: Type.Optional(Type.Integer({ minimum: 1, maximum: 300 })) }, { additionalProperties: false }),
    result: Empty,
    purpose: 'control',
    timeoutMs: 10_000,
  },
  /** Restart: the gateway replies first, then goes offline and comes back (spec: reconnect 1-2 minutes). */
  'gateway.restart': { params: Empty, result: Empty, purpose: 'control', timeoutMs: 10_000 },
  /** Reads the gateway clock (read_gateway_time). */
  'time.get': {
    params: Empty,
    result: Type.Object({ time: EpochMs, timezone: Type.Optional(Type.String()) }, { additionalProperties: false }),
    purpose: 'read',
    timeoutMs: 10_000,
  },
  /** Sets the gateway clock to the cloud's (sync_gateway_systemtime). */
  'time.set': {
    params: Type.Object(
      { time: EpochMs, timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
      { additionalProperties: false },
    ),
    result: Type.Object({ time: EpochMs }, { additionalProperties: false }),
    purpose: 'set',
    timeoutMs: 10_000,
  },
  /** Reads the gateway parameters. */
  'params.get': {
    params: Empty,
    result: Type.Object({ params: GatewayParamsSchema }, { additionalProperties: false }),
    purpose: 'read',
    timeoutMs: 10_000,
  },
  /** Sets some parameters (set_params, set_lon_lat); the reply carries all of them after the change. */
  'params.set': {
    params: Type.Object({ params: GatewayParamsSchema }, { additionalProperties: false }),
    result: Type.Object({ params: GatewayParamsSchema }, { additionalProperties: false }),
    purpose: 'set',
    timeoutMs: 15_000,
  },
  /** Devices that joined the gateway's networks, for import (import, check/import). */
  'devices.list': {
    params: Empty,
    result: Type.Object({ devices: Type.Array(JoinedDeviceSchema, { maxItems: 4096 }) }, { additionalProperties: false }),
    purpose: 'read',
    timeoutMs: 30_000,
  },
  /** Opens the network for joining for a while. */
  'devices.permitJoin': {
    params: Type.Object({ durationS: Type.Integer({ minimum: 0, maximum: 254 }) }, { additionalProperties: false }),
    result: Empty,
    purpose: 'set',
    timeoutMs: 10_000,
  },
  /** Asks for a full state report of every device now (re_report, refresh_all); states follow on up/report. */
  'devices.report': {
    params: Empty,
    result: Type.Object({ count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    purpose: 'read',
    timeoutMs: 10_000,
  },
  /**
   * The accounts a panel keeps that may unlock it (read_panel_lock_accounts): its user slots (key cards or
   * PIN users) and whether it is locked now. Only panels; anything else answers `unsupported`.
   */
  'panel.lockAccounts': {
    params: Type.Object({ addr: DeviceAddrSchema }, { additionalProperties: false }),
    result: Type.Object(
      {
        locked: Type.Boolean(),
        accounts: Type.Array(
          Type.Object(
            {
              slot: Type.Integer({ minimum: 1, maximum: 16 }),
              account: Type.String({ minLength: 1, maxLength: 32 }),
              name: Type.String({ maxLength: 32 }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 16 },
        ),
      },
      { additionalProperties: false },
    ),
    purpose: 'read',
    timeoutMs: 15_000,
    radio: 'unicast',
  },
  /** Unicast control of one device; subject to the per-network rate limit. */
  'device.control': {
    params: Type.Object({ addr: DeviceAddrSchema, action: LightActionSchema }, { additionalProperties: false }),
    result: Empty,
    purpose: 'control',
    timeoutMs: 15_000,
    radio: 'unicast',
  },
  /** Identify ("try me"): the device blinks for a while; subject to the per-network rate limit. */
  'device.identify': {
    params: Type.Object(
      { addr: DeviceAddrSchema, durationS: Type.Optional(Type.Integer({ minimum: 1, maximum: 300 })) },
      { additionalProperties: false },
    ),
    result: Empty,
    purpose: 'control',
    timeoutMs: 10_000,
    radio: 'unicast',
  },
  /** Reads the parameters a device runs now (read_params, get_daylight_params): every parameter it has. */
  'device.params.get': {
    params: Type.Object({ addr: DeviceAddrSchema }, { additionalProperties: false }),
    result: Type.Object({ params: DeviceParamValuesSchema }, { additionalProperties: false }),
    purpose: 'read',
    timeoutMs: 15_000,
    radio: 'unicast',
  },
  /**
   * Writes some parameters to a device (set_device_params and its kin); the reply carries every parameter
   * after the change. The cloud has checked the ranges; a gateway still refuses a name its device lacks.
   */
  'device.params.set': {
    params: Type.Object({ addr: DeviceAddrSchema, params: DeviceParamValuesSchema }, { additionalProperties: false }),
    result: Type.Object({ params: DeviceParamValuesSchema }, { additionalProperties: false }),
    purpose: 'set',
    timeoutMs: 15_000,
    radio: 'unicast',
  },
  /** Switches a sensor's sensing on or off (control_sensor_onoff); a sensor that does not sense reports no activity. */
  'device.sensor': {
    params: Type.Object({ addr: DeviceAddrSchema, on: Type.Boolean() }, { additionalProperties: false }),
    result: Empty,
    purpose: 'control',
    timeoutMs: 15_000,
    radio: 'unicast',
  },
  /** The device leaves the network and the gateway forgets it (delete from the gateway as well). */
  'device.remove': {
    params: Type.Object({ addr: DeviceAddrSchema }, { additionalProperties: false }),
    result: Empty,
    purpose: 'set',
    timeoutMs: 15_000,
    radio: 'unicast',
  },
  /** Tells the gateway what a device is (batch_alter_devices): a light that joined as the wrong kind. */
  'device.setKind': {
    params: Type.Object(
      { addrs: Type.Array(DeviceAddrSchema, { minItems: 1, maxItems: 4096 }), kind: DeviceKindSchema },
      { additionalProperties: false },
    ),
    result: Type.Object({ changed: Type.Array(DeviceAddrSchema) }, { additionalProperties: false }),
    purpose: 'set',
    timeoutMs: 15_000,
  },
  /** One broadcast to every device of the gateway (broad_control); one radio group command. */
  'devices.broadcast': {
    params: Type.Object({ action: LightActionSchema }, { additionalProperties: false }),
    result: Type.Object({ count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    purpose: 'control',
    timeoutMs: 15_000,
    radio: 'group',
  },
  /**
   * The same action to many devices one by one (a group the gateway does not run yet): the gateway answers
   * at once with what it queued, then sends one unicast per device at its radio rate, never dropping one,
   * and reports each device as it changes. Offline and unknown devices are listed in `skipped`.
   */
  'devices.control': {
    params: Type.Object(
      { addrs: Type.Array(DeviceAddrSchema, { minItems: 1, maxItems: 4096 }), action: LightActionSchema },
      { additionalProperties: false },
    ),
    result: Type.Object({ queued: Type.Integer({ minimum: 0 }), skipped: Type.Array(DeviceAddrSchema) }, { additionalProperties: false }),
    purpose: 'control',
    timeoutMs: 15_000,
    radio: 'unicast',
  },
  /** Group (multicast) control; at most about one a second per Zigbee network. */
  'group.control': {
    params: Type.Object(
      { group: Type.Integer({ minimum: 1, maximum: 65535 }), action: LightActionSchema },
      { additionalProperties: false },
    ),
    result: Empty,
    purpose: 'control',
    timeoutMs: 15_000,
    radio: 'group',
  },
  /**
   * Starts a firmware update. The reply only says the update was accepted; progress and the outcome
   * arrive as `firmware` events, and the whole update takes about 10-20 minutes (spec section 9).
   */
  'firmware.update': {
    params: Type.Object(
      {
        target: Type.Enum(FIRMWARE_TARGETS),
        version: Type.String({ minLength: 1, maxLength: 32 }),
        /** Where the gateway downloads the image (HTTPS), its size and checksum. */
        url: Type.String({ minLength: 1, maxLength: 1024 }),
        size: Type.Optional(Type.Integer({ minimum: 0 })),
        sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ accepted: Type.Literal(true) }, { additionalProperties: false }),
    purpose: 'firmware',
    timeoutMs: 30_000,
  },
  /**
   * Starts an emergency test on emergency lights: a function test (15-254 s) or a life (duration) test
   * (5-600 min, sent in seconds). Progress and results arrive as `emergency` events. A life test needs a full
   * battery unless `allowWhileCharging`; a light that cannot start is listed in `refused` with its state
   * (29: charging, 30: not answering, 18/19: already testing). `batteryCells` and `lightType`, when given,
   * are the lights' settings from the cloud and stay with the lights.
   */
  'emergency.start': {
    params: Type.Object(
      {
        addrs: Type.Array(DeviceAddrSchema, { minItems: 1, maxItems: 256 }),
        test: EmergencyTestSchema,
        durationS: Type.Integer({ minimum: 15, maximum: 36_000 }),
        allowWhileCharging: Type.Optional(Type.Boolean()),
        batteryCells: Type.Optional(BatteryCellsSchema),
        lightType: Type.Optional(EmergencyLightTypeSchema),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        started: Type.Array(DeviceAddrSchema),
        refused: Type.Array(
          Type.Object({ addr: DeviceAddrSchema, state: Type.Integer({ minimum: 0, maximum: 99 }) }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
    purpose: 'set',
    timeoutMs: 15_000,
  },
  /** Stops running emergency tests (result "manually stopped"). */
  'emergency.stop': {
    params: Type.Object({ addrs: Type.Array(DeviceAddrSchema, { minItems: 1, maxItems: 256 }) }, { additionalProperties: false }),
    result: Type.Object({ stopped: Type.Array(DeviceAddrSchema) }, { additionalProperties: false }),
    purpose: 'set',
    timeoutMs: 15_000,
  },
  /**
   * Reads emergency lights now: state code, battery charge and voltage, the running test and its progress,
   * how long a full battery lasts now (`ratedDurationMin`) and what the last test found wrong. A light that
   * does not answer is listed with state 30 and what the gateway last knew of it.
   */
  'emergency.status': {
    params: Type.Object({ addrs: Type.Array(DeviceAddrSchema, { minItems: 1, maxItems: 256 }) }, { additionalProperties: false }),
    result: Type.Object(
      {
        lights: Type.Array(
          Type.Object(
            {
              addr: DeviceAddrSchema,
              state: Type.Integer({ minimum: 0, maximum: 99 }),
              /** Charge, percent; 100 only when full. */
              battery: Type.Integer({ minimum: 0, maximum: 100 }),
              test: Type.Optional(EmergencyTestSchema),
              progress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
              batteryVoltage: BatteryVoltageSchema,
              ratedDurationMin: Type.Integer({ minimum: 0, maximum: 900 }),
              failures: Type.Array(EmergencyFailureSchema, { maxItems: 4 }),
              batteryCells: Type.Optional(BatteryCellsSchema),
              lightType: Type.Optional(EmergencyLightTypeSchema),
            },
            { additionalProperties: false },
          ),
          { maxItems: 256 },
        ),
      },
      { additionalProperties: false },
    ),
    purpose: 'read',
    timeoutMs: 15_000,
  },
  /** Bridges under a super gateway, with their device counts (super_gateway_devices). */
  'bridges.list': {
    params: Empty,
    result: Type.Object({ bridges: Type.Array(BridgeSchema, { maxItems: 1024 }) }, { additionalProperties: false }),
    purpose: 'read',
    timeoutMs: 15_000,
  },
  /**
   * Puts every sensor of the gateway into a sensor mode (sensor_self_oper: `independent`, sensors act on their
   * own; sensor_sync_model: `linkage`, sensors drive the linkage of the configuration the gateway runs). The
   * reply says how many sensors took it; the gateway keeps the mode as its `sensorMode` parameter.
   */
  'sensors.mode': {
    params: Type.Object({ mode: SensorModeSchema }, { additionalProperties: false }),
    result: Type.Object({ mode: SensorModeSchema, count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    purpose: 'set',
    timeoutMs: 15_000,
  },
  /** Writes parameters to every microwave motion sensor of the gateway (set_mawa_params); the reply has the values now in force. */
  'sensors.microwave': {
    params: Type.Object({ params: MicrowaveParamsSchema }, { additionalProperties: false }),
    result: Type.Object({ count: Type.Integer({ minimum: 0 }), params: MicrowaveParamsSchema }, { additionalProperties: false }),
    purpose: 'set',
    timeoutMs: 15_000,
  },
  /**
   * Runs a scene of the configuration now (a manual run). The reply comes once every step without a delay
   * went out: `targets` devices and groups addressed, `failed` of them unreachable. The run is also reported
   * as a `scene` event with trigger `manual`, like the runs the gateway starts itself.
   */
  'scene.run': {
    params: Type.Object({ scene: Type.Integer({ minimum: 1, maximum: 65535 }) }, { additionalProperties: false }),
    result: Type.Object({ targets: Type.Integer({ minimum: 0 }), failed: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    purpose: 'control',
    timeoutMs: 15_000,
  },
  /**
   * Hands devices in manual override back to their sensors and schedules (execute_auto). The reply lists the
   * devices that were overridden and no longer are.
   */
  'devices.auto': {
    params: Type.Object({ addrs: Type.Array(DeviceAddrSchema, { minItems: 1, maxItems: 4096 }) }, { additionalProperties: false }),
    result: Type.Object({ released: Type.Array(DeviceAddrSchema) }, { additionalProperties: false }),
    purpose: 'control',
    timeoutMs: 15_000,
  },
  /** Replaces the gateway's configuration; the reply acknowledges the version now running (gateway sync). */
  'config.apply': {
    params: Type.Object({ version: Type.Integer({ minimum: 1 }), config: GatewayConfigSchema }, { additionalProperties: false }),
    result: Type.Object({ version: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    purpose: 'config',
    timeoutMs: 60_000,
  },
} as const satisfies Record<
  string,
  { params: TSchema; result: TSchema; purpose: CommandPurpose; timeoutMs: number; radio?: 'unicast' | 'group' }
>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];
export type CommandParams<N extends CommandName> = Static<(typeof COMMANDS)[N]['params']>;
export type CommandResult<N extends CommandName> = Static<(typeof COMMANDS)[N]['result']>;

/** Which down topic a command travels on. */
export function commandChannel(name: CommandName): 'cmd' | 'config' {
  return name === 'config.apply' ? 'config' : 'cmd';
}

/** Command ids: 1-64 characters of letters, digits, '-' and '_' (the cloud sends UUIDs). */
export const CommandIdSchema = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });

/** The message of one command on down/cmd or down/config. */
export function commandMessageSchema<N extends CommandName>(name: N) {
  return Type.Object(
    {
      id: CommandIdSchema,
      name: Type.Literal(name),
      params: COMMANDS[name].params,
      /** When the cloud sent it (epoch ms, cloud clock). */
      ts: EpochMs,
      /** The gateway must not execute it after this instant (cloud clock); it replies `expired` instead. */
      expiresAt: Type.Optional(EpochMs),
    },
    { additionalProperties: false },
  );
}

/** Any command message. */
export const CommandMessageSchema = Type.Union((Object.keys(COMMANDS) as CommandName[]).map((name) => commandMessageSchema(name)));

/** A command as sent: its name ties the params to their schema. */
export type CommandMessage = {
  [N in CommandName]: { id: string; name: N; params: CommandParams<N>; ts: number; expiresAt?: number };
}[CommandName];

/** Why a gateway refused or could not carry out a command. */
export const REPLY_ERROR_CODES = ['bad_request', 'unknown_command', 'unsupported', 'not_found', 'busy', 'expired', 'failed'] as const;
export type ReplyErrorCode = (typeof REPLY_ERROR_CODES)[number];

/** A reply on up/reply. `ok: true` carries the command's result, `ok: false` an error. */
export const ReplyMessageSchema = Type.Union([
  Type.Object(
    { id: CommandIdSchema, ok: Type.Literal(true), result: Type.Object({}), ts: Type.Optional(EpochMs) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      id: CommandIdSchema,
      ok: Type.Literal(false),
      error: Type.Object(
        { code: Type.Enum(REPLY_ERROR_CODES), message: Type.Optional(Type.String({ maxLength: 512 })) },
        { additionalProperties: false },
      ),
      ts: Type.Optional(EpochMs),
    },
    { additionalProperties: false },
  ),
]);
export type ReplyMessage = Static<typeof ReplyMessageSchema>;
