import { FAULT_CODE_MAX } from '@lumigrid/protocol';
import { Type, type Static } from 'typebox';
import { IdSchema, PAGE_SIZE, Nullable, PlanCoordinateSchema, PageOf } from './common.ts';
import { DeviceParamsSchema } from './device-params.ts';
import { DISPLAY_STATES, type DisplayState } from './device-status.ts';
import { deviceType } from './device-types.ts';
import { CCT_MAX_K, CCT_MIN_K } from './device-units.ts';
import type { ErrorCode } from './errors.ts';
import { nameLengthProblem } from './validation.ts';
import type { Destination } from './realtime.ts';

export { FAULT_CODES, type FaultName } from '@lumigrid/protocol';

/**
 * Devices, groups (zones) and the device library (spec sections 3, 5 and 7 "Devices", "Zones and groups",
 * "Device types"). Paths are under /api4/device/v1/, /api4/zone/v1/ and /api4/type/v1/.
 */
export const DEVICE_LIMITS = {
  /** Device names: 1-25 characters, each channel's name for a switch (spec section 5). */
  name: { min: 1, max: 25 },
  /** Group names: 1-21 characters (spec section 5). */
  groupName: { min: 1, max: 21 },
  /** Devices one call may name (move, delete, batch change). */
  batch: { max: 5000 },
  pageSize: PAGE_SIZE,
} as const;

/** Joins the channel names of a multi-channel switch into its one device name (spec section 3). */
export const CHANNEL_NAME_DELIMITER = '|';

/** The names of a device's channels from its stored name; a single-channel device has one. */
export function splitChannelNames(name: string): string[] {
  return name.split(CHANNEL_NAME_DELIMITER);
}

export function joinChannelNames(names: readonly string[]): string {
  return names.join(CHANNEL_NAME_DELIMITER);
}

/**
 * The problem with a device name for a device of the given type, or undefined. A switch with N channels
 * names each channel (N names joined by the delimiter, each 1-25 characters); other devices have one name.
 */
export function deviceNameProblem(typeCode: number, name: string): ErrorCode | undefined {
  const channels = Math.max(1, deviceType(typeCode)?.channels ?? 1);
  const parts = splitChannelNames(name);
  if (parts.length !== channels) return 100001;
  for (const part of parts) {
    const problem = nameLengthProblem(part, DEVICE_LIMITS.name);
    if (problem) return problem;
  }
  return undefined;
}

const DateTime = Type.String({ format: 'date-time' });
const Ids = Type.Array(IdSchema, { minItems: 1, maxItems: DEVICE_LIMITS.batch.max, description: 'Device ids' });
const Page = Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, description: 'Page number, from 1' }));
const PageSize = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: DEVICE_LIMITS.pageSize.max,
    default: DEVICE_LIMITS.pageSize.default,
    description: 'Rows per page, 1-200',
  }),
);
const TypeCode = Type.Integer({ minimum: 0, maximum: 65535, description: 'Device type code (DEVICE_TYPES)' });
/** A position on the floor plan as a fraction of its width and height, so it survives a new picture size. */

// Spelled out: a mapped array loses the literal types, and Static<> of it would be never.
export const DisplayStateSchema = Type.Union(
  [
    Type.Literal('onFull'),
    Type.Literal('onPartial'),
    Type.Literal('off'),
    Type.Literal('working'),
    Type.Literal('offline'),
    Type.Literal('failure'),
  ],
  { description: 'onFull, onPartial, off, working (a device that switches no load), offline or failure (spec section 4)' },
);
DISPLAY_STATES satisfies readonly Static<typeof DisplayStateSchema>[];

export const DeviceNameSchema = Type.String({
  minLength: DEVICE_LIMITS.name.min,
  maxLength: 4 * DEVICE_LIMITS.name.max + 3,
  description: '1-25 characters; a switch names each channel, joined by "|" (deviceNameProblem)',
});
const GroupName = Type.String({
  minLength: DEVICE_LIMITS.groupName.min,
  maxLength: DEVICE_LIMITS.groupName.max,
  description: '1-21 characters',
});

