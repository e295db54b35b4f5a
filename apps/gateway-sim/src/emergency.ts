/**
 * Automatic tests of emergency lights (DALI part 202 style, spec section 4): function and life (duration)
 * tests with progress, a battery that discharges and recharges on the model of battery.ts, failures, a manual
 * stop and status reads. Everything runs on the gateway's SimClock, `emergencyTimeFactor` times faster again,
 * so a 3-hour life test takes 0.1 s of wall time at timeFactor 1000 x emergencyTimeFactor 100.
 *
 * Test and demo API (SimGateway):
 *
 *   new SimGateway({ ..., emergencyTimeFactor: 100, emergencyFailureRates: { lamp: 0.02 } })
 *   gateway.emergencyFailureRates = { battery: 0.01 }   // chance per test of each failure; default none
 *   gateway.emergencyLight(addr).set({
 *     batteryAgeYears: 3,        // health max(0.2, 1 - 0.12 x years); below 0.8 a life test ends "capacity low"
 *     charge: 50,                // percent, 0-100; below 100 the light charges back (and refuses life tests)
 *     batteryCells: 4,           // 1-20, 45 minutes each; also the device parameter batteryCells
 *     lightType: 'non-maintained',
 *     failure: 'lamp',           // every test started while set fails this way; `failure: undefined` clears it
 *   })
 *   gateway.emergencyLight(addr).status()   // what emergency.status answers for it, plus `charge` (unrounded),
 *                                           // `batteryAgeYears` and the forced `failure`
 *   gateway.faults.failEmergency.add(addr)  // the same as failure: 'battery'
 *
 * Defaults: 4 cells (the device parameter), age 0, full, maintained, no forced failure, rates 0. The lamp draws
 * 40 % of its rated power in emergency operation (3.2 W for `emergency`, 4 W for `emergency-dimmable`).
 *
 * `emergencyLight` throws for an address that is not an emergency light of the gateway, `set` a RangeError
 * for a value out of range.
 *
 * Outcomes (result codes of FUNCTION_RESULTS / LIFE_RESULTS):
 * - the test lasts its duration: function pass (0, state 27); life pass (2, state 27), or capacity low
 *   (3, state 1, failures ['battery']) when the battery is aged below 80 % of its design duration;
 * - the battery runs flat first: function 2 / life 1, state 25, failures ['battery'];
 * - a battery, lamp or circuit failure (forced or drawn at the start by the rates) shows halfway: function 2 /
 *   life 1, state 2, 5 or 3, failures [that one];
 * - a communication failure silences the light halfway: no more events and no result; the gateway reports it
 *   with state 30 and fault 9, emergency.status lists it with state 30 and start refuses it with 30 until the
 *   test's time is up (or its battery ran flat), then it answers again (fault 0, charging);
 * - emergency.stop: state 26, a life test with result 0, a function test without a result.
 * Battery, lamp and circuit failures set the device's fault code (6, 8, 7; a flat or aged battery 6 too) until
 * a test passes or `clearFault`; they never clear by themselves, not even with the gateway's `faultClearRate`. After a test the battery charges back: states 16/21/22 while charging and 15/23/24 when full
 * (non-maintained / maintained and on / maintained and off), a report at each simulated hour. Events of tests
 * that end while the gateway is offline are kept and sent after it is back.
 */
import {
  EMERGENCY_FAILURES,
  EMERGENCY_LIGHT_TYPES,
  EMERGENCY_LIMITS,
  EMERGENCY_STATES,
  FAULT_CODES,
  FUNCTION_RESULTS,
  LIFE_RESULTS,
  RATED_POWER_W,
  emergencyDurationAllowed,
  type CommandParams,
  type CommandResult,
  type EmergencyFailure,
  type EmergencyLightType,
  type EmergencyTest,
  type EventMessage,
} from '@lumigrid/protocol';
import {
  EMERGENCY_POWER_SHARE,
  batteryCurrent,
  batteryTemperature,
  batteryVoltage,
  capacityLow,
  charged,
  discharged,
  ratedDurationMin,
  reportedCharge,
  timeToFlatMs,
  type BatterySpec,
} from './battery.ts';
import type { SimClock } from './clock.ts';
import { CommandError } from '@lumigrid/protocol';
import { readParams, writeParams } from './device-params.ts';
import type { SimDevice } from './devices.ts';

