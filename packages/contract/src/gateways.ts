import { Type, type Static } from 'typebox';
import {
  FIRMWARE_RESULT,
  FIRMWARE_TARGETS,
  MAC_INPUT_PATTERN,
  SensorModeSchema,
  type DeviceKind,
  type FirmwareTarget,
} from '@lumigrid/protocol';
/** The MAC forms the API accepts, and the firmware results it reports (1 success, 2 failure, 3 time-out), from the protocol. */
export { FIRMWARE_RESULT, MAC_INPUT_PATTERN };
/** A gateway's QR code (docs/protocol.md section 8): what the bind screens read a MAC from. */
export { parseGatewayQr, type GatewayQr } from '@lumigrid/protocol';
import { IdSchema, PAGE_SIZE, Nullable, PlanCoordinateSchema, PageOf, PageNumberSchema } from './common.ts';

/**
 * Gateways (spec sections 3, 4 and 7 "Gateways", "Configuration and real-time"): binding by MAC, the gateway
 * fields, commands (identify, restart, clock), device import, configuration sync, firmware updates and the
 * bridges of super gateways. All paths are under /api4/gateway/v1/ (docs/api.md "Gateways").
 */
export const GATEWAY_LIMITS = {
  /** Gateway names: 1-50 characters (the spec gives none; the same as maps, docs/decisions.md). */
  name: { min: 1, max: 50 },
  longitude: { min: -180, max: 180 },
  latitude: { min: -90, max: 90 },
  /** Seconds between periodic device state reports (spec section 5: 10-900). */
  reportIntervalS: { min: 10, max: 900 },
  /** Zigbee channel on 2.4 GHz. */
  channel: { min: 11, max: 26 },
  largeGroupNumber: { min: 0, max: 65535 },
  timezone: { max: 64 },
  /** Sync progress bar: one percent every 100 ms, capped at 99 until the gateway acknowledges (spec section 9). */
  syncProgress: { stepPercent: 1, stepMs: 100, cap: 99 },
  /** A firmware update takes about 10-20 minutes; the gateway reconnects 1-2 minutes after a failure (spec section 9). */
  firmwareUpdateMinutes: { min: 10, max: 20 },
  pageSize: PAGE_SIZE,
} as const;

/**
 * Configuration sync status of a gateway (spec section 4): 2 syncing, 3 finished, anything else abnormal.
 * 1 means the cloud's configuration changed since the gateway last acknowledged one ("not synchronized");
 * 4 means the last sync failed or timed out.
 */
export const SYNC_STATUS = { notSynced: 1, syncing: 2, synced: 3, failed: 4 } as const;
export type SyncStatus = (typeof SYNC_STATUS)[keyof typeof SYNC_STATUS];

/** Firmware parts a gateway can update: its own firmware and the version fields of spec section 3 (the protocol's list). */
export const GATEWAY_FIRMWARE_TARGETS = FIRMWARE_TARGETS;
export type GatewayFirmwareTarget = FirmwareTarget;

/** What the gateway is doing, for the list and detail screens (spec section 4: updating, restarting). */
export const GATEWAY_ACTIVITY = ['idle', 'restarting', 'updating'] as const;

/**
 * Numeric device type codes per device kind the gateway protocol names: the type an imported device gets
 * (spec section 3 leaves the code values open, docs/decisions.md).
 */
export const DEVICE_TYPE_CODES = {
  'light-single': 1,
  'light-cct': 2,
  'light-rgb': 3,
  'light-dimmer': 4,
  curtain: 10,
  'switch-1': 20,
  'switch-2': 21,
  'switch-3': 22,
  'switch-4': 23,
  'sensor-motion': 30,
  'sensor-daylight': 31,
  'sensor-temperature': 32,
  'sensor-cct': 33,
  'panel-scene6': 40,
  'panel-smart': 41,
  bridge: 50,
  'bridge-wisun': 51,
  emergency: 60,
  'emergency-dimmable': 61,
  'super-gateway': 70,
  'bridge-dali': 52,
  dali: 5,
} as const satisfies Record<DeviceKind, number>;
/** A device kind as the gateway protocol names it. */
export type DeviceKindName = DeviceKind;