/** A device (spec section 3) with the labels the list and detail screens show. */
export const DeviceSchema = Type.Object({
  id: IdSchema,
  gatewayId: IdSchema,
  gatewayName: Type.String({ description: 'Name of its gateway' }),
  bridgeId: Nullable(IdSchema, 'The bridge it sits behind, or null when on the gateway radio'),
  mapId: Nullable(IdSchema, 'The map it is placed on, or null while outside any map ("outmap")'),
  buildId: Nullable(IdSchema, 'The building of its map, or null'),
  mapName: Nullable(Type.String(), 'Name of its map, or null while outmap'),
  name: Type.String({ description: 'Channel names of a switch are joined by "|"' }),
  type: TypeCode,
  addr: Type.String({ description: 'MAC (IEEE address) on the gateway network, hex' }),
  networkAddress: Type.String({ description: 'Zigbee short address, hex' }),
  model: Type.String({ description: 'Part number' }),
  firmware: Type.String(),
  status: Type.String({ description: 'The colon-separated status string of spec section 3 (parseStatus)' }),
  typeStatus: Type.Integer({ description: '0 normal, 2 offline' }),
  fault: Type.Integer({ minimum: 0, maximum: FAULT_CODE_MAX, description: 'Fault code of spec section 4, 0 normal' }),
  display: DisplayStateSchema,
  x: Nullable(PlanCoordinateSchema, 'Position on the map, or null while not placed'),
  y: Nullable(PlanCoordinateSchema, 'Position on the map, or null while not placed'),
  groupIds: Type.Array(IdSchema, { description: 'Groups it belongs to' }),
  groupNames: Type.Array(Type.String(), { description: 'Names of those groups, in the same order (filled by the device list)' }),
  illumination: Nullable(Type.Number(), 'Lux last reported, or null'),
  manual: Type.Boolean({ description: 'Switched by hand: sensors and schedules leave it alone until execute_auto' }),
  voltage: Nullable(Type.Number(), 'Volts last reported, or null'),
  current: Nullable(Type.Number(), 'Amperes last reported, or null'),
  power: Nullable(Type.Number(), 'Watts last reported, or null'),
  energyWh: Nullable(Type.Number(), 'Energy counter last reported (up/telemetry), watt-hours, or null'),
  battery: Nullable(Type.Number(), 'Battery charge last reported, percent, or null'),
  temperature: Nullable(Type.Number(), 'Temperature last reported, degrees Celsius, or null'),
  telemetryAt: Nullable(DateTime, 'When the server received the last telemetry sample (its age counts from here), or null'),
  usedHours: Nullable(Type.Number(), 'Hours switched on (burning hours, from its energy readings), or null'),
  libraryTypeName: Nullable(Type.String(), 'The device library type its part number matches, or null'),
  remainingLifeHours: Nullable(Type.Number(), "The library type's lifespan less the burning hours, or null (remainingLife)"),
  lastUpdate: Nullable(DateTime, 'When the gateway last reported its state, or null'),
  createdAt: DateTime,
});
export type Device = Static<typeof DeviceSchema>;

export const DevicePageSchema = PageOf(DeviceSchema);
export type DevicePage = Static<typeof DevicePageSchema>;

/** The filters of the device list and status view (/device/list) and of its report, all optional. */
const deviceFilters = {
  projectId: Type.Optional(IdSchema),
  buildId: Type.Optional(IdSchema),
  mapId: Type.Optional(IdSchema),
  gatewayId: Type.Optional(IdSchema),
  groupId: Type.Optional(IdSchema),
  type: Type.Optional(TypeCode),
  display: Type.Optional(DisplayStateSchema),
  fault: Type.Optional(Type.Integer({ minimum: 1, maximum: FAULT_CODE_MAX, description: 'Only devices with this fault code' })),
  name: Type.Optional(Type.String({ maxLength: 50, description: 'Part of the name or MAC' })),
};

/** The device list and status view (/device/list), a page of it. */
export const DeviceListBodySchema = Type.Object({ ...deviceFilters, page: Page, pageSize: PageSize });
export type DeviceListBody = Static<typeof DeviceListBodySchema>;

/** POST status/v1/download_status_report: every device the filters take. */
export const DeviceReportBodySchema = Type.Object(deviceFilters);
export type DeviceReportBody = Static<typeof DeviceReportBodySchema>;

/** GET device/v1/details/{mapId}/{id} */
export const DeviceDetailParamsSchema = Type.Object({ mapId: IdSchema, id: IdSchema });
export type DeviceDetailParams = Static<typeof DeviceDetailParamsSchema>;

/** Devices and where each goes on the map, one batch at most. */
const Placements = Type.Array(Type.Object({ id: IdSchema, x: PlanCoordinateSchema, y: PlanCoordinateSchema }), {
  minItems: 1,
  maxItems: DEVICE_LIMITS.batch.max,
});