/** Chance per test that each failure happens (0-1); missing kinds never happen. */
export type EmergencyFailureRates = Partial<Record<EmergencyFailure, number>>;

/** What `emergencyLight(addr).set` changes; a field left out stays as it is. */
export interface EmergencyLightSettings {
  batteryAgeYears?: number;
  charge?: number;
  batteryCells?: number;
  lightType?: EmergencyLightType;
  failure?: EmergencyFailure | undefined;
}

export type EmergencyLightStatus = CommandResult<'emergency.status'>['lights'][number] & {
  /** Charge, percent, unrounded. */
  charge: number;
  batteryAgeYears: number;
  /** The forced failure, if any. */
  failure?: EmergencyFailure;
};

export interface SimEmergencyLight {
  readonly addr: string;
  set(settings: EmergencyLightSettings): void;
  status(): EmergencyLightStatus;
}

/** What the emergency tests need from their gateway. */
export interface EmergencyHost {
  clock: SimClock;
  /** Emergency time runs this many times faster than the clock. */
  timeFactor: number;
  devices: ReadonlyMap<string, SimDevice>;
  faults: { failEmergency: ReadonlySet<string> };
  failureRates(): EmergencyFailureRates;
  random(): number;
  publishEvent(event: EventMessage): void;
  publishReport(devices: SimDevice[]): void;
  /** A test set the light's fault code: what it found is no background fault that may flap away. */
  faultFound(addr: string): void;
}

interface RunningTest {
  test: EmergencyTest;
  durationMs: number;
  /** Emergency milliseconds run up to the last step, and the clock then. */
  elapsedMs: number;
  steppedAt: number;
  /** Where the next step lands, emergency ms since the start. */
  targetMs: number;
  timer: NodeJS.Timeout | undefined;
  /** The next progress event, in tenths. */
  nextTenth: number;
  failure: EmergencyFailure | undefined;
  voltageBefore: number;
}

/** What the gateway keeps per emergency light besides its reported state. */
interface Light {
  ageYears: number;
  /** Percent, unrounded. */
  charge: number;
  lightType: EmergencyLightType;
  failure: EmergencyFailure | undefined;
  /** What the last finished test found. */
  failures: EmergencyFailure[];
  /** Communication lost: the light sends nothing and answers nothing. */
  silent: boolean;
  run: RunningTest | undefined;
  chargeTimer: NodeJS.Timeout | undefined;
}

const HOUR_MS = 3_600_000;
/** Simulated time between charging reports. */
const CHARGE_STEP_MS = HOUR_MS;
const DEFAULT_CELLS = 4;
const MAX_AGE_YEARS = 50;

const FAILURE_STATE: Record<EmergencyFailure, number> = {
  battery: EMERGENCY_STATES.batteryFault,
  lamp: EMERGENCY_STATES.ledLoadFault,
  circuit: EMERGENCY_STATES.chargeDischargeFault,
  communication: EMERGENCY_STATES.offline,
};
const FAILURE_FAULT: Record<EmergencyFailure, number> = {
  battery: FAULT_CODES.battery,
  lamp: FAULT_CODES.led,
  circuit: FAULT_CODES.charging,
  communication: FAULT_CODES.emergencyLink,
};
const EMERGENCY_FAULTS: ReadonlySet<number> = new Set(Object.values(FAILURE_FAULT));

const isEmergencyLight = (device: SimDevice | undefined): device is SimDevice => device?.state.kind.startsWith('emergency') ?? false;

export class EmergencyTests {
  private readonly lights = new Map<string, Light>();

  constructor(private readonly host: EmergencyHost) {}

  /** The test and demo handle of one emergency light (see the top of this file). */
  light(addr: string): SimEmergencyLight {
    if (!isEmergencyLight(this.host.devices.get(addr))) throw new Error(`${addr} is not an emergency light of this gateway`);
    return { addr, set: (settings) => this.set(addr, settings), status: () => this.detailedStatus(addr) };
  }

