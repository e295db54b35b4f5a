import { Type, type Static } from 'typebox';
import { ColourTemperatureSchema, DeviceAddrSchema, DeviceLevelSchema, RgbColourSchema } from './devices.ts';

/** What a light should do: every field optional, so a step can set only brightness. */
export const LightActionSchema = Type.Object(
  {
    on: Type.Optional(Type.Boolean()),
    level: Type.Optional(DeviceLevelSchema),
    cct: Type.Optional(ColourTemperatureSchema),
    /** RGB colour of an RGB light, each channel 0-255. */
    rgb: Type.Optional(RgbColourSchema),
    /** With `on`: only this channel (1-4) of a switch; without it `on` switches every channel. */
    channel: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
    /** A moving curtain stops where it is. */
    stop: Type.Optional(Type.Literal(true)),
    /** Fade time in tenths of a second (spec section 5: 0-254 or 0-65535). */
    fade: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  },
  { additionalProperties: false },
);
export type LightAction = Static<typeof LightActionSchema>;

/** A target of a scene step: one device or one group of this gateway. */
export const TargetSchema = Type.Union([
  Type.Object({ device: DeviceAddrSchema }, { additionalProperties: false }),
  Type.Object({ group: Type.Integer({ minimum: 1, maximum: 65535 }) }, { additionalProperties: false }),
]);
export type Target = Static<typeof TargetSchema>;

const Id = Type.Integer({ minimum: 1, maximum: 65535 });
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM local time' });

/**
 * The configuration a gateway keeps and runs on its own (ARCHITECTURE.md section 1): groups, scenes,
 * schedules and sensor linkage. Ids are the gateway-local numbers the cloud assigned.
 */
export const GatewayConfigSchema = Type.Object(
  {
    groups: Type.Array(
      Type.Object(
        { id: Id, name: Type.String({ maxLength: 64 }), devices: Type.Array(DeviceAddrSchema, { maxItems: 1024 }) },
        { additionalProperties: false },
      ),
      { maxItems: 1024 },
    ),
    scenes: Type.Array(
      Type.Object(
        {
          id: Id,
          name: Type.String({ maxLength: 64 }),
          /** DALI scene number when the scene lives in DALI ballasts (0-15). */
          daliScene: Type.Optional(Type.Integer({ minimum: 0, maximum: 15 })),
          steps: Type.Array(
            Type.Object(
              { target: TargetSchema, action: LightActionSchema, delayS: Type.Optional(Type.Integer({ minimum: 0, maximum: 86400 })) },
              { additionalProperties: false },
            ),
            // A sequence of 16 steps over 20 targets, a switch's four channels one action each.
            { maxItems: 2048 },
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1024 },
    ),
    schedules: Type.Array(
      Type.Object(
        {
          id: Id,
          scene: Id,
          /** Days of the week, 0 Sunday ... 6 Saturday; at least one (spec section 5). */
          days: Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { minItems: 1, maxItems: 7 }),
          /** A clock time, or sunrise/sunset with an offset in minutes. */
          at: Type.Union([Time, Type.Literal('sunrise'), Type.Literal('sunset')]),
          offsetMin: Type.Optional(Type.Integer({ minimum: -720, maximum: 720 })),
          /** Optional date range, YYYY-MM-DD, and whether holidays are skipped. */
          from: Type.Optional(Type.String({ format: 'date' })),
          to: Type.Optional(Type.String({ format: 'date' })),
          skipHolidays: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1024 },
    ),
    linkages: Type.Array(
      Type.Object(
        {
          sensor: DeviceAddrSchema,
          targets: Type.Array(TargetSchema, { minItems: 1, maxItems: 64 }),
          /** What the targets do on detection and after the hold time. */
          onDetect: LightActionSchema,
          onClear: LightActionSchema,
          /** Hold time in seconds, a multiple of 10 (spec section 5). */
          holdS: Type.Integer({ minimum: 10, maximum: 57600, multipleOf: 10 }),
          /** Daylight threshold in lux above which detection does not switch on. */
          luxAbove: Type.Optional(Type.Number({ minimum: 0, maximum: 60000 })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1024 },
    ),
    holidays: Type.Optional(Type.Array(Type.String({ format: 'date' }), { maxItems: 366 })),
    /** Scene panel keys bound to scenes (input_scene): pressing the key runs the scene on the gateway. */
    panelKeys: Type.Optional(
      Type.Array(
        Type.Object({ panel: DeviceAddrSchema, key: Type.Integer({ minimum: 1, maximum: 6 }), scene: Id }, { additionalProperties: false }),
        { maxItems: 1024 },
      ),
    ),
    /**
     * Minutes a device stays in manual override after a command switched it by hand (0: until the next
     * scheduled event or devices.auto). While overridden, linkage leaves it alone.
     */
    overrideMin: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440 })),
  },
  { additionalProperties: false },
);
export type GatewayConfig = Static<typeof GatewayConfigSchema>;

export const EMPTY_GATEWAY_CONFIG: GatewayConfig = { groups: [], scenes: [], schedules: [], linkages: [] };