/** POST device/v1/move_in: places outmap devices (or devices of another map) on a map. */
export const DeviceMoveInBodySchema = Type.Object({ mapId: IdSchema, devices: Placements });
export type DeviceMoveInBody = Static<typeof DeviceMoveInBodySchema>;

/** POST device/v1/move_out: takes devices off their map; they become outmap. */
export const DeviceMoveOutBodySchema = Type.Object({ ids: Ids });
export type DeviceMoveOutBody = Static<typeof DeviceMoveOutBodySchema>;

/** PUT device/v1/move: new positions of devices already on the map (dragging). */
export const DevicePositionsBodySchema = Type.Object({ mapId: IdSchema, devices: Placements });
export type DevicePositionsBody = Static<typeof DevicePositionsBodySchema>;

/** POST device/v1/try_me: the device identifies itself (blinks). */
export const DeviceIdBodySchema = Type.Object({ id: IdSchema });
export type DeviceIdBody = Static<typeof DeviceIdBodySchema>;

/** Renaming a device; check the name per type with deviceNameProblem. */
export const DeviceRenameBodySchema = Type.Object({ id: IdSchema, name: DeviceNameSchema });
export type DeviceRenameBody = Static<typeof DeviceRenameBodySchema>;

/**
 * POST device/v1/delete: from the map only, or from the gateway as well. When the gateway does not confirm,
 * the answer is 100205 ("device deletion failed, confirm to continue"); sending again with `force` deletes
 * the device in the cloud anyway (del_device_succeed).
 */
export const DeviceDeleteBodySchema = Type.Object({
  ids: Ids,
  fromGateway: Type.Boolean({ description: 'Also remove it from the gateway network' }),
  force: Type.Optional(Type.Boolean({ description: 'Delete in the cloud even when the gateway did not confirm' })),
});
export type DeviceDeleteBody = Static<typeof DeviceDeleteBodySchema>;

/** POST device/v1/batch_alter_devices: changes the type of devices of batch-changeable types (canBatchChange). */
export const DeviceBatchTypeBodySchema = Type.Object({ ids: Ids, type: TypeCode });
export type DeviceBatchTypeBody = Static<typeof DeviceBatchTypeBodySchema>;