  /** `emergency.start`: answers the reply's result and what to do once the reply is out. */
  start(params: CommandParams<'emergency.start'>): {
    result: CommandResult<'emergency.start'>;
    after: () => void;
  } {
    const { test, durationS, allowWhileCharging } = params;
    if (!emergencyDurationAllowed(test, durationS)) {
      const { functionTestS: f, lifeTestMin: l } = EMERGENCY_LIMITS;
      throw new CommandError(
        'bad_request',
        test === 'function' ? `a function test lasts ${f.min}-${f.max} s` : `a life test lasts ${l.min * 60}-${l.max * 60} s`,
      );
    }
    const devices = this.emergencyLights([...new Set(params.addrs)]);
    const started: string[] = [];
    const refused: Array<{ addr: string; state: number }> = [];
    for (const device of devices) {
      const { addr } = device.state;
      const light = this.record(device);
      if (params.batteryCells !== undefined) writeParams(device, { batteryCells: params.batteryCells });
      if (params.lightType !== undefined) light.lightType = params.lightType;
      if (!device.state.online || light.silent) refused.push({ addr, state: EMERGENCY_STATES.offline });
      else if (light.run) refused.push({ addr, state: device.state.emergencyState ?? runningState(light.run.test) });
      // A life test needs a full battery, unless the setting allows it while charging (spec state 29).
      else if (test === 'life' && light.charge < 100 && !allowWhileCharging)
        refused.push({ addr, state: EMERGENCY_STATES.lifeTestImpossibleWhileCharging });
      else started.push(addr);
    }
    const runs = started.map((addr) => {
      const device = this.host.devices.get(addr)!;
      const light = this.record(device);
      this.host.clock.clear(light.chargeTimer);
      light.chargeTimer = undefined;
      light.run = {
        test,
        durationMs: durationS * 1000,
        elapsedMs: 0,
        steppedAt: this.host.clock.now(),
        targetMs: 0,
        timer: undefined,
        nextTenth: 1,
        failure: this.failureFor(addr, light),
        voltageBefore: batteryVoltage(this.spec(device, light).cells, light.charge),
      };
      device.state.emergencyState = runningState(test);
      return { device, light, run: light.run };
    });
    return {
      result: { started, refused },
      after: () => {
        if (runs.length) this.host.publishReport(runs.map((r) => r.device));
        for (const { device, light, run } of runs) {
          if (light.run !== run) continue;
          this.progress(device, run, 0);
          this.schedule(device, light, run);
        }
      },
    };
  }

  /** `emergency.stop`: stops running tests (state 26; a life test's result is 0, manually stopped). */
  stop(addrs: string[]): CommandResult<'emergency.stop'> {
    const stopped: string[] = [];
    for (const addr of new Set(addrs)) {
      const device = this.host.devices.get(addr);
      const light = this.lights.get(addr);
      const run = light?.run;
      if (!device || !light || !run || light.silent) continue;
      this.host.clock.clear(run.timer);
      this.advance(device, light, run, run.elapsedMs + this.sinceStep(run));
      stopped.push(addr);
      light.run = undefined;
      device.state.emergencyState = EMERGENCY_STATES.manuallyStopped;
      this.host.publishEvent({
        ...this.measurements(device, light, run, []),
        state: EMERGENCY_STATES.manuallyStopped,
        ...(run.test === 'life' ? { result: LIFE_RESULTS.stopped } : {}),
      });
      this.host.publishReport([device]);
      this.charge(device, light);
    }
    return { stopped };
  }

  /** `emergency.status`: every addressed light now; an address that is no emergency light refuses the read. */
  status(addrs: string[]): CommandResult<'emergency.status'> {
    return { lights: this.emergencyLights(addrs).map((device) => this.statusOf(device)) };
  }

  // --- running a test --------------------------------------------------------------------------

  /** A forced failure (failEmergency is a battery failure), else one drawn by the gateway's rates. */
  private failureFor(addr: string, light: Light): EmergencyFailure | undefined {
    if (light.failure) return light.failure;
    if (this.host.faults.failEmergency.has(addr)) return 'battery';
    const rates = this.host.failureRates();
    // Only a rate above 0 draws, so a gateway without rates takes nothing from a seeded random sequence.
    return EMERGENCY_FAILURES.find((kind) => (rates[kind] ?? 0) > 0 && this.host.random() < rates[kind]!);
  }

