/**
 * Conversions between what a user sets and what a device runs (spec section 9). Only 0 % is the device's 0
 * and only 100 % its 254, so "off" and "on at full load" survive both directions (docs/decisions.md).
 */

/** Brightness on the device: 0-254. */
export const LEVEL_MAX = 254;
/** Default colour-temperature range in kelvin (spec section 9). */
export const CCT_MIN_K = 2700;
export const CCT_MAX_K = 6500;
/** The device's colour-temperature value runs 0-254 and is inverted: 0 is 6500 K, 254 is 2700 K. */
export const CCT_DEVICE_MAX = 254;

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
const finiteOr = (n: number, fallback: number) => (Number.isFinite(n) ? n : fallback);

/** Percent 0-100 to the device scale 0-254, rounded half up; out-of-range input is clamped. */
export function percentToLevel(percent: number): number {
  const p = clamp(finiteOr(percent, 0), 0, 100);
  return Math.round((p * LEVEL_MAX) / 100);
}

/**
 * Device scale 0-254 to percent 0-100: rounded to the nearest percent, except that a level above 0 is at
 * least 1 % and a level below 254 at most 99 %, so a dim light never reads as off nor a 253 as full load.
 */
export function levelToPercent(level: number): number {
  const l = clamp(Math.round(finiteOr(level, 0)), 0, LEVEL_MAX);
  if (l === 0) return 0;
  if (l === LEVEL_MAX) return 100;
  return clamp(Math.round((l * 100) / LEVEL_MAX), 1, 99);
}

/** Kelvin (clamped to 2700-6500) to the inverted device value 0-254. */
export function kelvinToCctValue(kelvin: number): number {
  const k = clamp(finiteOr(kelvin, CCT_MIN_K), CCT_MIN_K, CCT_MAX_K);
  return Math.round(((CCT_MAX_K - k) * CCT_DEVICE_MAX) / (CCT_MAX_K - CCT_MIN_K));
}

/** Inverted device value 0-254 to kelvin, rounded to whole kelvin: 0 is 6500 K, 254 is 2700 K. */
export function cctValueToKelvin(value: number): number {
  const v = clamp(Math.round(finiteOr(value, 0)), 0, CCT_DEVICE_MAX);
  return CCT_MAX_K - Math.round((v * (CCT_MAX_K - CCT_MIN_K)) / CCT_DEVICE_MAX);
}

/** An RGB colour, each channel 0-255. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** `#rrggbb` (lower case) for an RGB colour; channels are rounded and clamped to 0-255. */
export function rgbToHex({ r, g, b }: Rgb): string {
  const h = (n: number) =>
    clamp(Math.round(finiteOr(n, 0)), 0, 255)
      .toString(16)
      .padStart(2, '0');
  return `#${h(r)}${h(g)}${h(b)}`;
}

/** `#rrggbb` or `rrggbb` (any case) to an RGB colour, or undefined when it is not one. */
export function hexToRgb(hex: string): Rgb | undefined {
  const m = /^#?([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/.exec(hex);
  if (!m) return undefined;
  return { r: parseInt(m[1] as string, 16), g: parseInt(m[2] as string, 16), b: parseInt(m[3] as string, 16) };
}