/** One control action; which ones a type accepts is `controlProblem`. */
export const ControlActionSchema = Type.Union([
  Type.Object({ op: Type.Literal('onOff'), on: Type.Boolean() }, { additionalProperties: false }),
  Type.Object(
    { op: Type.Literal('brightness'), percent: Type.Integer({ minimum: 0, maximum: 100, description: 'Brightness 0-100 %' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      op: Type.Literal('cct'),
      kelvin: Type.Integer({ minimum: CCT_MIN_K, maximum: CCT_MAX_K, description: 'Colour temperature 2700-6500 K' }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { op: Type.Literal('rgb'), color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { op: Type.Literal('curtain'), command: Type.Union([Type.Literal('open'), Type.Literal('close'), Type.Literal('stop')]) },
    { additionalProperties: false },
  ),
  Type.Object(
    { op: Type.Literal('position'), percent: Type.Integer({ minimum: 0, maximum: 100, description: 'Curtain opening 0-100 %' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      op: Type.Literal('channel'),
      channel: Type.Integer({ minimum: 1, maximum: 4, description: 'Switch channel 1-4' }),
      on: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
]);
export type ControlAction = Static<typeof ControlActionSchema>;

/** 100209 when a device of this type cannot do the action, 100208 for an unknown type, else undefined. */
export function controlProblem(typeCode: number, action: ControlAction): ErrorCode | undefined {
  const t = deviceType(typeCode);
  if (!t) return 100208;
  const can = {
    onOff: t.onOff,
    brightness: t.dimmable,
    cct: t.cct,
    rgb: t.rgb,
    curtain: t.curtain,
    position: t.curtain,
    channel: action.op === 'channel' && t.channels >= action.channel,
  }[action.op];
  return can ? undefined : 100209;
}

/** POST device/v1/control: one device; the answer comes when the gateway confirms (or 100101 / a time-out). */
export const DeviceControlBodySchema = Type.Object({ id: IdSchema, action: ControlActionSchema });
export type DeviceControlBody = Static<typeof DeviceControlBodySchema>;

/** POST device/v1/broad_control: every device of a gateway at once (broadcast). */
export const BroadControlBodySchema = Type.Object({ gatewayId: IdSchema, action: ControlActionSchema });
export type BroadControlBody = Static<typeof BroadControlBodySchema>;

/** POST device/v1/control_sensor_onoff: switches a sensor's sensing on or off. */
export const SensorOnOffBodySchema = Type.Object({ id: IdSchema, on: Type.Boolean() });
export type SensorOnOffBody = Static<typeof SensorOnOffBodySchema>;

/**
 * POST device/v1/set_device_params (and set_motion_params, set_daylight_params, set_stairs_mode): the
 * parameters of paramRules for the device's type, checked by validateParams.
 */
export const DeviceParamsBodySchema = Type.Object({
  id: IdSchema,
  // Unknown values on purpose: which names and types are allowed depends on the device's type, so
  // validateParams checks each one and gives the field its own message.
  params: Type.Record(Type.String({ maxLength: 32 }), Type.Unknown(), {
    maxProperties: 32,
    description: 'Parameters by name (paramRules of the device type): holdTime, lux, sensorMode, stairsMode, fadeTime, lampCounts, ...',
  }),
});
export type DeviceParamsBody = Static<typeof DeviceParamsBodySchema>;

/** The answer of read_params and get_daylight_params: what the device runs now. */
export const DeviceParamsReadSchema = Type.Object({ id: IdSchema, type: TypeCode, params: DeviceParamsSchema });
export type DeviceParamsRead = Static<typeof DeviceParamsReadSchema>;

/** A group (zone) of devices on one gateway, controlled with one radio command. */
export const GroupSchema = Type.Object({
  id: IdSchema,
  gatewayId: IdSchema,
  mapId: IdSchema,
  name: Type.String(),
  number: Type.Integer({ minimum: 1, maximum: 65535, description: 'Group number on the gateway radio' }),
  type: Type.Integer({ description: 'Group type; 1 a single-colour group, 0 any other' }),
  deviceIds: Type.Array(IdSchema),
  /** Members not reporting: the group state is partial while any is offline. */
  offlineCount: Type.Integer({ minimum: 0 }),
  display: DisplayStateSchema,
  createdAt: DateTime,
});
export type Group = Static<typeof GroupSchema>;

/**
 * A group's display state from its members' (spec section 4), so a group with offline members says so:
 * offline only when every member is; otherwise the state of the members that answer, partial when they
 * differ. `offline` and `failure` count the members in those states.
 */
export function groupDisplay(members: readonly DisplayState[]): { display: DisplayState; offline: number; failure: number } {
  const offline = members.filter((m) => m === 'offline').length;
  const failure = members.filter((m) => m === 'failure').length;
  const working = members.filter((m) => m !== 'offline' && m !== 'failure');
  let display: DisplayState;
  if (members.length === 0) display = 'off';
  else if (offline === members.length) display = 'offline';
  else if (working.length === 0) display = 'failure';
  else if (working.every((m) => m === 'off')) display = 'off';
  else if (working.every((m) => m === 'onFull') && offline + failure === 0) display = 'onFull';
  else display = 'onPartial';
  return { display, offline, failure };
}

/** POST zone/v1/add: the devices must pass groupingProblem. */
export const GroupAddBodySchema = Type.Object({
  mapId: IdSchema,
  gatewayId: IdSchema,
  name: GroupName,
  deviceIds: Ids,
});
export type GroupAddBody = Static<typeof GroupAddBodySchema>;

/** POST zone/v1/update: rename and/or replace the members. */
export const GroupUpdateBodySchema = Type.Object({
  id: IdSchema,
  name: Type.Optional(GroupName),
  deviceIds: Type.Optional(Ids),
});
export type GroupUpdateBody = Static<typeof GroupUpdateBodySchema>;

/** Group control: one radio command to the group's number. */
export const GroupControlBodySchema = Type.Object({ id: IdSchema, action: ControlActionSchema });
export type GroupControlBody = Static<typeof GroupControlBodySchema>;

/** POST zone/v1/list/{mapId}: the groups of a map. */
export const GroupListSchema = Type.Array(GroupSchema);
export type GroupList = Static<typeof GroupListSchema>;

/** {id} in a path: a group, map or gateway id, as the zone call names. */
export const GroupIdParamsSchema = Type.Object({ id: IdSchema });
export type GroupIdParams = Static<typeof GroupIdParamsSchema>;

/**
 * A device as the floor plan draws it: only what a marker needs, so a map of thousands stays small. The
 * same shape travels on `/topic/map/{mapId}` when a device's reported state changes.
 */
export const DeviceMarkerSchema = Type.Object({
  id: IdSchema,
  name: Type.String({ description: 'Channel names of a switch are joined by "|"' }),
  type: TypeCode,
  status: Type.String({ description: 'The colon-separated status string of spec section 3; empty before the first report' }),
  display: DisplayStateSchema,
  manual: Type.Boolean({ description: 'Switched by hand: sensors and schedules leave it alone until execute_auto' }),
  x: Nullable(PlanCoordinateSchema, 'Position on the map, or null while not placed'),
  y: Nullable(PlanCoordinateSchema, 'Position on the map, or null while not placed'),
});
export type DeviceMarker = Static<typeof DeviceMarkerSchema>;

export const DeviceMarkerListSchema = Type.Array(DeviceMarkerSchema);
export type DeviceMarkerList = Static<typeof DeviceMarkerListSchema>;

/** GET device/v1/state?mapId=: the markers of one map. */
export const DeviceStateQuerySchema = Type.Object({ mapId: IdSchema });
export type DeviceStateQuery = Static<typeof DeviceStateQuerySchema>;

/** The real-time destination of one map's device changes (one subscription per map, not per device). */
export function mapDestination(mapId: string | bigint): Destination<MapTopicMessage> {
  return `/topic/map/${mapId}`;
}

/**
 * On `/topic/map/{mapId}` beside markers: these devices left the map (moved out, moved to another map, or
 * deleted), so watchers drop their markers. A device moved here from another map arrives as its marker.
 */
export const MapRemovedMessageSchema = Type.Object({
  removed: Type.Array(IdSchema, { description: 'Ids of the devices that left the map' }),
});
export type MapRemovedMessage = Static<typeof MapRemovedMessageSchema>;
/**
 * On `/topic/map/{mapId}` after markers: the reported states of these devices are now stored. A marker is
 * published before its report is written, so a view that reads the database (a group's members, its state)
 * reads again on this message, not on the marker, or it may read the state from before the report.
 */
export const MapStoredMessageSchema = Type.Object({
  stored: Type.Array(IdSchema, { description: 'Ids of the devices whose reported state is now stored' }),
});
export type MapStoredMessage = Static<typeof MapStoredMessageSchema>;
/** Everything `/topic/map/{mapId}` carries: a device's new marker, devices that left, or states now stored. */
export const MapTopicMessageSchema = Type.Union([DeviceMarkerSchema, MapRemovedMessageSchema, MapStoredMessageSchema]);
export type MapTopicMessage = DeviceMarker | MapRemovedMessage | MapStoredMessage;

/**
 * POST device/v1/control as the server's validator takes it: the action as one flat object. A union of
 * objects does not survive the server's Ajv option removeAdditional 'all' (each branch it tries strips the
 * other branches' fields), so the route checks this shape and the server narrows it to the union (ControlActionSchema).
 */
export const DeviceControlRequestSchema = Type.Object({
  id: IdSchema,
  action: Type.Object({
    op: Type.Union(
      [
        Type.Literal('onOff'),
        Type.Literal('brightness'),
        Type.Literal('cct'),
        Type.Literal('rgb'),
        Type.Literal('curtain'),
        Type.Literal('position'),
        Type.Literal('channel'),
      ],
      { description: 'Which ControlAction; its fields follow' },
    ),
    on: Type.Optional(Type.Boolean()),
    percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    kelvin: Type.Optional(Type.Integer({ minimum: CCT_MIN_K, maximum: CCT_MAX_K })),
    color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
    command: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('close'), Type.Literal('stop')])),
    channel: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  }),
});
export type DeviceControlRequest = Static<typeof DeviceControlRequestSchema>;

/** POST device/v1/broad_control as the validator takes it (flat action, see DeviceControlRequestSchema). */
export const BroadControlRequestSchema = Type.Object({ gatewayId: IdSchema, action: DeviceControlRequestSchema.properties.action });
export type BroadControlRequest = Static<typeof BroadControlRequestSchema>;

/** A selection on the floor plan controlled at once (device/v1/control_many). */
export const SELECTION_LIMITS = { devices: 1000 } as const;

/** POST device/v1/control_many: one light action for the devices selected on the plan. */
export const ControlManyRequestSchema = Type.Object({
  ids: Type.Array(IdSchema, {
    minItems: 1,
    maxItems: SELECTION_LIMITS.devices,
    description: 'The selected devices; on several gateways, one command goes to each gateway',
  }),
  action: DeviceControlRequestSchema.properties.action,
});
export type ControlManyRequest = Static<typeof ControlManyRequestSchema>;

/** How one gateway took its part of a selection's command. */
export const ControlManyGatewaySchema = Type.Object({
  gatewayId: IdSchema,
  gatewayName: Type.String(),
  targets: Type.Integer({ minimum: 0, description: 'Selected lights of this gateway that can take the action' }),
  queued: Type.Integer({ minimum: 0, description: 'Frames the gateway queued, drained at its radio rate' }),
  code: Type.Integer({ description: '0, or why this gateway did not take it (100101 offline or silent)' }),
});
export const ControlManyResultSchema = Type.Object({ gateways: Type.Array(ControlManyGatewaySchema) });
export type ControlManyResult = Static<typeof ControlManyResultSchema>;

/** The answer of broad_control: how many devices changed. */
export const BroadControlResultSchema = Type.Object({ count: Type.Integer({ minimum: 0, description: 'Devices that changed' }) });
export type BroadControlResult = Static<typeof BroadControlResultSchema>;

/** The answer of delete: the devices removed now. */
export const DeviceDeleteResultSchema = Type.Object({ deleted: Type.Array(IdSchema, { description: 'Ids removed from the cloud' }) });
export type DeviceDeleteResult = Static<typeof DeviceDeleteResultSchema>;

/** POST device/v1/del_device_succeed/{gatewayId}/{id}: removes a device whose deletion the gateway did not confirm. */
export const DeviceDelSucceedParamsSchema = Type.Object({ gatewayId: IdSchema, id: IdSchema });
export type DeviceDelSucceedParams = Static<typeof DeviceDelSucceedParamsSchema>;
/** Its body: nothing; the path names the device (a client may send `{}`). */
export const DeviceDelSucceedBodySchema = Type.Object({}, { description: 'Empty' });

/** The answer of batch_alter_devices: how many devices now have the new type. */
export const DeviceBatchTypeResultSchema = Type.Object({ count: Type.Integer({ minimum: 0 }) });
export type DeviceBatchTypeResult = Static<typeof DeviceBatchTypeResultSchema>;

/** GET device/v1/input_status/{id} */
export const DeviceIdParamsSchema = Type.Object({ id: IdSchema });
export type DeviceIdParams = Static<typeof DeviceIdParamsSchema>;

/** GET device/v1/get_all_temperature/{mapId}/{gatewayId}: gatewayId 0 means every gateway of the map. */
export const TemperatureParamsSchema = Type.Object({
  mapId: IdSchema,
  gatewayId: Type.String({ pattern: '^(0|[1-9][0-9]{0,18})$', description: 'A gateway id, or 0 for all' }),
});
export type TemperatureParams = Static<typeof TemperatureParamsSchema>;

export const TemperatureReadingSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  gatewayId: IdSchema,
  temperature: Nullable(Type.Number(), 'Degrees Celsius last reported, or null'),
  online: Type.Boolean(),
  lastUpdate: Nullable(DateTime, 'When it last reported, or null'),
});
export type TemperatureReading = Static<typeof TemperatureReadingSchema>;
export const TemperatureListSchema = Type.Array(TemperatureReadingSchema);

/** One row of GET type/v1/list: a device type code with its capabilities (DEVICE_TYPES). */
export const DeviceTypeRowSchema = Type.Object({
  code: TypeCode,
  kind: Nullable(Type.String(), 'The protocol device kind, or null'),
  grouping: Type.String({ description: 'general, bridge, fourWaySwitch, emergency or none' }),
  onOff: Type.Boolean(),
  dimmable: Type.Boolean(),
  cct: Type.Boolean(),
  rgb: Type.Boolean(),
  channels: Type.Integer({ minimum: 0, maximum: 4 }),
  curtain: Type.Boolean(),
  sensor: Nullable(Type.String(), 'motion, daylight, temperature, cct or null'),
  panel: Nullable(Type.String(), 'scene6, smart or null'),
  bridge: Type.Boolean(),
  wisun: Type.Boolean(),
  emergency: Type.Boolean(),
  dali: Type.Boolean(),
  superGateway: Type.Boolean(),
  lighting: Type.Boolean(),
  families: Type.Array(Type.String(), { description: 'The families of spec section 3 it belongs to (DEVICE_FAMILIES)' }),
});
export type DeviceTypeRow = Static<typeof DeviceTypeRowSchema>;