  /**
   * Plans the next step: the next tenth of the duration (a progress event), halfway when a failure is due,
   * the end of the duration, or the moment the battery runs flat, whichever comes first.
   */
  private schedule(device: SimDevice, light: Light, run: RunningTest) {
    const marks = [(run.nextTenth * run.durationMs) / 10, run.durationMs];
    if (run.failure) marks.push(run.durationMs / 2);
    let target = Math.min(...marks.filter((m) => m > run.elapsedMs));
    const flatAt = run.elapsedMs + timeToFlatMs(this.spec(device, light), light.charge);
    // A battery that lasts exactly the duration passes.
    const flat = flatAt < target;
    if (flat) target = flatAt;
    run.targetMs = target;
    run.timer = this.host.clock.after((target - run.elapsedMs) / this.host.timeFactor, () => this.step(device, light, run, flat));
  }

  private step(device: SimDevice, light: Light, run: RunningTest, flat: boolean) {
    if (light.run !== run) return;
    if (this.host.devices.get(device.state.addr) !== device) {
      // Removed from the gateway meanwhile.
      light.run = undefined;
      return;
    }
    this.advance(device, light, run, run.targetMs);
    if (flat) light.charge = 0;
    if (light.charge <= 0 && run.elapsedMs < run.durationMs)
      return this.finish(device, light, run, EMERGENCY_STATES.batteryDepleted, ['battery']);
    if (run.failure && run.elapsedMs >= run.durationMs / 2 && !light.silent) {
      if (run.failure !== 'communication') return this.finish(device, light, run, FAILURE_STATE[run.failure], [run.failure]);
      this.loseCommunication(device, light);
    }
    if (run.elapsedMs >= run.durationMs) {
      if (run.test === 'life' && capacityLow(this.spec(device, light)))
        return this.finish(device, light, run, EMERGENCY_STATES.batteryCapacityLow, ['battery']);
      return this.finish(device, light, run, EMERGENCY_STATES.testFinished, []);
    }
    while (run.nextTenth < 10 && run.elapsedMs >= (run.nextTenth * run.durationMs) / 10) {
      this.progress(device, run, run.nextTenth * 10);
      run.nextTenth++;
    }
    this.schedule(device, light, run);
  }

  /** Discharges the battery up to `elapsedMs` of the test. */
  private advance(device: SimDevice, light: Light, run: RunningTest, elapsedMs: number) {
    const ms = Math.max(0, elapsedMs - run.elapsedMs);
    light.charge = discharged(this.spec(device, light), light.charge, ms);
    run.elapsedMs = Math.max(run.elapsedMs, elapsedMs);
    run.steppedAt = this.host.clock.now();
    device.state.battery = reportedCharge(light.charge);
  }

  /** Emergency milliseconds since the last step, never past the step still to come. */
  private sinceStep(run: RunningTest): number {
    const since = (this.host.clock.now() - run.steppedAt) * this.host.timeFactor;
    return Math.min(Math.max(0, since), run.targetMs - run.elapsedMs);
  }

  private progress(device: SimDevice, run: RunningTest, progress: number) {
    if (this.lights.get(device.state.addr)?.silent) return;
    this.host.publishEvent({
      type: 'emergency',
      ts: this.host.clock.now(),
      addr: device.state.addr,
      test: run.test,
      state: runningState(run.test),
      progress,
    });
  }

  private finish(device: SimDevice, light: Light, run: RunningTest, state: number, failures: EmergencyFailure[]) {
    light.run = undefined;
    if (light.silent) {
      // The light comes back after its test's time; what the test found never reached the gateway.
      light.silent = false;
      if (device.state.fault === FAULT_CODES.emergencyLink) device.state.fault = 0;
      device.state.emergencyState = this.restingState(device, light);
      light.failures = [];
      this.host.publishReport([device]);
      return this.charge(device, light);
    }
    light.failures = failures;
    device.state.emergencyState = state;
    if (failures[0]) {
      device.state.fault = FAILURE_FAULT[failures[0]];
      this.host.faultFound(device.state.addr);
    } else if (EMERGENCY_FAULTS.has(device.state.fault)) device.state.fault = 0;
    this.host.publishEvent({ ...this.measurements(device, light, run, failures), state, result: resultOf(run.test, state) });
    this.host.publishReport([device]);
    this.charge(device, light);
  }