/** A gateway MAC as typed: twelve hex digits, with or without ':' or '-' between pairs; answers use the bare upper-case form. */
export const MacSchema = Type.String({
  pattern: MAC_INPUT_PATTERN,
  description: 'Gateway MAC: 12 hex digits, optionally separated by ":" or "-" (AA:BB:CC:DD:EE:FF)',
});
const Name = Type.String({
  minLength: GATEWAY_LIMITS.name.min,
  maxLength: GATEWAY_LIMITS.name.max,
  description: '1-50 characters; leading and trailing spaces are dropped',
});
const Longitude = Type.Number({
  minimum: GATEWAY_LIMITS.longitude.min,
  maximum: GATEWAY_LIMITS.longitude.max,
  description: '-180 to 180, at most two decimals',
});
const Latitude = Type.Number({
  minimum: GATEWAY_LIMITS.latitude.min,
  maximum: GATEWAY_LIMITS.latitude.max,
  description: '-90 to 90, at most two decimals',
});
const DateTime = Type.String({ format: 'date-time' });

/** Firmware versions of spec section 3; an empty string when the gateway has not said (never connected). */
export const GatewayVersionsViewSchema = Type.Object({
  gateway: Type.String({ description: 'Gateway firmware' }),
  zigbee: Type.String({ description: 'ZigBee radio' }),
  zigbee2: Type.String({ description: 'Second ZigBee radio' }),
  zigbee3: Type.String({ description: 'Third ZigBee radio' }),
  wisun: Type.String({ description: 'Wi-SUN radio' }),
  plc: Type.String({ description: 'Power-line carrier module' }),
});
export type GatewayVersionsView = Static<typeof GatewayVersionsViewSchema>;

/** The settable parameters the cloud keeps for a gateway (set_params); null where never set. */
export const GatewaySettingsSchema = Type.Object({
  timezone: Nullable(Type.String(), 'IANA time zone the gateway runs its schedules in, or null'),
  reportIntervalS: Nullable(Type.Integer(), 'Seconds between periodic state reports (10-900), or null for the gateway default'),
  sensorMode: Nullable(SensorModeSchema, 'Sensor mode (spec section 4), or null for independent'),
});
export type GatewaySettings = Static<typeof GatewaySettingsSchema>;

/**
 * Whether a gateway is connected. `unknown` while the server has lost its MQTT broker (and, once the broker is
 * back, until the gateway's state is heard again): the server cannot tell, so it claims neither.
 */
export const GatewayPresenceSchema = Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('unknown')], {
  description: 'online; offline; unknown: the server cannot reach its MQTT broker, so it cannot tell',
});
export type GatewayPresence = Static<typeof GatewayPresenceSchema>;

/** A gateway bound to the caller's account (spec section 3 fields plus place, presence and sync). */
export const GatewaySchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  mac: Type.String({ description: 'Twelve upper-case hex digits' }),
  ip: Type.String({ description: 'Last reported IP address; empty before the first connection' }),
  networkAddress: Type.String({ description: 'Zigbee coordinator network address (hex)' }),
  panId: Type.String({ description: 'Zigbee PAN ID (hex)' }),
  channel: Nullable(Type.Integer(), 'Zigbee radio channel, or null before the first connection'),
  versions: GatewayVersionsViewSchema,
  largeGroupNumber: Nullable(Type.Integer(), 'The large (broadcast) group number, or null before the first connection'),
  model: Type.String({ description: 'Hardware model the gateway reports; may be empty' }),
  superGateway: Type.Boolean({ description: 'A super gateway holds bridges, and devices behind them' }),
  bridgeQuantity: Type.Integer({ description: 'Bridges imported under this super gateway (0 for a plain gateway)' }),
  deviceCount: Type.Integer({ description: 'Devices imported from this gateway (bridges included)' }),
  online: Type.Boolean({ description: 'Connected now (false while offline and while unknown)' }),
  presence: GatewayPresenceSchema,
  lastSeenAt: Nullable(DateTime, 'When the cloud last heard from the gateway (a report, or its connecting or leaving), or null if never'),
  activity: Type.Union([Type.Literal('idle'), Type.Literal('restarting'), Type.Literal('updating')], {
    description: 'idle; restarting (a restart was sent and it is not back yet); updating (a firmware update runs)',
  }),
  longitude: Nullable(Type.Number(), 'Longitude, or null'),
  latitude: Nullable(Type.Number(), 'Latitude, or null'),
  x: Nullable(PlanCoordinateSchema, "Position on its map's floor plan, or null while not placed there"),
  y: Nullable(PlanCoordinateSchema, "Position on its map's floor plan, or null while not placed there"),
  settings: GatewaySettingsSchema,
  projectId: IdSchema,
  projectName: Type.String(),
  buildId: IdSchema,
  buildName: Type.String(),
  mapId: IdSchema,
  mapName: Type.String(),
  syncStatus: Type.Integer({ description: 'Configuration sync: 1 not synced, 2 syncing, 3 synced, 4 failed (SYNC_STATUS)' }),
  configVersion: Type.Integer({ description: "Version of the cloud's configuration for this gateway; raised by every change" }),
  syncedVersion: Type.Integer({ description: 'Version the gateway last acknowledged; 0 before its first sync' }),
  createdAt: DateTime,
});
export type Gateway = Static<typeof GatewaySchema>;

