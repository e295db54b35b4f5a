import {
  DEVICE_KINDS,
  FAULT_CODES,
  daliDeviceAddr,
  type DeviceKind,
  type DeviceParamValues,
  type DeviceState,
  type JoinedDevice,
  type LightAction,
} from '@lumigrid/protocol';

/** One simulated device: what it reports, plus what the gateway knows about it. */
export interface SimDevice {
  state: DeviceState;
  networkAddress: string;
  model: string;
  firmware: string;
  /** The bridge it sits behind (super gateways). */
  bridge: string | undefined;
  joinedAt: number;
  /** Energy counter, Wh (energy.ts): grows with the power drawn, back to 0 only when the device resets. */
  energyWh: number;
  /** The parameters it keeps (device-params.ts); filled with the kind's defaults on first use. */
  params?: DeviceParamValues;
  /** False after control_sensor_onoff switched a sensor's sensing off: it reports no activity. */
  sensing?: boolean;
  /** When its manual override (state.manual) ends by itself, simulated epoch ms; none without overrideMin. */
  manualUntil?: number;
  /** A DALI device's short address on its bridge's bus (0-63). */
  daliAddress?: number;
  /** A panel's lock accounts: the user slots that may unlock it (panel.lockAccounts). */
  lockAccounts?: Array<{ slot: number; account: string; name: string }>;
}

const LIGHTS: ReadonlySet<DeviceKind> = new Set([
  'light-single',
  'light-cct',
  'light-rgb',
  'light-dimmer',
  'emergency',
  'emergency-dimmable',
  'dali',
]);

/** Every device family of spec section 1 that a gateway holds (a super gateway is the gateway itself). */
export const SIMULATED_KINDS: readonly DeviceKind[] = DEVICE_KINDS.filter((k) => k !== 'super-gateway');

export function isLight(kind: DeviceKind): boolean {
  return LIGHTS.has(kind);
}

/**
 * The fault codes (spec section 4) a device of a kind can raise besides offline (2): a light its power and
 * LED, a sensor its own sensor error, an emergency light its battery, charging and emergency link.
 */
export function faultCodesOf(kind: DeviceKind): readonly number[] {
  if (kind === 'emergency') return [FAULT_CODES.battery, FAULT_CODES.charging, FAULT_CODES.emergencyLink, FAULT_CODES.led];
  if (kind === 'sensor-motion') return [FAULT_CODES.motionSensor, FAULT_CODES.dcSensor];
  if (kind === 'sensor-daylight') return [FAULT_CODES.daylightSensor, FAULT_CODES.dcSensor];
  if (kind.startsWith('sensor-')) return [FAULT_CODES.dcSensor];
  if (LIGHTS.has(kind)) return [FAULT_CODES.power, FAULT_CODES.led];
  return [FAULT_CODES.power];
}

