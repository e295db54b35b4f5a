/**
 * The battery model of the simulated emergency lights: NiMH-like cells, pure functions of the battery's
 * settings, its charge and time, so tests can check it without a broker.
 *
 * - Design duration: 45 minutes per cell (1 cell 45 min, 4 cells 3 h, 20 cells 15 h).
 * - Health: max(0.2, 1 - 0.12 x age in years): a new battery holds 100 %, a 3-year-old one 64 %.
 * - Rated duration (what a full battery lasts now): design duration x health.
 * - Capacity low: a battery whose rated duration is below 80 % of the design duration (older than 1.67 years).
 * - Discharge at constant power: the charge falls linearly, 100 % over the rated duration.
 * - Cell voltage by charge: 1.30 V full, a plateau about 1.2 V, a knee at the end down to 1.00 V empty; the
 *   battery voltage is cells x cell voltage and the current is power / voltage.
 * - Temperature: 25 °C at rest, up to 6 °C warmer in a long discharge.
 * - Charging: empty to full in 24 hours, fast first and tapering (charge = 1 - (1 - t/24 h)^2).
 */

export const MINUTES_PER_CELL = 45;
/** Below this share of its design duration a battery's capacity is low. */
export const CAPACITY_LOW_SHARE = 0.8;
export const FULL_CHARGE_MS = 24 * 3_600_000;
export const AMBIENT_C = 25;
const DISCHARGE_WARMING_C = 6;
const WARMING_TIME_MS = 20 * 60_000;
/** In emergency operation the lamp runs at this share of its rated power. */
export const EMERGENCY_POWER_SHARE = 0.4;

export interface BatterySpec {
  cells: number;
  ageYears: number;
}

export function batteryHealth(ageYears: number): number {
  return Math.max(0.2, 1 - 0.12 * Math.max(0, ageYears));
}

export function designDurationMin(cells: number): number {
  return cells * MINUTES_PER_CELL;
}

/** Minutes a full battery lasts now. */
export function ratedDurationMin(spec: BatterySpec): number {
  return designDurationMin(spec.cells) * batteryHealth(spec.ageYears);
}

export function capacityLow(spec: BatterySpec): boolean {
  return batteryHealth(spec.ageYears) < CAPACITY_LOW_SHARE;
}

/** Simulated milliseconds until a battery at `charge` percent runs flat. */
export function timeToFlatMs(spec: BatterySpec, charge: number): number {
  return (Math.max(0, charge) / 100) * ratedDurationMin(spec) * 60_000;
}

/** The charge after discharging for `ms` (never below 0). */
export function discharged(spec: BatterySpec, charge: number, ms: number): number {
  return Math.max(0, charge - (ms / (ratedDurationMin(spec) * 60_000)) * 100);
}

/** Volts of one cell at a charge (percent): full 1.30, plateau about 1.2, the knee below 10 %, empty 1.00. */
export function cellVoltage(charge: number): number {
  const s = Math.min(1, Math.max(0, charge / 100));
  return 1.18 + 0.07 * s + 0.05 * s ** 8 - 0.18 * Math.exp(-s / 0.05);
}

export function batteryVoltage(cells: number, charge: number): number {
  return round(cells * cellVoltage(charge), 2);
}

/** Discharge current, A, drawing `powerW` at the battery's voltage. */
export function batteryCurrent(powerW: number, cells: number, charge: number): number {
  return round(powerW / (cells * cellVoltage(charge)), 3);
}

/** Battery temperature after discharging for `ms`. */
export function batteryTemperature(ms: number): number {
  return round(AMBIENT_C + DISCHARGE_WARMING_C * (1 - Math.exp(-Math.max(0, ms) / WARMING_TIME_MS)), 1);
}

/** The charge after charging for `ms` from `charge` percent, on the curve that fills an empty battery in 24 h. */
export function charged(charge: number, ms: number): number {
  const from = Math.min(100, Math.max(0, charge)) / 100;
  // Where on the curve c(t) = 1 - (1 - t/T)^2 the battery stands, then `ms` further.
  const at = FULL_CHARGE_MS * (1 - Math.sqrt(1 - from));
  const t = Math.min(FULL_CHARGE_MS, at + Math.max(0, ms));
  const c = 1 - (1 - t / FULL_CHARGE_MS) ** 2;
  return t >= FULL_CHARGE_MS ? 100 : Math.min(100, c * 100);
}

/** The charge as reported (an integer percent): 100 only when full. */
export function reportedCharge(charge: number): number {
  return Math.max(0, Math.min(100, Math.floor(charge + 1e-9)));
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
