import { FAULT_CODES, type DeviceState, type LightAction, type TelemetrySample } from '@lumigrid/protocol';
import type { Capabilities, LightFeatures, MappedDevice } from './mapping.ts';

/** A payload for `<friendly_name>/set` (or a group's): Zigbee2MQTT's property names and units. */
export type SetPayload = Record<string, unknown>;
/** What Zigbee2MQTT publishes on `<friendly_name>`: the device's whole known state. */
export type Z2mState = Record<string, unknown>;

const LEVEL_MAX = 254;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Kelvin to mireds (micro reciprocal degrees), clamped to the range the device takes. */
export function kelvinToMireds(kelvin: number, range: { min: number; max: number }): number {
  return clamp(Math.round(1_000_000 / kelvin), range.min, range.max);
}

/** Mireds to kelvin within the protocol's 1000-10000 K. */
export function miredsToKelvin(mireds: number): number {
  return clamp(Math.round(1_000_000 / mireds), 1000, 10_000);
}

const gammaIn = (c: number) => (c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92);
const gammaOut = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** sRGB to CIE 1931 xy (D65), four decimals as Zigbee2MQTT publishes them; black gives the white point. */
export function rgbToXy([r, g, b]: readonly [number, number, number]): { x: number; y: number } {
  const [lr, lg, lb] = [r, g, b].map((c) => gammaIn(c / 255)) as [number, number, number];
  const X = lr * 0.4124 + lg * 0.3576 + lb * 0.1805;
  const Y = lr * 0.2126 + lg * 0.7152 + lb * 0.0722;
  const Z = lr * 0.0193 + lg * 0.1192 + lb * 0.9505;
  const sum = X + Y + Z;
  if (sum === 0) return { x: 0.3127, y: 0.329 };
  return { x: Math.round((X / sum) * 10_000) / 10_000, y: Math.round((Y / sum) * 10_000) / 10_000 };
}

/** CIE xy to sRGB at full brightness, the brightest channel at 255 (brightness travels on its own). */
export function xyToRgb(x: number, y: number): [number, number, number] {
  if (!(y > 0)) return [255, 255, 255];
  const X = x / y;
  const Z = (1 - x - y) / y;
  const linear = [X * 3.2406 - 1 * 1.5372 - Z * 0.4986, -X * 0.9689 + 1.8758 + Z * 0.0415, X * 0.0557 - 0.204 + Z * 1.057].map((c) =>
    Math.max(0, c),
  );
  const top = Math.max(...linear) || 1;
  return linear.map((c) => Math.round(clamp(gammaOut(c / top), 0, 1) * 255)) as [number, number, number];
}

/** sRGB to hue (0-360) and saturation (0-100), as Zigbee2MQTT's `color: { hue, saturation }` takes them. */
export function rgbToHs([r, g, b]: readonly [number, number, number]): { hue: number; saturation: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let hue = 0;
  if (d > 0) {
    if (max === r) hue = ((g - b) / d) % 6;
    else if (max === g) hue = (b - r) / d + 2;
    else hue = (r - g) / d + 4;
  }
  return { hue: Math.round((hue * 60 + 360) % 360), saturation: max === 0 ? 0 : Math.round((d / max) * 100) };
}

