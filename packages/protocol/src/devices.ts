import { Type, type Static } from 'typebox';

/**
 * Device kinds a gateway reports, one per family of spec section 1. The numeric library type codes live in
 * packages/contract; on the wire a gateway names what the device is, so a real gateway needs no code table.
 */
export const DEVICE_KINDS = [
  'light-single',
  'light-cct',
  'light-rgb',
  'light-dimmer',
  'curtain',
  'switch-1',
  'switch-2',
  'switch-3',
  'switch-4',
  'sensor-motion',
  'sensor-daylight',
  'sensor-temperature',
  'sensor-cct',
  'panel-scene6',
  'panel-smart',
  'bridge',
  'bridge-wisun',
  'emergency',
  'emergency-dimmable',
  'super-gateway',
  // Appended, so the simulator's addresses of the kinds before them stay as they were.
  /** A bridge from the gateway's radio to one DALI bus (docs/protocol.md, "DALI"). */
  'bridge-dali',
  /** DALI control gear (a dimmable light, device type 6) on the bus of a DALI bridge. */
  'dali',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export const DeviceKindSchema = Type.Enum(DEVICE_KINDS);

/**
 * Rated power per light family, W: what a light draws at full brightness (the simulator's lights) and the
 * baseline energy savings are measured against (packages/contract DEVICE_TYPES). A default per family until
 * the device library gives each model its own.
 */
export const RATED_POWER_W: Readonly<Partial<Record<DeviceKind, number>>> = Object.freeze({
  'light-single': 12,
  'light-cct': 18,
  'light-rgb': 15,
  'light-dimmer': 36,
  emergency: 8,
  'emergency-dimmable': 10,
  dali: 24,
});

/**
 * DALI (IEC 62386) limits of one bus: short addresses 0-63, groups 0-15, scenes 0-15. A gateway maps its
 * groups onto each bus's 16 DALI groups, so a bus takes part in at most 16 of the gateway's groups.
 */
export const DALI_LIMITS = {
  shortAddress: { min: 0, max: 63 },
  groups: 16,
  scenes: 16,
} as const;

/** The middle of a DALI device address: bridge tail, this marker, short address (docs/protocol.md, "DALI"). */
const DALI_MARK = 'DA';

/**
 * The address of a DALI device on the gateway's network: the last 12 hex digits of its bridge's address,
 * 'DA', and its short address in two hex digits (00-3F), so it is unique per gateway and names its bus.
 */
export function daliDeviceAddr(bridgeAddr: string, shortAddress: number): string {
  if (!Number.isInteger(shortAddress) || shortAddress < DALI_LIMITS.shortAddress.min || shortAddress > DALI_LIMITS.shortAddress.max) {
    throw new RangeError(`DALI short address ${shortAddress} is not 0-63`);
  }
  return `${bridgeAddr.toUpperCase().padStart(12, '0').slice(-12)}${DALI_MARK}${shortAddress.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** The short address of a DALI device address, or undefined for an address of another form. */
export function daliShortAddress(addr: string): number | undefined {
  if (addr.length !== 16 || addr.slice(12, 14) !== DALI_MARK) return undefined;
  const short = parseInt(addr.slice(14), 16);
  return short <= DALI_LIMITS.shortAddress.max ? short : undefined;
}

/**
 * A device address on the gateway's network: its IEEE/EUI-64 in 16 hex digits, or a shorter bus address,
 * always upper case on the wire, so both ends and the database compare addresses as plain strings.
 */
export const DeviceAddrSchema = Type.String({ pattern: '^[0-9A-F]{2,16}$', description: 'device address (upper-case hex)' });

/** Fault codes of spec section 4; 0 is normal. */
export const FAULT_CODES = {
  power: 1,
  offline: 2,
  dcSensor: 3,
  motionSensor: 4,
  daylightSensor: 5,
  battery: 6,
  charging: 7,
  led: 8,
  emergencyLink: 9,
} as const;
export type FaultName = keyof typeof FAULT_CODES;

export const FAULT_CODE_MAX = Math.max(...Object.values(FAULT_CODES));
export const FaultCodeSchema = Type.Integer({ minimum: 0, maximum: FAULT_CODE_MAX });

/** Brightness on the device scale 0-254 (spec section 9). */
export const DeviceLevelSchema = Type.Integer({ minimum: 0, maximum: 254 });

/** Colour temperature in kelvin. */
export const ColourTemperatureSchema = Type.Integer({ minimum: 1000, maximum: 10000 });

const ColourChannel = Type.Integer({ minimum: 0, maximum: 255 });
/** RGB colour, each channel 0-255. */
export const RgbColourSchema = Type.Tuple([ColourChannel, ColourChannel, ColourChannel]);

/** A device's state as a gateway reports it; fields that do not apply to a kind are left out. */
export const DeviceStateSchema = Type.Object(
  {
    addr: DeviceAddrSchema,
    kind: DeviceKindSchema,
    /** False when the gateway lost the device (display state offline). */
    online: Type.Boolean(),
    on: Type.Optional(Type.Boolean()),
    /** Brightness on the device scale 0-254 (spec section 9). */
    level: Type.Optional(DeviceLevelSchema),
    /** Colour temperature in kelvin. */
    cct: Type.Optional(ColourTemperatureSchema),
    rgb: Type.Optional(RgbColourSchema),
    /** Curtain opening, percent. */
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    /** Switch channels, one flag per channel (1-4). */
    channels: Type.Optional(Type.Array(Type.Boolean(), { minItems: 1, maxItems: 4 })),
    occupied: Type.Optional(Type.Boolean()),
    lux: Type.Optional(Type.Number({ minimum: 0, maximum: 100000 })),
    /** Degrees Celsius. */
    temperature: Type.Optional(Type.Number({ minimum: -60, maximum: 150 })),
    /** Battery charge, percent (emergency lights, battery sensors). */
    battery: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    /** Emergency device state code of spec section 4 (15 fully charged, 16 charging, ...). */
    emergencyState: Type.Optional(Type.Integer({ minimum: 0, maximum: 99 })),
    /** A panel's keys are locked: only its lock accounts (panel.lockAccounts) may unlock it. */
    locked: Type.Optional(Type.Boolean()),
    fault: FaultCodeSchema,
    /** Switched by hand: sensors leave it alone until devices.auto, the next scheduled event or the override timeout. */
    manual: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type DeviceState = Static<typeof DeviceStateSchema>;

/** A device that joined the gateway's network, as listed for import. */
export const JoinedDeviceSchema = Type.Object(
  {
    addr: DeviceAddrSchema,
    kind: DeviceKindSchema,
    /** Network (short) address on the Zigbee network, hex. */
    networkAddress: Type.String({ pattern: '^[0-9A-Fa-f]{1,8}$' }),
    model: Type.String({ maxLength: 64 }),
    firmware: Type.String({ maxLength: 32 }),
    /** The bridge it sits behind, when it is not on the gateway's own radio. */
    bridge: Type.Optional(DeviceAddrSchema),
    /** A DALI device's short address on its bridge's bus, 0-63. */
    daliAddress: Type.Optional(Type.Integer({ minimum: 0, maximum: 63 })),
    /** Epoch ms of the join, gateway clock. */
    joinedAt: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type JoinedDevice = Static<typeof JoinedDeviceSchema>;

/**
 * A device's parameters by name (the names of the cloud's parameter table: holdTime, lux, sensorMode,
 * fadeTime, lampCounts, ...): numbers, on/off flags, the sensor mode, and one count per switch channel.
 */
export const DeviceParamValuesSchema = Type.Record(
  Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,31}$' }),
  Type.Union([Type.Number(), Type.Boolean(), Type.String({ maxLength: 32 }), Type.Array(Type.Integer(), { maxItems: 4 })]),
);
export type DeviceParamValues = Static<typeof DeviceParamValuesSchema>;