/** A device imported from a gateway, as the gateway screens list it. */
export const GatewayDeviceSchema = Type.Object({
  id: IdSchema,
  gatewayId: IdSchema,
  bridgeId: Nullable(IdSchema, 'The bridge device it sits behind, or null when on the gateway radio'),
  mapId: Nullable(IdSchema, 'The map it is placed on, or null while it is outside any map ("outmap")'),
  addr: Type.String({ description: 'Device address on the gateway network (hex)' }),
  networkAddress: Type.String({ description: 'Zigbee short address (hex)' }),
  kind: Type.String({ description: 'Device kind the gateway reported (light-cct, sensor-motion, bridge, ...)' }),
  type: Type.Integer({ description: 'Device type code (DEVICE_TYPE_CODES)' }),
  name: Type.String(),
  model: Type.String(),
  firmware: Type.String(),
  status: Type.String({ description: 'The colon-separated status string of spec section 3; empty until the first report' }),
  typeStatus: Type.Integer({ description: '0 normal, 2 offline' }),
  createdAt: DateTime,
});
export type GatewayDevice = Static<typeof GatewayDeviceSchema>;

/** {id} in a path: a gateway id. */
export const GatewayIdParamsSchema = Type.Object({ id: IdSchema });
export type GatewayIdParams = Static<typeof GatewayIdParamsSchema>;

/** GET gateway/v1/gateways: the caller's gateways, optionally within a project, building or map, searched by name or MAC. */
export const GatewayListQuerySchema = Type.Object({
  projectId: Type.Optional(IdSchema),
  buildId: Type.Optional(IdSchema),
  mapId: Type.Optional(IdSchema),
  name: Type.Optional(Type.String({ maxLength: GATEWAY_LIMITS.name.max, description: 'Part of the name or MAC' })),
  online: Type.Optional(Type.Boolean({ description: 'Only online (true) or offline (false) gateways' })),
  page: PageNumberSchema,
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: GATEWAY_LIMITS.pageSize.max, default: GATEWAY_LIMITS.pageSize.default })),
});
export type GatewayListQuery = Static<typeof GatewayListQuerySchema>;

export const GatewayPageSchema = PageOf(GatewaySchema);
export type GatewayPage = Static<typeof GatewayPageSchema>;

/** POST gateway/v1/search_device_for_mac: what binding this MAC would do. */
export const GatewayMacBodySchema = Type.Object({ mac: MacSchema });
export type GatewayMacBody = Static<typeof GatewayMacBodySchema>;

/**
 * The answer of search_device_for_mac. `pool`: provisioned and bound to nobody, so it can be bound;
 * `yours`: already bound to this account (`gateway` set); `unavailable`: never provisioned, or bound to
 * another account (binding answers 100110) — one state for both, so a MAC tells nothing of other accounts.
 */
export const GatewayLookupSchema = Type.Object({
  mac: Type.String(),
  state: Type.Union([Type.Literal('pool'), Type.Literal('yours'), Type.Literal('unavailable')]),
  online: Type.Boolean({ description: 'Whether the gateway is connected now (false when unavailable)' }),
  superGateway: Type.Boolean({ description: 'Whether it reported itself as a super gateway (false when unavailable)' }),
  gateway: Nullable(GatewaySchema, 'The gateway when it is already yours'),
});
export type GatewayLookup = Static<typeof GatewayLookupSchema>;

/** POST gateway/v1/move: binds a gateway from the pool to a map of the caller's account by its MAC. */
export const GatewayBindBodySchema = Type.Object({
  mac: MacSchema,
  mapId: IdSchema,
  name: Type.Optional(Name),
});
export type GatewayBindBody = Static<typeof GatewayBindBodySchema>;

