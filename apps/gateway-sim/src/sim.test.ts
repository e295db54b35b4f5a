import { DEVICE_KINDS, FAULT_CODES, decodeUp, upTopic } from '@lumigrid/protocol';
import { describe, expect, it, vi } from 'vitest';
import { SimClock } from './clock.ts';
import { SIMULATED_KINDS, applyAction, createDevice } from './devices.ts';
import { powerW } from './energy.ts';
import { createFleet, fleetMac } from './fleet.ts';
import { SimGateway } from './gateway.ts';
import { RadioLimiter } from './radio.ts';

describe('simulated devices', () => {
  it('covers every family of spec section 1 on a gateway and on a super gateway', () => {
    const every = DEVICE_KINDS.filter((k) => k !== 'super-gateway').sort();
    const gateway = new SimGateway({ mac: 'A4C138000001', password: 'x', url: 'mqtt://127.0.0.1:1' });
    expect([...new Set([...gateway.devices.values()].map((d) => d.state.kind))].sort()).toEqual(every);
    const sup = new SimGateway({ mac: 'A4C138000002', password: 'x', url: 'mqtt://127.0.0.1:1', superGateway: true });
    expect([...new Set([...sup.devices.values()].map((d) => d.state.kind))].sort()).toEqual(every);
    expect([...sup.devices.values()].filter((d) => !d.state.kind.startsWith('bridge')).every((d) => d.bridge)).toBe(true);
    expect(sup.info().superGateway).toBe(true);
  });

  it('adds a DALI bridge when a bus holds its 64 devices, each device on a free short address of its bus', () => {
    const gateway = new SimGateway({ mac: 'A4C138000005', password: 'x', url: 'mqtt://127.0.0.1:1', devicesPerKind: 66 });
    const all = [...gateway.devices.values()];
    const bridges = all.filter((d) => d.state.kind === 'bridge-dali');
    const dali = all.filter((d) => d.state.kind === 'dali');
    expect(dali).toHaveLength(66);
    expect(bridges.length).toBeGreaterThanOrEqual(2);
    for (const bridge of bridges) {
      const addresses = dali.filter((d) => d.bridge === bridge.state.addr).map((d) => d.daliAddress);
      expect(addresses.length).toBeLessThanOrEqual(64);
      expect(new Set(addresses).size).toBe(addresses.length);
    }
    expect(dali.every((d) => bridges.some((b) => b.state.addr === d.bridge))).toBe(true);
  });

  it('reports states that the protocol accepts', () => {
    for (const [i, kind] of SIMULATED_KINDS.entries()) {
      const device = createDevice(`00124B00000000${i.toString(16).toUpperCase().padStart(2, '0')}`, kind, i, 0);
      const decoded = decodeUp(upTopic('A4C138000001', 'report'), JSON.stringify({ ts: 0, full: true, devices: [device.state] }));
      expect(decoded.ok, kind).toBe(true);
    }
  });

  it('sends telemetry the protocol accepts, with plausible values per family', () => {
    const gateway = new SimGateway({ mac: 'A4C138000003', password: 'x', url: 'mqtt://127.0.0.1:1' });
    const sent: string[] = [];
    (gateway as unknown as { publish: (channel: string, body: unknown) => void }).publish = (channel, body) => {
      if (channel === 'telemetry') sent.push(JSON.stringify(body));
    };
    const kindOf = (addr: string) => gateway.devices.get(addr)!.state.kind;
    gateway.reportTelemetry();
    const samples = sent.flatMap((raw) => {
      const decoded = decodeUp(upTopic('A4C138000003', 'telemetry'), raw);
      if (!decoded.ok || decoded.value.channel !== 'telemetry') throw new Error(`refused: ${raw}`);
      return decoded.value.message.samples;
    });
    const dimmer = samples.find((s) => kindOf(s.addr) === 'light-dimmer')!;
    expect(dimmer.voltage).toBe(230);
    expect(dimmer.current).toBeCloseTo(dimmer.power! / 230, 3);
    expect(samples.find((s) => kindOf(s.addr) === 'sensor-daylight')).toMatchObject({ lux: 450 });
    expect(samples.find((s) => kindOf(s.addr) === 'emergency')).toMatchObject({ battery: 100, voltage: 230 });
    expect(samples.some((s) => kindOf(s.addr) === 'curtain')).toBe(false);
  });

  it('dims lights, switches channels, moves curtains and draws power by brightness', () => {
    const light = createDevice('01', 'light-cct', 1, 0);
    expect(applyAction(light, { level: 127, cct: 3000 })).toBe(true);
    expect(light.state).toMatchObject({ on: true, level: 127, cct: 3000 });
    expect(powerW(light)).toBeCloseTo(18 * (127 / 254), 2);
    expect(applyAction(light, { level: 127 })).toBe(false);
    const sw = createDevice('02', 'switch-3', 2, 0);
    applyAction(sw, { on: true });
    expect(sw.state.channels).toEqual([true, true, true]);
    const curtain = createDevice('03', 'curtain', 3, 0);
    applyAction(curtain, { on: true });
    expect(curtain.state.position).toBe(100);
  });
});

