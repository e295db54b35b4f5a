import { Type, type Static } from 'typebox';

/**
 * Emergency device state codes of spec section 4, as `emergencyState` in up/report, `state` in `emergency`
 * events, `refused[].state` of `emergency.start` and `lights[].state` of `emergency.status`. Codes the spec
 * leaves unnamed (4, 6-14, 28) are not sent.
 */
export const EMERGENCY_STATES = {
  batteryCapacityLow: 1,
  batteryFault: 2,
  chargeDischargeFault: 3,
  ledLoadFault: 5,
  fullyCharged: 15,
  charging: 16,
  emergencyDischarge: 17,
  lifeTestRunning: 18,
  functionTestRunning: 19,
  rest: 20,
  onCharging: 21,
  offCharging: 22,
  onFullyCharged: 23,
  offFullyCharged: 24,
  batteryDepleted: 25,
  manuallyStopped: 26,
  testFinished: 27,
  lifeTestImpossibleWhileCharging: 29,
  offline: 30,
} as const;
export type EmergencyStateName = keyof typeof EMERGENCY_STATES;
export type EmergencyStateCode = (typeof EMERGENCY_STATES)[EmergencyStateName];

/** `result` of a function test's `emergency` event. */
export const FUNCTION_RESULTS = { pass: 0, testing: 1, failed: 2 } as const;

/** `result` of a life (duration) test's `emergency` event. */
export const LIFE_RESULTS = { stopped: 0, failed: 1, pass: 2, capacityLow: 3, testing: 4 } as const;

/**
 * What a test can find wrong (DALI part 202 failure status, simplified): the battery (it does not hold its
 * charge or runs flat), the lamp (LED load), the circuit (charge/discharge management) and communication
 * with the emergency module (no result arrives; the cloud decides the timeout).
 */
export const EMERGENCY_FAILURES = ['battery', 'lamp', 'circuit', 'communication'] as const;
export type EmergencyFailure = (typeof EMERGENCY_FAILURES)[number];
export const EmergencyFailureSchema = Type.Enum(EMERGENCY_FAILURES);

/** Maintained lights are lit in normal operation too; non-maintained ones only light in an emergency. */
export const EMERGENCY_LIGHT_TYPES = ['maintained', 'non-maintained'] as const;
export type EmergencyLightType = (typeof EMERGENCY_LIGHT_TYPES)[number];
export const EmergencyLightTypeSchema = Type.Enum(EMERGENCY_LIGHT_TYPES);

/** Limits of spec section 4: function test seconds, life test minutes, battery cells. */
export const EMERGENCY_LIMITS = {
  functionTestS: { min: 15, max: 254 },
  lifeTestMin: { min: 5, max: 600 },
  batteryCells: { min: 1, max: 20 },
} as const;

export const EmergencyTestSchema = Type.Union([Type.Literal('function'), Type.Literal('life')]);
export type EmergencyTest = Static<typeof EmergencyTestSchema>;

export const BatteryCellsSchema = Type.Integer({ minimum: EMERGENCY_LIMITS.batteryCells.min, maximum: EMERGENCY_LIMITS.batteryCells.max });

/** The battery as a light reports it; voltages in V, current in A (discharge), temperature in °C. */
export const BatteryVoltageSchema = Type.Number({ minimum: 0, maximum: 100 });
export const BatteryCurrentSchema = Type.Number({ minimum: 0, maximum: 1000 });
export const BatteryTemperatureSchema = Type.Number({ minimum: -60, maximum: 150 });

/** Whether a test's duration (seconds on the wire) lies within the limits of its kind. */
export function emergencyDurationAllowed(test: EmergencyTest, durationS: number): boolean {
  if (!Number.isInteger(durationS)) return false;
  if (test === 'function') return durationS >= EMERGENCY_LIMITS.functionTestS.min && durationS <= EMERGENCY_LIMITS.functionTestS.max;
  return durationS >= EMERGENCY_LIMITS.lifeTestMin.min * 60 && durationS <= EMERGENCY_LIMITS.lifeTestMin.max * 60;
}
