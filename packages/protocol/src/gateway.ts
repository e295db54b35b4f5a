import { Type, type Static } from 'typebox';
import { DeviceLevelSchema } from './devices.ts';
import { MAC_PATTERN } from './topics.ts';

/** Sensor modes of spec section 4: sensors act on their own (self-operation) or by the synced linkage. */
export const SENSOR_MODES = ['independent', 'linkage'] as const;
export const SensorModeSchema = Type.Union([Type.Literal('independent'), Type.Literal('linkage')]);
export type SensorMode = Static<typeof SensorModeSchema>;

/** Firmware versions of the gateway's parts (spec section 3: gateway, ZigBee, ZigBee2, ZigBee3, Wi-SUN, PLC). */
export const GatewayVersionsSchema = Type.Object(
  {
    gateway: Type.String({ maxLength: 32 }),
    zigbee: Type.String({ maxLength: 32 }),
    zigbee2: Type.String({ maxLength: 32 }),
    zigbee3: Type.String({ maxLength: 32 }),
    wisun: Type.String({ maxLength: 32 }),
    plc: Type.String({ maxLength: 32 }),
  },
  { additionalProperties: false },
);
export type GatewayVersions = Static<typeof GatewayVersionsSchema>;

/** What a gateway says about itself: the gateway fields of spec section 3 plus what the cloud needs. */
export const GatewayInfoSchema = Type.Object(
  {
    /** Twelve upper-case hex digits, the same as in the topic. */
    mac: Type.String({ pattern: MAC_PATTERN }),
    ip: Type.String({ maxLength: 45 }),
    /** Zigbee coordinator network address, hex. */
    networkAddress: Type.String({ pattern: '^[0-9A-Fa-f]{1,8}$' }),
    /** Zigbee PAN ID, hex. */
    panId: Type.String({ pattern: '^[0-9A-Fa-f]{1,8}$' }),
    /** Zigbee radio channel (11-26 on 2.4 GHz). */
    channel: Type.Integer({ minimum: 0, maximum: 255 }),
    versions: GatewayVersionsSchema,
    /** The gateway's large (broadcast) group number. */
    largeGroupNumber: Type.Integer({ minimum: 0, maximum: 65535 }),
    /** True for a super gateway, which holds bridges rather than devices. */
    superGateway: Type.Boolean(),
    /** Version of the configuration the gateway runs; 0 before its first configuration. */
    configVersion: Type.Integer({ minimum: 0 }),
    model: Type.Optional(Type.String({ maxLength: 64 })),
    uptimeS: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Up messages the gateway dropped from its store-and-forward queue (full) since it started. */
    uplinkDropped: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type GatewayInfo = Static<typeof GatewayInfoSchema>;

/** Settable gateway parameters (spec section 7 set_params, set_lon_lat). Each field is optional in a set. */
export const GatewayParamsSchema = Type.Object(
  {
    /** Longitude and latitude for sunrise/sunset, at most two decimals (spec section 5). */
    longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    /** IANA time zone the gateway runs its schedules in. */
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** Seconds between periodic state reports (spec section 5: 10-900). */
    reportIntervalS: Type.Optional(Type.Integer({ minimum: 10, maximum: 900 })),
    /** Zigbee radio channel to move the network to. */
    channel: Type.Optional(Type.Integer({ minimum: 11, maximum: 26 })),
    largeGroupNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    /** Sensor mode: independent (default) or default linkage (spec section 4). */
    sensorMode: Type.Optional(SensorModeSchema),
  },
  { additionalProperties: false },
);
export type GatewayParams = Static<typeof GatewayParamsSchema>;

/** A bridge under a super gateway, with the number of devices behind it (spec section 3). */
export const BridgeSchema = Type.Object(
  {
    addr: Type.String({ pattern: '^[0-9A-Fa-f]{2,16}$' }),
    name: Type.String({ maxLength: 64 }),
    kind: Type.Union([Type.Literal('bridge'), Type.Literal('bridge-wisun')]),
    online: Type.Boolean(),
    deviceCount: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type Bridge = Static<typeof BridgeSchema>;

/**
 * Parameters a gateway writes to every microwave (radar) motion sensor of its networks at once
 * (set_mawa_params). Each field is optional in a set; the reply carries the values now in force.
 */
export const MicrowaveParamsSchema = Type.Object(
  {
    /** Seconds the lights stay at `level` after the last detection; a multiple of 10 (spec section 5: 10-2540). */
    holdS: Type.Optional(Type.Integer({ minimum: 10, maximum: 2540, multipleOf: 10 })),
    /** Daylight above this (lux) keeps the lights from switching on at a detection (0-60000). */
    luxAbove: Type.Optional(Type.Integer({ minimum: 0, maximum: 60000 })),
    /** Brightness on detection, device scale 0-254. */
    level: Type.Optional(DeviceLevelSchema),
    /** Brightness after the hold time ends (standby), device scale 0-254; 0 switches off. */
    standbyLevel: Type.Optional(DeviceLevelSchema),
  },
  { additionalProperties: false },
);
export type MicrowaveParams = Static<typeof MicrowaveParamsSchema>;