  /** The gateway loses the light's emergency module: it reports it offline (30) with fault 9 and hears nothing more. */
  private loseCommunication(device: SimDevice, light: Light) {
    light.silent = true;
    device.state.emergencyState = EMERGENCY_STATES.offline;
    device.state.fault = FAULT_CODES.emergencyLink;
    this.host.faultFound(device.state.addr);
    this.host.publishReport([device]);
  }

  /** The fields of a test's last event. */
  private measurements(device: SimDevice, light: Light, run: RunningTest, failures: EmergencyFailure[]) {
    const { cells } = this.spec(device, light);
    const powerW = emergencyPowerW(device);
    const volts = batteryVoltage(cells, light.charge);
    return {
      type: 'emergency' as const,
      ts: this.host.clock.now(),
      addr: device.state.addr,
      test: run.test,
      progress: Math.min(100, Math.max(0, Math.floor((run.elapsedMs / run.durationMs) * 100 + 1e-9))),
      voltageBefore: run.voltageBefore,
      voltageAfter: volts,
      durationS: Math.min(36_000, Math.round(run.elapsedMs / 1000)),
      batteryVoltage: volts,
      batteryCurrent: batteryCurrent(powerW, cells, light.charge),
      batteryTemperature: batteryTemperature(run.elapsedMs),
      batteryCells: cells,
      powerW,
      failures,
    };
  }

  // --- charging --------------------------------------------------------------------------------

  /** Charges the battery back, reporting every simulated hour, until it is full or a test starts. */
  private charge(device: SimDevice, light: Light) {
    this.host.clock.clear(light.chargeTimer);
    light.chargeTimer = undefined;
    if (light.charge >= 100) return;
    const tick = () => {
      light.chargeTimer = undefined;
      if (light.run || this.host.devices.get(device.state.addr) !== device) return;
      light.charge = charged(light.charge, CHARGE_STEP_MS);
      device.state.battery = reportedCharge(light.charge);
      if (!light.silent) device.state.emergencyState = this.restingState(device, light);
      this.host.publishReport([device]);
      if (light.charge < 100) light.chargeTimer = this.host.clock.after(CHARGE_STEP_MS / this.host.timeFactor, tick);
    };
    light.chargeTimer = this.host.clock.after(CHARGE_STEP_MS / this.host.timeFactor, tick);
  }

  /** Charging or full, by whether the luminaire is lit: maintained lights are unless switched off. */
  private restingState(device: SimDevice, light: Light): number {
    const full = light.charge >= 100;
    if (light.lightType === 'non-maintained') return full ? EMERGENCY_STATES.fullyCharged : EMERGENCY_STATES.charging;
    if (device.state.on === false) return full ? EMERGENCY_STATES.offFullyCharged : EMERGENCY_STATES.offCharging;
    return full ? EMERGENCY_STATES.onFullyCharged : EMERGENCY_STATES.onCharging;
  }

  // --- lights ----------------------------------------------------------------------------------

  private emergencyLights(addrs: string[]): SimDevice[] {
    return addrs.map((addr) => {
      const device = this.host.devices.get(addr);
      if (!isEmergencyLight(device)) throw new CommandError('not_found', `${addr} is not an emergency light of this gateway`);
      return device;
    });
  }

  private record(device: SimDevice): Light {
    let light = this.lights.get(device.state.addr);
    if (!light) {
      light = {
        ageYears: 0,
        charge: device.state.battery ?? 100,
        lightType: 'maintained',
        failure: undefined,
        failures: [],
        silent: false,
        run: undefined,
        chargeTimer: undefined,
      };
      this.lights.set(device.state.addr, light);
    }
    return light;
  }

  private spec(device: SimDevice, light: Light): BatterySpec {
    const cells = readParams(device).batteryCells;
    return { cells: typeof cells === 'number' ? cells : DEFAULT_CELLS, ageYears: light.ageYears };
  }