/** POST gateway/v1/update_name */
export const GatewayRenameBodySchema = Type.Object({ id: IdSchema, name: Name });
export type GatewayRenameBody = Static<typeof GatewayRenameBodySchema>;

/** POST gateway/v1/change_place: moves a bound gateway (and its devices' map) to another map of the account. */
export const GatewayPlaceBodySchema = Type.Object({ id: IdSchema, mapId: IdSchema });
export type GatewayPlaceBody = Static<typeof GatewayPlaceBodySchema>;

/** PUT gateway/v1/position: where the gateway is drawn on its map's floor plan. */
export const GatewayPositionBodySchema = Type.Object({ id: IdSchema, x: PlanCoordinateSchema, y: PlanCoordinateSchema });
export type GatewayPositionBody = Static<typeof GatewayPositionBodySchema>;

/** POST gateway/v1/set_params: sends the parameters to the gateway; they are stored when it confirms. */
export const GatewayParamsBodySchema = Type.Object({
  id: IdSchema,
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: GATEWAY_LIMITS.timezone.max, description: 'IANA time zone, e.g. Europe/Berlin' }),
  ),
  reportIntervalS: Type.Optional(
    Type.Integer({
      minimum: GATEWAY_LIMITS.reportIntervalS.min,
      maximum: GATEWAY_LIMITS.reportIntervalS.max,
      description: 'Seconds between state reports, 10-900',
    }),
  ),
  channel: Type.Optional(
    Type.Integer({ minimum: GATEWAY_LIMITS.channel.min, maximum: GATEWAY_LIMITS.channel.max, description: 'Zigbee channel 11-26' }),
  ),
  largeGroupNumber: Type.Optional(
    Type.Integer({ minimum: GATEWAY_LIMITS.largeGroupNumber.min, maximum: GATEWAY_LIMITS.largeGroupNumber.max }),
  ),
  sensorMode: Type.Optional({ ...SensorModeSchema, description: 'Sensor mode: independent or default linkage' }),
});
export type GatewayParamsBody = Static<typeof GatewayParamsBodySchema>;

/** POST gateway/v1/set_lon_lat: the position used for sunrise and sunset; sent to the gateway as well. */
export const GatewayLonLatBodySchema = Type.Object({ id: IdSchema, longitude: Longitude, latitude: Latitude });
export type GatewayLonLatBody = Static<typeof GatewayLonLatBodySchema>;

/** read_gateway_time and sync_gateway_systemtime: the gateway's clock against the cloud's. */
export const GatewayTimeSchema = Type.Object({
  gatewayTime: DateTime,
  cloudTime: DateTime,
  /** Gateway clock minus cloud clock, in milliseconds (positive: the gateway is ahead). */
  driftMs: Type.Integer(),
  timezone: Nullable(Type.String(), 'The time zone the gateway reports, or null'),
});
export type GatewayTime = Static<typeof GatewayTimeSchema>;

/** A device that joined the gateway, as check/import lists it. */
export const JoinedDeviceViewSchema = Type.Object({
  addr: Type.String(),
  kind: Type.String(),
  type: Type.Integer({ description: 'Device type code it will get' }),
  networkAddress: Type.String(),
  model: Type.String(),
  firmware: Type.String(),
  bridge: Nullable(Type.String(), 'Address of the bridge it sits behind, or null'),
  imported: Type.Boolean({ description: 'Already imported into the cloud' }),
});
export type JoinedDeviceView = Static<typeof JoinedDeviceViewSchema>;

/** GET gateway/v1/check/import/{id} */
export const ImportCheckSchema = Type.Object({
  total: Type.Integer({ description: 'Devices the gateway reports' }),
  fresh: Type.Integer({ description: 'Devices not imported yet' }),
  list: Type.Array(JoinedDeviceViewSchema),
});
export type ImportCheck = Static<typeof ImportCheckSchema>;

/** GET gateway/v1/import/{id}: the new devices are outside any map until placed (devices/outmap). */
export const ImportResultSchema = Type.Object({
  imported: Type.Integer({ description: 'Devices added by this import' }),
  total: Type.Integer({ description: 'Devices of the gateway in the cloud after the import' }),
  list: Type.Array(GatewayDeviceSchema, { description: 'The devices added' }),
});
export type ImportResult = Static<typeof ImportResultSchema>;