export function hsToRgb(hue: number, saturation: number): [number, number, number] {
  const s = clamp(saturation, 0, 100) / 100;
  const f = (n: number) => {
    const k = (n + hue / 60) % 6;
    return Math.round(255 * (1 - s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

function lightPayload(light: LightFeatures, action: LightAction): SetPayload {
  const payload: SetPayload = {};
  if (action.level !== undefined) {
    payload[light.state] = action.level > 0 ? 'ON' : 'OFF';
    if (action.level > 0 && light.brightness)
      payload[light.brightness.property] = Math.round((action.level * light.brightness.max) / LEVEL_MAX);
  }
  if (action.on !== undefined) payload[light.state] = action.on ? 'ON' : 'OFF';
  if (action.cct !== undefined && light.colorTemp) payload[light.colorTemp.property] = kelvinToMireds(action.cct, light.colorTemp);
  if (action.rgb !== undefined && light.color) payload.color = light.color === 'xy' ? rgbToXy(action.rgb) : rgbToHs(action.rgb);
  return payload;
}

/**
 * The `/set` payload that carries out a protocol action on a device, or undefined when the device has nothing
 * the action sets (the bridge answers `unsupported`). Fade (tenths of a second) becomes `transition` (seconds).
 */
export function setPayloadFor(capabilities: Capabilities, action: LightAction): SetPayload | undefined {
  let payload: SetPayload = {};
  if (capabilities.light) payload = lightPayload(capabilities.light, action);
  else if (capabilities.channels && action.on !== undefined) {
    const only = action.channel;
    if (only !== undefined && only > capabilities.channels.length) return undefined;
    capabilities.channels.forEach((property, i) => {
      if (only === undefined || only === i + 1) payload[property] = action.on ? 'ON' : 'OFF';
    });
  } else if (capabilities.cover) {
    const { state, position } = capabilities.cover;
    if (action.stop) payload[state] = 'STOP';
    else if (action.level !== undefined && position) payload[position] = Math.round((action.level / LEVEL_MAX) * 100);
    else if (action.level !== undefined) payload[state] = action.level > 0 ? 'OPEN' : 'CLOSE';
    else if (action.on !== undefined) payload[state] = action.on ? 'OPEN' : 'CLOSE';
  }
  if (Object.keys(payload).length === 0) return undefined;
  if (action.fade !== undefined && capabilities.light) payload.transition = action.fade / 10;
  return payload;
}

/**
 * A group's light features: the narrowest colour temperature range of its members, brightness and colour
 * when any member has them (Zigbee2MQTT sends one group command; members without the feature ignore it).
 */
export function groupLightFeatures(members: readonly Capabilities[]): LightFeatures {
  const lights = members.flatMap((m) => (m.light ? [m.light] : []));
  const temps = lights.flatMap((l) => (l.colorTemp ? [l.colorTemp] : []));
  return {
    state: 'state',
    ...(lights.some((l) => l.brightness) ? { brightness: { property: 'brightness', max: LEVEL_MAX } } : {}),
    ...(temps.length
      ? { colorTemp: { property: 'color_temp', min: Math.max(...temps.map((t) => t.min)), max: Math.min(...temps.map((t) => t.max)) } }
      : {}),
    ...(lights.some((l) => l.color)
      ? { color: lights.every((l) => !l.color || l.color === 'hs') ? ('hs' as const) : ('xy' as const) }
      : {}),
  };
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const isOn = (value: unknown) => value === 'ON' || value === true;

/** The platform's state of a device from Zigbee2MQTT's state payload (fields it lacks are left out). */
export function deviceState(device: MappedDevice, state: Z2mState, online: boolean): DeviceState {
  const c = device.capabilities;
  const out: DeviceState = { addr: device.addr, kind: device.kind, online, fault: online ? 0 : FAULT_CODES.offline };
  if (c.light) {
    const on = isOn(state[c.light.state]);
    out.on = on;
    const brightness = c.light.brightness ? num(state[c.light.brightness.property]) : undefined;
    out.level =
      brightness !== undefined ? clamp(Math.round((brightness * LEVEL_MAX) / c.light.brightness!.max), 0, LEVEL_MAX) : on ? LEVEL_MAX : 0;
    const mireds = c.light.colorTemp ? num(state[c.light.colorTemp.property]) : undefined;
    if (mireds !== undefined && mireds > 0 && device.kind === 'light-cct') out.cct = miredsToKelvin(mireds);
    const color = state.color as { x?: number; y?: number; hue?: number; saturation?: number } | undefined;
    if (device.kind === 'light-rgb' && color) {
      if (num(color.x) !== undefined && num(color.y) !== undefined) out.rgb = xyToRgb(color.x!, color.y!);
      else if (num(color.hue) !== undefined && num(color.saturation) !== undefined) out.rgb = hsToRgb(color.hue!, color.saturation!);
    }
  }
  if (c.channels) out.channels = c.channels.map((p) => isOn(state[p]));
  if (c.cover) {
    const position = c.cover.position ? num(state[c.cover.position]) : undefined;
    const word = state[c.cover.state];
    const derived = word === 'OPEN' ? 100 : word === 'CLOSE' ? 0 : undefined;
    if ((position ?? derived) !== undefined) out.position = clamp(Math.round(position ?? derived!), 0, 100);
  }
  if (c.occupancy && typeof state[c.occupancy] === 'boolean') out.occupied = state[c.occupancy] as boolean;
  const lux = c.illuminance ? num(state[c.illuminance]) : undefined;
  if (lux !== undefined) out.lux = clamp(lux, 0, 100_000);
  const temperature = c.temperature ? num(state[c.temperature]) : undefined;
  if (temperature !== undefined) out.temperature = clamp(temperature, -60, 150);
  const battery = c.battery ? num(state[c.battery]) : undefined;
  if (battery !== undefined) out.battery = clamp(Math.round(battery), 0, 100);
  return out;
}

/** The telemetry sample of a state payload: power (W), energy (kWh -> Wh), voltage, current, battery, temperature, lux. */
export function telemetrySample(device: MappedDevice, state: Z2mState): TelemetrySample | undefined {
  const c = device.capabilities;
  const read = (property: string | undefined, min: number, max: number) => {
    const value = property ? num(state[property]) : undefined;
    return value === undefined ? undefined : clamp(value, min, max);
  };
  const energyKwh = read(c.energy, 0, Number.MAX_SAFE_INTEGER);
  const battery = read(c.battery, 0, 100);
  const fields: Omit<TelemetrySample, 'addr'> = {
    power: read(c.power, 0, 100_000),
    energyWh: energyKwh === undefined ? undefined : Math.round(energyKwh * 1_000_000) / 1000,
    voltage: read(c.voltage, 0, 1000),
    current: read(c.current, 0, 1000),
    battery: battery === undefined ? undefined : Math.round(battery),
    temperature: read(c.temperature, -60, 150),
    lux: read(c.illuminance, 0, 100_000),
  };
  const present = Object.entries(fields).filter(([, v]) => v !== undefined);
  return present.length ? { addr: device.addr, ...Object.fromEntries(present) } : undefined;
}
