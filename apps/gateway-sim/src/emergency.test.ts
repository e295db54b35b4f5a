import { EMERGENCY_STATES, LIFE_RESULTS, type DeviceKind, type DeviceState, type EventMessage } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import {
  FULL_CHARGE_MS,
  batteryHealth,
  batteryTemperature,
  batteryVoltage,
  capacityLow,
  cellVoltage,
  charged,
  discharged,
  ratedDurationMin,
  reportedCharge,
} from './battery.ts';
import { gatewaysOnTestCloud, poll } from './broker.fixtures.ts';
import type { SimGateway } from './gateway.ts';

type EmergencyEvent = Extract<EventMessage, { type: 'emergency' }>;

const HOUR_S = 3600;

describe('battery model', () => {
  it('rates 45 minutes a cell, less as the battery ages, and calls it low below 80 %', () => {
    expect(ratedDurationMin({ cells: 4, ageYears: 0 })).toBe(180);
    expect(ratedDurationMin({ cells: 1, ageYears: 0 })).toBe(45);
    expect(ratedDurationMin({ cells: 4, ageYears: 3 })).toBeCloseTo(115.2, 5);
    expect(batteryHealth(10)).toBe(0.2);
    expect(capacityLow({ cells: 4, ageYears: 1 })).toBe(false);
    expect(capacityLow({ cells: 4, ageYears: 2 })).toBe(true);
    expect(discharged({ cells: 4, ageYears: 0 }, 100, 90 * 60_000)).toBeCloseTo(50, 5);
    expect(discharged({ cells: 4, ageYears: 0 }, 10, 90 * 60_000)).toBe(0);
  });

  it('discharges from 1.3 V a cell to 1.0 V with a knee at the end, warming a few degrees', () => {
    expect(cellVoltage(100)).toBeCloseTo(1.3, 2);
    expect(cellVoltage(0)).toBeCloseTo(1.0, 2);
    const curve = Array.from({ length: 101 }, (_, i) => cellVoltage(i));
    expect(curve.every((v, i) => i === 0 || v > curve[i - 1]!)).toBe(true);
    // The plateau is flat, the knee steep.
    expect(cellVoltage(60) - cellVoltage(40)).toBeLessThan(0.02);
    expect(cellVoltage(10) - cellVoltage(0)).toBeGreaterThan(0.15);
    expect(batteryVoltage(4, 100)).toBe(5.2);
    expect(batteryTemperature(0)).toBe(25);
    expect(batteryTemperature(3 * HOUR_S * 1000)).toBeGreaterThan(30);
    expect(batteryTemperature(3 * HOUR_S * 1000)).toBeLessThanOrEqual(31);
  });

  it('charges an empty battery in 24 hours, fast first and tapering, and reports 100 only when full', () => {
    const hour = 3_600_000;
    expect(charged(0, FULL_CHARGE_MS)).toBe(100);
    const first = charged(0, hour);
    const last = 100 - charged(charged(0, 23 * hour), 0);
    expect(first).toBeGreaterThan(8);
    expect(last).toBeLessThan(0.5);
    expect(charged(50, 0)).toBeCloseTo(50, 9);
    expect(reportedCharge(99.97)).toBe(99);
    expect(reportedCharge(100)).toBe(100);
  });
});

