import type { DeviceKind, DeviceParamValues } from '@lumigrid/protocol';
import { CommandError } from '@lumigrid/protocol';
import { initialState, type SimDevice } from './devices.ts';

/**
 * The parameters each simulated device keeps in its own memory, as a real device keeps them in its
 * attributes: they survive cloud restarts, and read_params reads them back from here. The names are the
 * cloud's parameter table (packages/contract device-params.ts); the values are the factory defaults.
 */
const LIGHT = { reportInterval: 60 };
const DIMMABLE = {
  ...LIGHT,
  brightness: 100,
  minBrightness: 1,
  fadeTime: 10,
  maxPower: 99,
  powerIncreasePeriod: 1,
  recoveryTime: 0,
  minPowerLevel: 1,
  maxPowerLevel: 100,
};
const MOTION = {
  sensorMode: 'independent',
  holdTime: 60,
  linkageHoldTime: 0,
  sensingCount: 10,
  lux: 300,
  brightness: 100,
  commandInterval: 10,
  stairsMode: false,
  stairsHoldTime: 60,
  reportInterval: 60,
};

const DEFAULTS: Partial<Record<DeviceKind, DeviceParamValues>> = {
  'light-single': LIGHT,
  'light-cct': DIMMABLE,
  'light-rgb': DIMMABLE,
  'light-dimmer': DIMMABLE,
  dali: DIMMABLE,
  emergency: { ...LIGHT, batteryCells: 4, functionTestDuration: 30, lifeTestDuration: 90 },
  'emergency-dimmable': { ...DIMMABLE, batteryCells: 4, functionTestDuration: 30, lifeTestDuration: 90 },
  curtain: { curtainRunTime: 30 },
  'switch-1': { lampCounts: [1], reportInterval: 60 },
  'switch-2': { lampCounts: [1, 1], reportInterval: 60 },
  'switch-3': { lampCounts: [1, 1, 1], reportInterval: 60 },
  'switch-4': { lampCounts: [1, 1, 1, 1], reportInterval: 60 },
  'sensor-motion': MOTION,
  'sensor-daylight': { sensorMode: 'independent', lux: 500, holdTime: 60, commandInterval: 10, reportInterval: 60 },
  'sensor-temperature': { lowTemperature: 5, highTemperature: 35, reportInterval: 60 },
  'sensor-cct': { reportInterval: 60 },
  'panel-scene6': { sequenceNumber: 1 },
  'panel-smart': { sequenceNumber: 1 },
};

const copy = (params: DeviceParamValues): DeviceParamValues =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]));

/** The factory parameters of a kind (empty for kinds without parameters: bridges, super gateways). */
export function defaultParams(kind: DeviceKind): DeviceParamValues {
  return copy(DEFAULTS[kind] ?? {});
}

/** What the device runs now. */
export function readParams(device: SimDevice): DeviceParamValues {
  device.params ??= defaultParams(device.state.kind);
  return copy(device.params);
}

/**
 * Writes parameters the device has; a name it lacks or a value of the wrong shape refuses the whole write
 * (`unsupported` / `bad_request`), so a device never runs half of a change. Answers every parameter after it.
 */
export function writeParams(device: SimDevice, changes: DeviceParamValues): DeviceParamValues {
  const current = readParams(device);
  for (const [name, value] of Object.entries(changes)) {
    if (!Object.hasOwn(current, name)) throw new CommandError('unsupported', `${device.state.kind} has no parameter ${name}`);
    const was = current[name];
    const sameShape = Array.isArray(was) ? Array.isArray(value) && value.length === was.length : typeof value === typeof was;
    if (!sameShape) throw new CommandError('bad_request', `parameter ${name} has the wrong shape`);
  }
  device.params = { ...current, ...copy(changes) };
  return copy(device.params);
}

/**
 * Turns a device into another kind (batch type change): its state and parameters become the new kind's,
 * keeping whether it is on and how bright.
 */
export function changeKind(device: SimDevice, kind: DeviceKind): void {
  const { on, level, online, fault } = device.state;
  device.state = { ...initialState(device.state.addr, kind), online, fault };
  if (on !== undefined && device.state.on !== undefined) device.state.on = on;
  if (level !== undefined && device.state.level !== undefined) device.state.level = level;
  device.params = defaultParams(kind);
}