/** GET gateway/v1/devices/outmap/{mapId}/{gatewayId}: the gateway's devices not placed on any map yet. */
export const OutmapParamsSchema = Type.Object({ mapId: IdSchema, gatewayId: IdSchema });
export type OutmapParams = Static<typeof OutmapParamsSchema>;
export const GatewayDeviceListSchema = Type.Array(GatewayDeviceSchema);
export type GatewayDeviceList = Static<typeof GatewayDeviceListSchema>;

/** GET gateway/v1/re_report/{id}: the gateway was asked to report every device; states follow. */
export const ReReportSchema = Type.Object({ count: Type.Integer({ description: 'Devices the gateway will report' }) });
export type ReReport = Static<typeof ReReportSchema>;

/** An item of GET gateway/v1/sync_status (spec section 3 gateway sync item). */
export const GatewaySyncItemSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  mac: Type.String(),
  projectName: Type.String(),
  buildName: Type.String(),
  mapName: Type.String(),
  status: Type.Integer({ description: '1 not synced, 2 syncing, 4 failed (SYNC_STATUS); synced gateways are not listed' }),
  online: Type.Boolean(),
  configVersion: Type.Integer(),
  syncedVersion: Type.Integer(),
});
export type GatewaySyncItem = Static<typeof GatewaySyncItemSchema>;

/** GET gateway/v1/sync_status: every gateway of the account whose configuration is not synced (the header banner count is its length). */
export const GatewaySyncListSchema = Type.Array(GatewaySyncItemSchema);
export type GatewaySyncList = Static<typeof GatewaySyncListSchema>;

/** GET gateway/v1/sync/{id}: answers when the gateway acknowledged the version (or with 100107 / 100109). */
export const GatewaySyncResultSchema = Type.Object({
  id: IdSchema,
  status: Type.Integer({ description: '3 synced' }),
  version: Type.Integer({ description: 'The version the gateway acknowledged' }),
});
export type GatewaySyncResult = Static<typeof GatewaySyncResultSchema>;

/** {a}/{b} of check_gateway_version and post_gateway_update: the gateway and the firmware part. */
export const FirmwareParamsSchema = Type.Object({
  id: IdSchema,
  target: Type.Union(
    [
      Type.Literal('gateway'),
      Type.Literal('zigbee'),
      Type.Literal('zigbee2'),
      Type.Literal('zigbee3'),
      Type.Literal('wisun'),
      Type.Literal('plc'),
    ],
    { description: 'Firmware part: gateway, zigbee, zigbee2, zigbee3, wisun or plc' },
  ),
});
export type FirmwareParams = Static<typeof FirmwareParamsSchema>;

/** GET gateway/v1/check_gateway_version/{id}/{target}: available when a newer file than the running version exists. */
export const FirmwareCheckSchema = Type.Object({
  target: Type.String(),
  current: Type.String({ description: 'Version the gateway runs; empty when unknown' }),
  latest: Type.String({ description: 'Newest version the cloud holds a file for' }),
  state: Type.Union([Type.Literal('available'), Type.Literal('latest')], {
    description: 'available: an update can be started; latest: nothing newer',
  }),
});
export type FirmwareCheck = Static<typeof FirmwareCheckSchema>;

/**
 * post_gateway_update and gateway_upgrade_progress: where the update is. `result` follows spec section 4
 * (1 success, 2 failure, 3 timeout) and is null while it runs; the same result arrives as a real-time notice
 * of type 1 on /topic/global_message_notice/{userId}.
 */
export const FirmwareProgressViewSchema = Type.Object({
  state: Type.Union([
    Type.Literal('idle'),
    Type.Literal('updating'),
    Type.Literal('success'),
    Type.Literal('failed'),
    Type.Literal('timeout'),
  ]),
  target: Nullable(Type.String(), 'The part being updated, or null when no update was started'),
  version: Nullable(Type.String(), 'The version being installed, or null'),
  stage: Nullable(Type.String(), 'requested, downloading, verifying, installing, rebooting, done or failed; null when idle'),
  progress: Type.Integer({ minimum: 0, maximum: 100, description: 'Percent' }),
  result: Nullable(Type.Integer(), '1 success, 2 failure, 3 timeout; null while running or idle'),
  startedAt: Nullable(DateTime, 'When the update was accepted, or null'),
});
export type FirmwareProgressView = Static<typeof FirmwareProgressViewSchema>;