  private statusOf(device: SimDevice): CommandResult<'emergency.status'>['lights'][number] {
    const light = this.record(device);
    const spec = this.spec(device, light);
    const run = light.run;
    const sinceStep = run ? this.sinceStep(run) : 0;
    const charge = discharged(spec, light.charge, sinceStep);
    const answering = device.state.online && !light.silent;
    return {
      addr: device.state.addr,
      state: answering ? (device.state.emergencyState ?? this.restingState(device, light)) : EMERGENCY_STATES.offline,
      battery: reportedCharge(charge),
      ...(run ? { test: run.test, progress: Math.min(100, Math.floor(((run.elapsedMs + sinceStep) / run.durationMs) * 100 + 1e-9)) } : {}),
      batteryVoltage: batteryVoltage(spec.cells, charge),
      ratedDurationMin: Math.round(ratedDurationMin(spec)),
      failures: light.silent ? ['communication'] : [...light.failures],
      batteryCells: spec.cells,
      lightType: light.lightType,
    };
  }

  private detailedStatus(addr: string): EmergencyLightStatus {
    const device = this.host.devices.get(addr)!;
    const light = this.record(device);
    return {
      ...this.statusOf(device),
      charge: light.charge,
      batteryAgeYears: light.ageYears,
      ...(light.failure ? { failure: light.failure } : {}),
    };
  }

  private set(addr: string, settings: EmergencyLightSettings) {
    const device = this.host.devices.get(addr);
    if (!isEmergencyLight(device)) throw new Error(`${addr} is not an emergency light of this gateway`);
    const { batteryAgeYears: age, charge, batteryCells: cells, lightType } = settings;
    if (age !== undefined && !(age >= 0 && age <= MAX_AGE_YEARS))
      throw new RangeError(`battery age ${age} is not 0-${MAX_AGE_YEARS} years`);
    if (charge !== undefined && !(charge >= 0 && charge <= 100)) throw new RangeError(`charge ${charge} is not 0-100 %`);
    const { min, max } = EMERGENCY_LIMITS.batteryCells;
    if (cells !== undefined && !(Number.isInteger(cells) && cells >= min && cells <= max))
      throw new RangeError(`battery cells ${cells} is not ${min}-${max}`);
    if (lightType !== undefined && !EMERGENCY_LIGHT_TYPES.includes(lightType)) throw new RangeError(`no light type ${String(lightType)}`);
    if (settings.failure !== undefined && !EMERGENCY_FAILURES.includes(settings.failure))
      throw new RangeError(`no emergency failure ${String(settings.failure)}`);

    const light = this.record(device);
    if (age !== undefined) light.ageYears = age;
    if (cells !== undefined) writeParams(device, { batteryCells: cells });
    if (lightType !== undefined) light.lightType = lightType;
    if (Object.hasOwn(settings, 'failure')) light.failure = settings.failure;
    if (charge === undefined && lightType === undefined) return;
    if (charge !== undefined) {
      light.charge = charge;
      device.state.battery = reportedCharge(charge);
    }
    // A running test goes on from the new charge; an idle light charges from it.
    if (!light.run && !light.silent) {
      device.state.emergencyState = this.restingState(device, light);
      this.charge(device, light);
    }
    this.host.publishReport([device]);
  }
}

function runningState(test: EmergencyTest): number {
  return test === 'function' ? EMERGENCY_STATES.functionTestRunning : EMERGENCY_STATES.lifeTestRunning;
}

function resultOf(test: EmergencyTest, state: number): number {
  if (test === 'function') return state === EMERGENCY_STATES.testFinished ? FUNCTION_RESULTS.pass : FUNCTION_RESULTS.failed;
  if (state === EMERGENCY_STATES.testFinished) return LIFE_RESULTS.pass;
  return state === EMERGENCY_STATES.batteryCapacityLow ? LIFE_RESULTS.capacityLow : LIFE_RESULTS.failed;
}

/** The lamp's power in emergency operation: a share of its rated power. */
export function emergencyPowerW(device: SimDevice): number {
  return Math.round((RATED_POWER_W[device.state.kind] ?? 8) * EMERGENCY_POWER_SHARE * 100) / 100;
}