/** A 16-digit device address derived from the gateway MAC, so addresses are unique and stable per run. */
export function deviceAddr(gatewayMac: string, index: number): string {
  return `00124B${gatewayMac.slice(6)}${index.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The initial state of a device of a kind. */
export function initialState(addr: string, kind: DeviceKind): DeviceState {
  const base: DeviceState = { addr, kind, online: true, fault: 0 };
  switch (kind) {
    case 'light-single':
    case 'light-dimmer':
    case 'dali':
      return { ...base, on: false, level: 0 };
    case 'light-cct':
      return { ...base, on: false, level: 0, cct: 4000 };
    case 'light-rgb':
      return { ...base, on: false, level: 0, rgb: [255, 255, 255] };
    case 'curtain':
      return { ...base, position: 0 };
    case 'switch-1':
    case 'switch-2':
    case 'switch-3':
    case 'switch-4':
      return { ...base, channels: Array.from({ length: Number(kind.slice(-1)) }, () => false) };
    case 'sensor-motion':
      return { ...base, occupied: false, lux: 300, battery: 100 };
    case 'sensor-daylight':
      return { ...base, lux: 450 };
    case 'sensor-temperature':
      return { ...base, temperature: 22.5, battery: 100 };
    case 'sensor-cct':
      return { ...base, cct: 5000, lux: 400 };
    case 'emergency':
      return { ...base, on: true, level: 254, battery: 100, emergencyState: 23 };
    case 'emergency-dimmable':
      return { ...base, on: true, level: 200, battery: 100, emergencyState: 23 };
    case 'panel-smart':
      return { ...base, locked: true };
    case 'panel-scene6':
      return { ...base, locked: false };
    default:
      return base;
  }
}

/** Part numbers of the simulated models: what a gateway reports as `model` and the device library matches. */
export const SIM_PART_NUMBERS: Readonly<Record<DeviceKind, string>> = {
  'light-single': 'LG-DL100-12W',
  'light-cct': 'LG-P60-CCT-18W',
  'light-rgb': 'LG-RGB15',
  'light-dimmer': 'LG-HB200-36W',
  curtain: 'LG-CM1',
  'switch-1': 'LG-SW1',
  'switch-2': 'LG-SW2',
  'switch-3': 'LG-SW3',
  'switch-4': 'LG-SW4',
  'sensor-motion': 'LG-PIR2',
  'sensor-daylight': 'LG-LUX1',
  'sensor-temperature': 'LG-TMP1',
  'sensor-cct': 'LG-CCS1',
  'panel-scene6': 'LG-KP6',
  'panel-smart': 'LG-TP7',
  bridge: 'LG-BR-ZB',
  'bridge-wisun': 'LG-BR-WS',
  emergency: 'LG-EX8',
  'emergency-dimmable': 'LG-EX10D',
  'super-gateway': 'LG-SGW-100',
  'bridge-dali': 'LG-BR-DALI',
  dali: 'LG-DT6-24W',
};

/** The user slots a simulated panel keeps: a facility manager's card and a cleaning crew's PIN. */
function panelLockAccounts(index: number): SimDevice['lockAccounts'] {
  const n = String(index).padStart(4, '0');
  return [
    { slot: 1, account: `CARD-${n}`, name: 'Facility manager' },
    { slot: 2, account: `PIN-${n}`, name: 'Cleaning crew' },
  ];
}

/**
 * A new device. A DALI device (kind `dali`) needs its bridge and short address: its address is made from
 * them (protocol daliDeviceAddr), not from `addr`.
 */
export function createDevice(addr: string, kind: DeviceKind, index: number, now: number, bridge?: string, daliAddress?: number): SimDevice {
  const dali = kind === 'dali' && bridge !== undefined && daliAddress !== undefined;
  const at = dali ? daliDeviceAddr(bridge, daliAddress) : addr;
  return {
    state: initialState(at, kind),
    networkAddress: ((index * 0x1d3 + 0x1000) & 0xffff).toString(16).toUpperCase().padStart(4, '0'),
    model: SIM_PART_NUMBERS[kind],
    firmware: '1.0.0',
    bridge,
    joinedAt: now,
    energyWh: 0,
    ...(dali ? { daliAddress } : {}),
    ...(kind.startsWith('panel-') ? { lockAccounts: panelLockAccounts(index) } : {}),
  };
}

/** Light kinds that only switch (no dimming): a level above 0 turns them on at full, 0 off. */
const SWITCH_ONLY: ReadonlySet<DeviceKind> = new Set(['light-single']);

/** Applies a light action; answers whether anything changed. Non-lights take on/off where it makes sense. */
export function applyAction(device: SimDevice, action: LightAction): boolean {
  const s = device.state;
  const before = JSON.stringify(s);
  if (isLight(s.kind)) {
    if (action.level !== undefined) {
      s.level = SWITCH_ONLY.has(s.kind) && action.level > 0 ? 254 : action.level;
      s.on = action.level > 0;
    }
    if (action.on !== undefined) {
      s.on = action.on;
      if (action.on && (s.level ?? 0) === 0) s.level = 254;
    }
    if (action.cct !== undefined && s.kind === 'light-cct') s.cct = action.cct;
    if (action.rgb !== undefined && s.kind === 'light-rgb') s.rgb = [...action.rgb];
  } else if (s.channels && action.on !== undefined) {
    const only = action.channel;
    s.channels = s.channels.map((c, i) => (only === undefined || only === i + 1 ? action.on! : c));
  } else if (s.kind === 'curtain') {
    if (action.level !== undefined) s.position = Math.round((action.level / 254) * 100);
    else if (action.on !== undefined) s.position = action.on ? 100 : 0;
  }
  return JSON.stringify(s) !== before;
}

export function joinedDevice(device: SimDevice): JoinedDevice {
  return {
    addr: device.state.addr,
    kind: device.state.kind,
    networkAddress: device.networkAddress,
    model: device.model,
    firmware: device.firmware,
    ...(device.bridge ? { bridge: device.bridge } : {}),
    ...(device.daliAddress !== undefined ? { daliAddress: device.daliAddress } : {}),
    joinedAt: device.joinedAt,
  };
}
