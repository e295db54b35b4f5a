import type { CommandParams, EventMessage } from '@lumigrid/protocol';
import type { SimClock } from './clock.ts';
import { CommandError } from './command-error.ts';
import type { SimDevice } from './devices.ts';

/** What the emergency tests need from their gateway. */
export interface EmergencyHost {
  clock: SimClock;
  devices: ReadonlyMap<string, SimDevice>;
  faults: { failEmergency: ReadonlySet<string> };
  publishEvent(event: EventMessage): void;
  publishReport(devices: SimDevice[]): void;
}

type Test = 'function' | 'life';

/** Recharging after a test: 10% every 2 simulated hours, a full charge in about a day. */
const RECHARGE_STEP_MS = 2 * 3600_000;

/**
 * Automatic tests of emergency lights (spec section 4): function and life tests with progress, battery
 * drain, results (pass, battery fault, depleted), manual stop, and recharging afterwards.
 */
export class EmergencyTests {
  private readonly running = new Map<string, { test: Test; timer: NodeJS.Timeout | undefined }>();

  constructor(private readonly host: EmergencyHost) {}

  /** `emergency.start`: answers the reply's result and what to do once the reply is out. */
  start(params: CommandParams<'emergency.start'>): {
    result: { started: string[]; refused: Array<{ addr: string; state: number }> };
    after: () => void;
  } {
    const { test, durationS, allowWhileCharging } = params;
    const lights = params.addrs.map((addr) => {
      const device = this.host.devices.get(addr);
      if (!device?.state.kind.startsWith('emergency'))
        throw new CommandError('not_found', `${addr} is not an emergency light of this gateway`);
      return device;
    });
    const started: string[] = [];
    const refused: Array<{ addr: string; state: number }> = [];
    for (const light of lights) {
      const { addr, battery = 0, emergencyState = 0 } = light.state;
      if (this.running.has(addr)) refused.push({ addr, state: emergencyState });
      // Spec state 29: a life test is impossible while charging, unless the setting allows it.
      else if (test === 'life' && battery < 100 && !allowWhileCharging) refused.push({ addr, state: 29 });
      else started.push(addr);
    }
    for (const addr of started) this.running.set(addr, { test, timer: undefined });
    return { result: { started, refused }, after: () => started.forEach((addr) => this.run(addr, test, durationS)) };
  }

  /** `emergency.stop`: stops running tests (state 26; a life test's result is 0, manually stopped). */
  stop(addrs: string[]): { stopped: string[] } {
    const stopped: string[] = [];
    for (const addr of addrs) {
      const running = this.running.get(addr);
      const light = this.host.devices.get(addr);
      if (!running || !light) continue;
      this.host.clock.clear(running.timer);
      this.running.delete(addr);
      stopped.push(addr);
      light.state.emergencyState = 26;
      this.host.publishEvent({
        type: 'emergency',
        ts: this.host.clock.now(),
        addr,
        test: running.test,
        state: 26,
        ...(running.test === 'life' ? { result: 0 } : {}),
      });
      this.host.publishReport([light]);
      this.recharge(light);
    }
    return { stopped };
  }

  /**
   * Runs one test in ten steps. A life test drains the battery as a 3-hour battery would; running flat
   * first fails it (state 25). A light in `faults.failEmergency` fails halfway (battery fault, state 2).
   */
  private run(addr: string, test: Test, durationS: number) {
    const { clock } = this.host;
    const light = this.host.devices.get(addr)!;
    const volts = () => Math.round((3.2 + ((light.state.battery ?? 0) / 100) * 0.9) * 100) / 100;
    const voltageBefore = volts();
    const runningState = test === 'function' ? 19 : 18;
    const drainPerStep = test === 'life' ? (durationS / (3 * 3600)) * 10 : 1;
    const event = (state: number, progress: number, result?: number) =>
      this.host.publishEvent({
        type: 'emergency',
        ts: clock.now(),
        addr,
        test,
        state,
        progress,
        ...(result !== undefined ? { result, voltageBefore, voltageAfter: volts() } : {}),
      });
    const finish = (state: number, result: number) => {
      this.running.delete(addr);
      light.state.emergencyState = state;
      if (state === 2) light.state.fault = 6;
      event(state, 100, result);
      this.host.publishReport([light]);
      this.recharge(light);
    };
    let step = 0;
    const next = () => {
      const entry = this.running.get(addr);
      if (!entry) return;
      step++;
      light.state.battery = Math.max(0, Math.round((light.state.battery ?? 0) - drainPerStep));
      // Result codes: function 0 pass / 2 failed; life 2 pass / 1 failed.
      if (this.host.faults.failEmergency.has(addr) && step >= 5) return finish(2, test === 'function' ? 2 : 1);
      if (light.state.battery === 0) return finish(25, 1);
      if (step >= 10) return finish(27, test === 'function' ? 0 : 2);
      event(runningState, step * 10);
      entry.timer = clock.after((durationS * 1000) / 10, next);
    };
    light.state.emergencyState = runningState;
    this.host.publishReport([light]);
    event(runningState, 0);
    this.running.get(addr)!.timer = clock.after((durationS * 1000) / 10, next);
  }

  /** Charges the battery back (state 16) until full (state 23). */
  private recharge(light: SimDevice) {
    const tick = () => {
      if (this.running.has(light.state.addr)) return;
      light.state.battery = Math.min(100, (light.state.battery ?? 0) + 10);
      light.state.emergencyState = light.state.battery >= 100 ? 23 : 16;
      this.host.publishReport([light]);
      if (light.state.battery < 100) this.host.clock.after(RECHARGE_STEP_MS, tick);
    };
    if ((light.state.battery ?? 100) < 100) this.host.clock.after(RECHARGE_STEP_MS, tick);
    else light.state.emergencyState = 23;
  }
}
