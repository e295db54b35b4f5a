import { RATED_POWER_W, type TelemetryMessage } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import { gatewaysOnTestCloud, poll } from './broker.fixtures.ts';
import { createDevice } from './devices.ts';
import { STANDBY_POWER_W, SWITCH_CHANNEL_LOAD_W, advanceCounter, isMetered, localTimeOf, officeUsage, powerOf, powerW } from './energy.ts';
import type { SimGateway } from './gateway.ts';

const DAY_MS = 24 * 3_600_000;

describe('power and energy counters of simulated devices', () => {
  it('draws brightness times rated power when on, standby when off, and each switched channel its load', () => {
    for (const kind of ['light-dimmer', 'light-cct', 'light-rgb'] as const) {
      const light = createDevice('01', kind, 1, 0);
      expect(powerW(light), kind).toBe(STANDBY_POWER_W);
      Object.assign(light.state, { on: true, level: 254 });
      expect(powerW(light), kind).toBe(RATED_POWER_W[kind]);
      light.state.level = 127;
      expect(powerW(light), kind).toBeCloseTo(RATED_POWER_W[kind]! / 2, 2);
    }
    const sw = createDevice('02', 'switch-3', 2, 0);
    expect(powerW(sw)).toBe(STANDBY_POWER_W);
    sw.state.channels = [true, false, true];
    expect(powerW(sw)).toBe(STANDBY_POWER_W + 2 * SWITCH_CHANNEL_LOAD_W);
    expect(powerOf({ kind: 'light-cct', online: false, on: true, level: 254 })).toBe(0);
    expect(isMetered('sensor-motion') || isMetered('curtain') || isMetered('bridge')).toBe(false);
  });

  it('keeps a counter that only grows, back to 0 only when the device resets', () => {
    const light = createDevice('03', 'light-single', 3, 0);
    let previous = 0;
    for (let i = 0; i < 100; i++) {
      expect(advanceCounter(light, 12, 0.25, 0, Math.random)).toBe(false);
      expect(light.energyWh).toBeGreaterThan(previous);
      previous = light.energyWh;
    }
    expect(light.energyWh).toBeCloseTo(300, 6);
    // A chance below rate x hours / 24 resets: the counter starts again with this interval's energy.
    expect(advanceCounter(light, 12, 0.25, 0.01, () => 0.0001)).toBe(true);
    expect(light.energyWh).toBe(3);
    expect(advanceCounter(light, 12, 0.25, 0.01, () => 0.0002)).toBe(false);
    expect(light.energyWh).toBe(6);
  });

  it('plays an office day: on in working hours, dimmed more at midday, off at night, maintained emergency lights', () => {
    const light = createDevice('00124B0000000004', 'light-dimmer', 4, 0);
    const at = (iso: string) => localTimeOf(Date.parse(iso), 'Asia/Tokyo');
    // 2026-11-24 is a Tuesday; 03:00, 10:00 and 13:00 in Tokyo.
    expect(at('2026-11-23T18:00:00Z')).toEqual({ date: '2026-11-24', weekday: 2, minute: 180 });
    expect(officeUsage(light, at('2026-11-23T18:00:00Z'))).toMatchObject({ on: false });
    const days = Array.from({ length: 20 }, (_, i) => new Date(Date.parse('2026-11-02T01:00:00Z') + i * DAY_MS).toISOString());
    const weekdays = days.filter((iso) => ![0, 6].includes(at(iso).weekday));
    const morning = weekdays.map((iso) => officeUsage(light, at(iso)));
    // On most weekdays at 10:00, never above full, never below 10 %.
    expect(morning.filter((u) => u.on).length).toBeGreaterThan(weekdays.length * 0.7);
    for (const u of morning.filter((m) => m.on)) expect(u.level).toBeGreaterThanOrEqual(25);
    const noon = officeUsage(light, at(weekdays[0]!.replace('T01', 'T04')));
    if (morning[0]!.on) expect(noon.level).toBeLessThan(morning[0]!.level!);
    const emergency = createDevice('05', 'emergency', 5, 0);
    expect(officeUsage(emergency, at('2026-11-23T18:00:00Z'))).toEqual({ on: true, level: 254 });
  });
});