describe('emergency tests over the broker', () => {
  /** Gateways whose emergency time runs 100,000 times faster than the wall: 3 simulated hours in 0.11 s. */
  const rig = gatewaysOnTestCloud('A4C138E0', { timeFactor: 1000, emergencyTimeFactor: 100 });
  const { startGateway } = rig;

  const addrOf = (gateway: SimGateway, kind: DeviceKind) => [...gateway.devices.values()].find((d) => d.state.kind === kind)!.state.addr;

  function events(gateway: SimGateway, addr: string): EmergencyEvent[] {
    return rig.cloud.up.flatMap((m) =>
      m.mac === gateway.mac && m.channel === 'event' && m.message.type === 'emergency' && m.message.addr === addr ? [m.message] : [],
    );
  }

  function reported(gateway: SimGateway, addr: string): DeviceState[] {
    return rig.cloud.up.flatMap((m) =>
      m.mac === gateway.mac && m.channel === 'report' ? m.message.devices.filter((d) => d.addr === addr) : [],
    );
  }

  /** Starts a test and answers its last event (a result or a manual stop). */
  async function runTest(
    gateway: SimGateway,
    addr: string,
    params: { test: 'function' | 'life'; durationS: number; allowWhileCharging?: boolean; batteryCells?: number },
  ): Promise<{ last: EmergencyEvent; all: EmergencyEvent[] }> {
    const from = events(gateway, addr).length;
    const reply = await rig.cloud.call(gateway.mac, 'emergency.start', { addrs: [addr], ...params });
    expect(reply).toMatchObject({ ok: true, result: { started: [addr], refused: [] } });
    const done = (e: EmergencyEvent) => e.result !== undefined || e.state === EMERGENCY_STATES.manuallyStopped;
    await poll(() => events(gateway, addr).slice(from).some(done), `the end of the ${params.test} test of ${addr}`);
    const all = events(gateway, addr).slice(from);
    return { last: all.find(done)!, all };
  }

  async function status(gateway: SimGateway, addrs: string[]) {
    const reply = await rig.cloud.call(gateway.mac, 'emergency.status', { addrs });
    if (!reply.ok) throw new Error(`emergency.status failed: ${JSON.stringify(reply.error)}`);
    return (reply.result as { lights: Array<Record<string, unknown>> }).lights;
  }

  it('passes a function test in ten steps with the battery measurements', async () => {
    const gateway = await startGateway();
    const light = addrOf(gateway, 'emergency');
    const { last, all } = await runTest(gateway, light, { test: 'function', durationS: 30 });
    expect(all.map((e) => e.progress)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(all.slice(0, -1).every((e) => e.state === EMERGENCY_STATES.functionTestRunning && e.result === undefined)).toBe(true);
    expect(last).toMatchObject({ test: 'function', state: 27, result: 0, durationS: 30, batteryCells: 4, powerW: 3.2, failures: [] });
    expect(last.batteryVoltage).toBe(last.voltageAfter);
    expect(last.voltageAfter!).toBeLessThanOrEqual(last.voltageBefore!);
    expect(last.batteryCurrent).toBeCloseTo(3.2 / last.batteryVoltage!, 2);
    expect(last.batteryTemperature).toBeGreaterThanOrEqual(25);
    // 30 s of a 3-hour battery: no longer full, so it charges (maintained and on: 21).
    expect(gateway.devices.get(light)!.state.battery).toBe(99);
  });

  it('passes a 3-hour life test on a new battery on the simulated clock, and takes the cell count it is given', async () => {
    const gateway = await startGateway();
    const light = addrOf(gateway, 'emergency-dimmable');
    const wall = Date.now();
    const { last } = await runTest(gateway, light, { test: 'life', durationS: 3 * HOUR_S, batteryCells: 5 });
    // On the simulated clock: in real time the test would take three hours, not a minute however busy the machine.
    expect(Date.now() - wall).toBeLessThan(60_000);
    // 5 cells hold 225 minutes: 45 minutes (20 %) are left after 3 hours.
    expect(last).toMatchObject({
      test: 'life',
      state: 27,
      result: LIFE_RESULTS.pass,
      progress: 100,
      durationS: 3 * HOUR_S,
      batteryCells: 5,
    });
    expect(last).toMatchObject({ voltageBefore: 6.5, failures: [] });
    expect(last.batteryVoltage).toBeCloseTo(5 * cellVoltage(20), 2);
    expect(last.batteryTemperature).toBeGreaterThan(30);
    expect(gateway.emergencyLight(light).status()).toMatchObject({ battery: 20, batteryCells: 5, ratedDurationMin: 225 });
  }, 60_000);

  it('ends a life test on an aged battery with capacity low, and one that runs the battery flat with failed and depleted', async () => {
    const gateway = await startGateway();
    const aged = addrOf(gateway, 'emergency');
    gateway.emergencyLight(aged).set({ batteryAgeYears: 3 });
    expect(gateway.emergencyLight(aged).status()).toMatchObject({ ratedDurationMin: 115, batteryAgeYears: 3 });
    const low = await runTest(gateway, aged, { test: 'life', durationS: 90 * 60 });
    expect(low.last).toMatchObject({ state: 1, result: LIFE_RESULTS.capacityLow, failures: ['battery'], durationS: 5400 });

    const flat = addrOf(gateway, 'emergency-dimmable');
    const { last } = await runTest(gateway, flat, { test: 'life', durationS: 4 * HOUR_S });
    // A 4-cell battery lasts 3 of the 4 hours.
    expect(last).toMatchObject({ state: 25, result: LIFE_RESULTS.failed, failures: ['battery'], durationS: 3 * HOUR_S, progress: 75 });
    expect(last.batteryVoltage).toBe(4);
    expect(last.batteryCurrent).toBe(1);
    expect(gateway.devices.get(flat)!.state).toMatchObject({ battery: 0, emergencyState: 25, fault: 6 });
  });

  it('fails tests with a lamp, circuit or battery failure halfway and clears the fault when a test passes', async () => {
    const gateway = await startGateway();
    const light = addrOf(gateway, 'emergency');
    gateway.emergencyLight(light).set({ failure: 'lamp' });
    const lamp = await runTest(gateway, light, { test: 'function', durationS: 20 });
    expect(lamp.last).toMatchObject({ state: 5, result: 2, failures: ['lamp'], progress: 50, durationS: 10 });
    expect(lamp.all.map((e) => e.progress)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(gateway.devices.get(light)!.state.fault).toBe(8);
    expect((await status(gateway, [light]))[0]).toMatchObject({ failures: ['lamp'] });

    gateway.emergencyLight(light).set({ failure: 'circuit' });
    const circuit = await runTest(gateway, light, { test: 'life', durationS: HOUR_S, allowWhileCharging: true });
    expect(circuit.last).toMatchObject({ state: 3, result: LIFE_RESULTS.failed, failures: ['circuit'] });

    gateway.emergencyLight(light).set({ failure: undefined });
    gateway.faults.failEmergency.add(light);
    const battery = await runTest(gateway, light, { test: 'function', durationS: 20 });
    expect(battery.last).toMatchObject({ state: 2, result: 2, failures: ['battery'] });
    expect(gateway.devices.get(light)!.state.fault).toBe(6);

    gateway.faults.failEmergency.delete(light);
    const pass = await runTest(gateway, light, { test: 'function', durationS: 20 });
    expect(pass.last).toMatchObject({ state: 27, result: 0, failures: [] });
    expect(gateway.devices.get(light)!.state.fault).toBe(0);
    expect((await status(gateway, [light]))[0]).toMatchObject({ failures: [] });
  });

  it('keeps the battery fault a test found through any number of activity intervals, even with flapping on, until a test passes', async () => {
    const gateway = await startGateway({ faultClearRate: 1, random: () => 0 });
    const light = addrOf(gateway, 'emergency');
    gateway.emergencyLight(light).set({ failure: 'battery' });
    expect((await runTest(gateway, light, { test: 'function', durationS: 20 })).last).toMatchObject({ failures: ['battery'] });
    const tick = () => (gateway as unknown as { tick(): void }).tick();
    for (let i = 0; i < 20; i++) tick();
    expect(gateway.devices.get(light)!.state.fault).toBe(6);

    gateway.emergencyLight(light).set({ failure: undefined });
    expect((await runTest(gateway, light, { test: 'function', durationS: 20 })).last).toMatchObject({ result: 0, failures: [] });
    expect(gateway.devices.get(light)!.state.fault).toBe(0);
  });

  it('draws failures by the gateway rates, and none at the default rates', async () => {
    const gateway = await startGateway({ emergencyFailureRates: { circuit: 1 } });
    const light = addrOf(gateway, 'emergency');
    expect((await runTest(gateway, light, { test: 'function', durationS: 15 })).last).toMatchObject({ failures: ['circuit'] });
    gateway.emergencyFailureRates = {};
    expect((await runTest(gateway, light, { test: 'function', durationS: 15 })).last).toMatchObject({ failures: [] });
  });

  it('goes silent on a communication failure: no result, state 30, then answers again', async () => {
    // An hour of test in 1.8 s: silent from 0.9 s on, long enough to ask it.
    const gateway = await startGateway({ emergencyTimeFactor: 2 });
    const light = addrOf(gateway, 'emergency');
    gateway.emergencyLight(light).set({ failure: 'communication' });
    const from = events(gateway, light).length;
    await rig.cloud.call(gateway.mac, 'emergency.start', { addrs: [light], test: 'life', durationS: HOUR_S, allowWhileCharging: true });
    await poll(() => gateway.devices.get(light)!.state.emergencyState === 30, 'the light to go silent');
    expect((await status(gateway, [light]))[0]).toMatchObject({ state: 30, failures: ['communication'] });
    expect(reported(gateway, light).at(-1)).toMatchObject({ emergencyState: 30, fault: 9 });
    const refused = await rig.cloud.call(gateway.mac, 'emergency.start', { addrs: [light], test: 'function', durationS: 15 });
    expect(refused).toMatchObject({ ok: true, result: { started: [], refused: [{ addr: light, state: 30 }] } });
    expect(await rig.cloud.call(gateway.mac, 'emergency.stop', { addrs: [light] })).toMatchObject({ result: { stopped: [] } });
    // At the end of the test's hour it answers again, charging; its result never arrives.
    await poll(() => gateway.devices.get(light)!.state.emergencyState === 21, 'the light to answer again', 10_000);
    expect(gateway.devices.get(light)!.state.fault).toBe(0);
    const sent = events(gateway, light).slice(from);
    expect(sent.map((e) => e.progress)).toEqual([0, 10, 20, 30, 40]);
    expect(sent.some((e) => e.result !== undefined)).toBe(false);
  });

  it('keeps a result that comes while the cloud is away and sends it when back online', async () => {
    const gateway = await startGateway({ emergencyTimeFactor: 1 });
    const light = addrOf(gateway, 'emergency');
    const from = events(gateway, light).length;
    await rig.cloud.call(gateway.mac, 'emergency.start', { addrs: [light], test: 'function', durationS: 120 });
    await gateway.goOffline();
    await poll(() => gateway.devices.get(light)!.state.emergencyState === 27, 'the test to end on the gateway');
    expect(
      events(gateway, light)
        .slice(from)
        .some((e) => e.result !== undefined),
    ).toBe(false);
    await gateway.goOnline();
    await poll(
      () =>
        events(gateway, light)
          .slice(from)
          .some((e) => e.result === 0),
      'the kept result',
    );
    expect(
      events(gateway, light)
        .slice(from)
        .find((e) => e.result === 0),
    ).toMatchObject({ state: 27, durationS: 120 });
  });

  it('refuses a life test while charging unless the setting allows it, and stops a test by hand', async () => {
    // Emergency time at the clock's pace: the battery lasts 6.5 s of wall time, ample for the stop.
    const gateway = await startGateway({ emergencyTimeFactor: 1 });
    const light = addrOf(gateway, 'emergency');
    gateway.emergencyLight(light).set({ charge: 60 });
    expect(gateway.devices.get(light)!.state).toMatchObject({ battery: 60, emergencyState: 21 });
    const refused = await rig.cloud.call(gateway.mac, 'emergency.start', { addrs: [light], test: 'life', durationS: HOUR_S });
    expect(refused).toMatchObject({ ok: true, result: { started: [], refused: [{ addr: light, state: 29 }] } });

    const from = events(gateway, light).length;
    const long = { addrs: [light], test: 'life' as const, durationS: 10 * HOUR_S, allowWhileCharging: true };
    expect(await rig.cloud.call(gateway.mac, 'emergency.start', long)).toMatchObject({ result: { started: [light] } });
    const busy = await rig.cloud.call(gateway.mac, 'emergency.start', { addrs: [light], test: 'function', durationS: 15 });
    expect(busy).toMatchObject({ result: { refused: [{ addr: light, state: 18 }] } });
    const running = (await status(gateway, [light]))[0]!;
    expect(running).toMatchObject({ state: 18, test: 'life' });
    expect(await rig.cloud.call(gateway.mac, 'emergency.stop', { addrs: [light] })).toMatchObject({ result: { stopped: [light] } });
    await poll(
      () =>
        events(gateway, light)
          .slice(from)
          .some((e) => e.state === 26),
      'the stop event',
    );
    const stop = events(gateway, light)
      .slice(from)
      .find((e) => e.state === 26)!;
    expect(stop).toMatchObject({ test: 'life', result: LIFE_RESULTS.stopped, failures: [] });
    expect(stop.durationS).toBeLessThan(10 * HOUR_S);
    expect((await status(gateway, [light]))[0]).toMatchObject({ state: 26 });
    expect((await status(gateway, [light]))[0]!.test).toBeUndefined();
  });

  it('reads the status of several lights and refuses an address that is no emergency light', async () => {
    // A charging hour takes 3.6 s here, so the charge stays put while it is read.
    const gateway = await startGateway({ emergencyTimeFactor: 1 });
    const [a, b] = [addrOf(gateway, 'emergency'), addrOf(gateway, 'emergency-dimmable')];
    gateway.emergencyLight(b).set({ batteryCells: 8, batteryAgeYears: 1, charge: 50, lightType: 'non-maintained' });
    expect(await status(gateway, [a, b])).toEqual([
      {
        addr: a,
        state: 23,
        battery: 100,
        batteryVoltage: 5.2,
        ratedDurationMin: 180,
        failures: [],
        batteryCells: 4,
        lightType: 'maintained',
      },
      {
        addr: b,
        state: 16,
        battery: 50,
        batteryVoltage: Math.round(8 * cellVoltage(50) * 100) / 100,
        ratedDurationMin: 317,
        failures: [],
        batteryCells: 8,
        lightType: 'non-maintained',
      },
    ]);
    const other = addrOf(gateway, 'light-single');
    expect(await rig.cloud.call(gateway.mac, 'emergency.status', { addrs: [a, other] })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(() => gateway.emergencyLight(other)).toThrow();
    expect(() => gateway.emergencyLight(a).set({ batteryCells: 21 })).toThrow(RangeError);
    expect(() => gateway.emergencyLight(a).set({ charge: -1 })).toThrow(RangeError);
    const tooLong = await rig.cloud.call(gateway.mac, 'emergency.start', { addrs: [a], test: 'function', durationS: 255 });
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('charges back to full over a simulated day, reporting charging then fully charged', async () => {
    const gateway = await startGateway();
    const [on, plain] = [addrOf(gateway, 'emergency'), addrOf(gateway, 'emergency-dimmable')];
    gateway.emergencyLight(plain).set({ lightType: 'non-maintained' });
    gateway.emergencyLight(on).set({ charge: 0 });
    gateway.emergencyLight(plain).set({ charge: 0 });
    await poll(
      () => gateway.devices.get(on)!.state.battery === 100 && gateway.devices.get(plain)!.state.battery === 100,
      'full batteries',
      10_000,
    );
    await poll(() => reported(gateway, plain).at(-1)?.battery === 100, 'the last charging report');
    // Reports from the empty battery on (earlier ones, such as the full report at connect, may arrive late).
    const sinceEmpty = (addr: string) => {
      const all = reported(gateway, addr);
      return all.slice(all.findLastIndex((d) => d.battery === 0));
    };
    const charging = sinceEmpty(on);
    expect(charging.at(-1)).toMatchObject({ battery: 100, emergencyState: 23 });
    expect(charging.slice(0, -1).every((d) => d.emergencyState === 21 && d.battery! < 100)).toBe(true);
    const levels = charging.map((d) => d.battery!);
    expect(levels.every((b, i) => i === 0 || b >= levels[i - 1]!)).toBe(true);
    // Fast first (about 8 % in the first hour), tapering at the end; full after 24 hours.
    expect(levels.length).toBe(25);
    expect(levels[1]! - levels[0]!).toBeGreaterThanOrEqual(8);
    expect(levels[24]! - levels[23]!).toBeLessThanOrEqual(1);
    expect(sinceEmpty(plain).at(-1)).toMatchObject({ battery: 100, emergencyState: 15 });
    expect(
      sinceEmpty(plain)
        .slice(0, -1)
        .every((d) => d.emergencyState === 16),
    ).toBe(true);
    // Switched off, a maintained light reports "off": a fully charged battery then shows 24.
    await rig.cloud.call(gateway.mac, 'device.control', { addr: on, action: { on: false } });
    gateway.emergencyLight(on).set({ charge: 100 });
    expect(gateway.devices.get(on)!.state.emergencyState).toBe(24);
  });
});