/** {a}/{b} of super_gateway_devices and delete_bridge: the super gateway and a bridge (0 for "all bridges"). */
export const BridgeParamsSchema = Type.Object({
  id: IdSchema,
  bridgeId: { ...IdSchema, description: 'A bridge device id, or 0' },
});
export type BridgeParams = Static<typeof BridgeParamsSchema>;

/** A bridge under a super gateway (spec section 3: name, bridge quantity). */
export const BridgeViewSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  addr: Type.String(),
  kind: Type.String({ description: 'bridge, bridge-wisun or bridge-dali' }),
  type: Type.Integer({ description: 'Device type code (DEVICE_TYPE_CODES), as every other device answers it' }),
  typeStatus: Type.Integer({ description: '0 normal, 2 offline' }),
  deviceCount: Type.Integer({ description: 'Devices behind this bridge' }),
  mapId: Nullable(IdSchema, 'The map the bridge is placed on, or null'),
});
export type BridgeView = Static<typeof BridgeViewSchema>;

/** GET gateway/v1/super_gateway_devices/{id}/{bridgeId}: bridges (bridgeId 0), or the devices behind one bridge. */
export const SuperGatewayDevicesSchema = Type.Object({
  name: Type.String({ description: 'The super gateway name' }),
  bridgeQuantity: Type.Integer(),
  bridges: Type.Array(BridgeViewSchema),
  devices: Type.Array(GatewayDeviceSchema, { description: 'Devices behind the bridge asked for; empty for bridgeId 0' }),
});
export type SuperGatewayDevices = Static<typeof SuperGatewayDevicesSchema>;

/** GET gateway/v1/broadcast: opens the gateway's networks for joining (a Zigbee permit-join broadcast). */
export const GatewayBroadcastQuerySchema = Type.Object({
  id: IdSchema,
  durationS: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 254, description: 'Seconds the networks stay open, 0-254 (default 60); 0 closes them' }),
  ),
});
export type GatewayBroadcastQuery = Static<typeof GatewayBroadcastQuerySchema>;

export const GatewayBroadcastSchema = Type.Object({
  id: IdSchema,
  durationS: Type.Integer({ description: 'Seconds the networks stay open' }),
  openUntil: Nullable(DateTime, 'When the networks close again (cloud clock), or null when closed'),
});
export type GatewayBroadcast = Static<typeof GatewayBroadcastSchema>;

/** sensor_self_oper and sensor_sync_model: the sensor mode now in force and how many sensors took it. */
export const GatewaySensorModeSchema = Type.Object({
  id: IdSchema,
  mode: { ...SensorModeSchema, description: 'independent (self-operation) or linkage' },
  count: Type.Integer({ description: 'Sensors of the gateway that took the mode' }),
});
export type GatewaySensorMode = Static<typeof GatewaySensorModeSchema>;

/**
 * POST gateway/v1/set_mawa_params: parameters for every microwave (radar) motion sensor of the gateway. At
 * least one field; ranges are the motion sensor rows of spec section 5 and are checked by the service, so each
 * field gets its own message (PARAM_RANGES: holdTime, motionLux, brightness, minBrightness).
 */
export const GatewayMicrowaveBodySchema = Type.Object({
  id: IdSchema,
  holdTime: Type.Optional(Type.Number({ description: 'Seconds the lights stay up after the last detection, 10-2540 in steps of 10' })),
  lux: Type.Optional(Type.Number({ description: 'Daylight (lux) above which a detection does not switch on, 0-4000' })),
  brightness: Type.Optional(Type.Number({ description: 'Brightness on detection, 0-100 %' })),
  standbyBrightness: Type.Optional(Type.Number({ description: 'Brightness after the hold time, 0-30 % (0 off)' })),
});
export type GatewayMicrowaveBody = Static<typeof GatewayMicrowaveBodySchema>;

export const GatewayMicrowaveResultSchema = Type.Object({
  id: IdSchema,
  count: Type.Integer({ description: 'Microwave sensors that took the parameters' }),
  holdTime: Nullable(Type.Integer(), 'Hold time now in force, seconds'),
  lux: Nullable(Type.Integer(), 'Daylight threshold now in force, lux'),
  brightness: Nullable(Type.Integer(), 'Brightness on detection now in force, %'),
  standbyBrightness: Nullable(Type.Integer(), 'Standby brightness now in force, %'),
});
export type GatewayMicrowaveResult = Static<typeof GatewayMicrowaveResultSchema>;