describe('energy history backfill over MQTT', () => {
  const rig = gatewaysOnTestCloud('A4C138E0');
  const { startGateway } = rig;

  const telemetryOf = (gateway: SimGateway): TelemetryMessage[] =>
    rig.cloud.up.flatMap((m) => (m.mac === gateway.mac && m.channel === 'telemetry' ? [m.message] : []));

  it('sends a sample of every metered device every step for the days back, counters growing, as much as it integrated', async () => {
    const gateway = await startGateway({ counterResetRate: 0 });
    gateway.params = { ...gateway.params, timezone: 'Europe/London' };
    const metered = [...gateway.devices.values()].filter((d) => isMetered(d.state.kind));
    const outcome = await gateway.backfillEnergy({ days: 3, stepMinutes: 15 });
    const steps = 3 * 96 + 1;
    expect(outcome).toMatchObject({ samples: steps * metered.length, messages: steps, resets: 0 });
    expect(outcome.until).toBeLessThanOrEqual(gateway.clock.now());
    expect(outcome.until - outcome.from).toBe(3 * DAY_MS);
    await poll(() => telemetryOf(gateway).length === steps, 'every backfill message');

    const messages = telemetryOf(gateway);
    expect(messages.map((m) => m.ts)).toEqual(Array.from({ length: steps }, (_, i) => outcome.from + i * 15 * 60_000));
    const counters = new Map<string, number[]>();
    for (const m of messages) for (const s of m.samples) counters.set(s.addr, [...(counters.get(s.addr) ?? []), s.energyWh!]);
    expect([...counters.keys()].sort()).toEqual(metered.map((d) => d.state.addr).sort());
    let used = 0;
    for (const values of counters.values()) {
      for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
      used += values.at(-1)! - values[0]!;
    }
    expect(outcome.days.reduce((sum, d) => sum + d.energyWh, 0)).toBeCloseTo(used, 1);
    expect(outcome.days.map((d) => d.date)).toEqual([...new Set(outcome.days.map((d) => d.date))].sort());
    // The live counters go on from the history's last readings.
    for (const device of metered) expect(device.energyWh).toBeCloseTo(counters.get(device.state.addr)!.at(-1)!, 2);
  });

  it('plays counter resets at the configured rate', async () => {
    const gateway = await startGateway({ counterResetRate: 24, random: () => 0.5 });
    // A chance of 24 x 0.25 h / 24 = 0.25 per sample: never below 0.5, so none; at rate 96 every sample resets.
    expect((await gateway.backfillEnergy({ days: 1, stepMinutes: 15 })).resets).toBe(0);
    const resetting = await startGateway({ counterResetRate: 96, random: () => 0.5 });
    const outcome = await resetting.backfillEnergy({ days: 1, stepMinutes: 60 });
    const metered = [...resetting.devices.values()].filter((d) => isMetered(d.state.kind)).length;
    expect(outcome.resets).toBe(24 * metered);
  });

  it('holds live telemetry until released, so the history comes first', async () => {
    const gateway = await startGateway({ holdTelemetry: true, activityIntervalS: 1, timeFactor: 1000 });
    // Three report intervals of simulated time: the telemetry timer has come round while held.
    const heldFrom = gateway.clock.now();
    const intervalMs = (gateway.params.reportIntervalS ?? 60) * 1000;
    await poll(() => gateway.clock.now() - heldFrom > 3 * intervalMs, 'three report intervals');
    expect(telemetryOf(gateway)).toEqual([]);
    const outcome = await gateway.backfillEnergy({ days: 1, stepMinutes: 60 });
    gateway.releaseTelemetry();
    await poll(() => telemetryOf(gateway).some((m) => m.ts > outcome.until), 'live telemetry after the history');
    const times = telemetryOf(gateway).map((m) => m.ts);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