describe('clock, radio, fleet', () => {
  it('runs simulated time faster by the factor and can be set', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const clock = new SimClock(1000, 0);
      vi.advanceTimersByTime(50);
      expect(clock.now()).toBe(50_000);
      clock.set(Date.parse('2030-01-01T00:00:00Z'));
      expect(clock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'));
      // A simulated minute is 60 real milliseconds.
      let slept = false;
      void clock.sleep(60_000).then(() => (slept = true));
      await vi.advanceTimersByTimeAsync(59);
      expect(slept).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(slept).toBe(true);
      clock.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('spaces unicasts at 10/s and group commands at 1/s, and not at all when the rate is 0', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      /** The fake time at which each of `acquires` resolved, once the timers have run out. */
      const resolvedAt = async (acquires: Array<Promise<void>>) => {
        const times = acquires.map((acquire) => acquire.then(() => Date.now()));
        await vi.runAllTimersAsync();
        return Promise.all(times);
      };
      const radio = new RadioLimiter({ unicastPerSecond: 10, groupPerSecond: 1 });
      expect(await resolvedAt(Array.from({ length: 6 }, () => radio.acquire('unicast')))).toEqual([0, 100, 200, 300, 400, 500]);
      const groupsFrom = Date.now();
      const groups = await resolvedAt([radio.acquire('group'), radio.acquire('group')]);
      expect(groups.map((t) => t - groupsFrom)).toEqual([0, 1000]);
      const free = new RadioLimiter({ unicastPerSecond: 0, groupPerSecond: 0 });
      const freeFrom = Date.now();
      const unlimited = await resolvedAt(Array.from({ length: 100 }, () => free.acquire('group')));
      expect(new Set(unlimited.map((t) => t - freeFrom))).toEqual(new Set([0]));
    } finally {
      vi.useRealTimers();
    }
  });

  it('numbers MACs under a prefix', () => {
    expect(fleetMac('A4C138', 1)).toBe('A4C138000001');
    expect(fleetMac('A4C138', 255)).toBe('A4C1380000FF');
    expect(() => fleetMac('A4C138', 0x1000000)).toThrow();
    const fleet = createFleet({ url: 'mqtt://127.0.0.1:1', count: 3, superGateways: 1, password: 'x' });
    expect(fleet.gateways.map((g) => g.superGateway)).toEqual([false, false, true]);
  });
});

describe('device faults', () => {
  it('raises and clears a fault; offline (2) takes the device off the network', () => {
    const gateway = new SimGateway({ mac: 'A4C138000003', password: 'x', url: 'mqtt://127.0.0.1:1' });
    const light = [...gateway.devices.values()].find((d) => d.state.kind === 'light-rgb')!;
    gateway.raiseFault(light.state.addr, 2);
    expect(light.state).toMatchObject({ fault: 2, online: false });
    gateway.clearFault(light.state.addr);
    expect(light.state).toMatchObject({ fault: 0, online: true });
    expect(() => gateway.raiseFault(light.state.addr, 12)).toThrow();
  });

  /** One background activity interval, run now (the gateway is not started, so nothing is sent). */
  const tick = (gateway: SimGateway) => (gateway as unknown as { tick(): void }).tick();
  const always = () => 0;

  it('keeps a fault until it is cleared, however many activity intervals pass, even with no fault rate', () => {
    const gateway = new SimGateway({ mac: 'A4C138000004', password: 'x', url: 'mqtt://127.0.0.1:1', faultRate: 0, random: always });
    const byKind = (kind: string) => [...gateway.devices.values()].find((d) => d.state.kind === kind)!;
    const emergency = byKind('emergency');
    const light = byKind('light-rgb');
    gateway.raiseFault(emergency.state.addr, FAULT_CODES.battery);
    gateway.raiseFault(light.state.addr, FAULT_CODES.led);
    for (let i = 0; i < 50; i++) tick(gateway);
    expect(emergency.state.fault).toBe(FAULT_CODES.battery);
    expect(light.state.fault).toBe(FAULT_CODES.led);
    expect([...gateway.devices.values()].filter((d) => d.state.fault !== 0)).toHaveLength(2);
    gateway.clearFault(light.state.addr);
    expect(light.state.fault).toBe(0);
  });

  it('flaps only when asked, and only the faults the background activity raised itself', () => {
    const gateway = new SimGateway({
      mac: 'A4C138000005',
      password: 'x',
      url: 'mqtt://127.0.0.1:1',
      faultRate: 1,
      faultClearRate: 1,
      random: always,
    });
    const devices = [...gateway.devices.values()];
    const byHand = devices.find((d) => d.state.kind === 'emergency')!;
    gateway.raiseFault(byHand.state.addr, FAULT_CODES.battery);
    tick(gateway);
    // Every other device got a background fault (offline, the first of its codes)...
    expect(devices.filter((d) => d !== byHand).every((d) => d.state.fault === FAULT_CODES.offline)).toBe(true);
    tick(gateway);
    // ...which flaps away at the next interval; the one raised by hand stays.
    expect(devices.filter((d) => d !== byHand).every((d) => d.state.fault === 0 && d.state.online)).toBe(true);
    expect(byHand.state.fault).toBe(FAULT_CODES.battery);
  });
});
