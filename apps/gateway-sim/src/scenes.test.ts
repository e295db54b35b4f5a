import { sunTimes, type DeviceKind, type DeviceState, type EventMessage, type GatewayConfig } from '@lumigrid/protocol';
import { describe, expect, it } from 'vitest';
import { gatewaysOnTestCloud, poll } from './broker.fixtures.ts';
import type { SimGateway } from './gateway.ts';

type SceneEvent = Extract<EventMessage, { type: 'scene' }>;

const TOKYO = { latitude: 35.6895, longitude: 139.6917, timezone: 'Asia/Tokyo' };
const MINUTE = 60_000;

/** Started gateways whose simulated time runs 1200 times faster (a schedule's minute is 50 ms). */
const rig = gatewaysOnTestCloud('A4C1385C', { timeFactor: 1200 });
const { startGateway } = rig;

const addrOf = (gateway: SimGateway, kind: DeviceKind) => [...gateway.devices.values()].find((d) => d.state.kind === kind)!.state.addr;
const stateOf = (gateway: SimGateway, addr: string) => gateway.devices.get(addr)!.state;

function sceneEvents(gateway: SimGateway): SceneEvent[] {
  return rig.cloud.up.flatMap((m) => (m.mac === gateway.mac && m.channel === 'event' && m.message.type === 'scene' ? [m.message] : []));
}

/** Device states reported by a gateway for one device, oldest first. */
function reported(gateway: SimGateway, addr: string): DeviceState[] {
  return rig.cloud.up.flatMap((m) =>
    m.mac === gateway.mac && m.channel === 'report' ? m.message.devices.filter((d) => d.addr === addr) : [],
  );
}

async function apply(gateway: SimGateway, config: Partial<GatewayConfig>) {
  const reply = await rig.cloud.call(gateway.mac, 'config.apply', {
    version: gateway.configVersion + 1,
    config: { groups: [], scenes: [], schedules: [], linkages: [], ...config },
  });
  expect(reply).toMatchObject({ ok: true });
}

describe('schedules on the gateway clock', () => {
  it('runs a clock-time and a sunset schedule with no command, reporting each as a scene event', async () => {
    const gateway = await startGateway();
    const [evening, dusk] = [addrOf(gateway, 'light-cct'), addrOf(gateway, 'light-dimmer')];
    await rig.cloud.call(gateway.mac, 'params.set', { params: TOKYO });
    await apply(gateway, {
      scenes: [
        { id: 1, name: 'Evening', steps: [{ target: { device: evening }, action: { on: true, level: 100 } }] },
        { id: 2, name: 'Dusk', steps: [{ target: { device: dusk }, action: { on: true, level: 200 } }] },
      ],
      schedules: [
        // 2026-11-23 is a Monday; 19:30 in Tokyo is 10:30 UTC.
        { id: 10, scene: 1, days: [1], at: '19:30' },
        { id: 11, scene: 2, days: [0, 1, 2, 3, 4, 5, 6], at: 'sunset' },
      ],
    });

    gateway.clock.set(Date.parse('2026-11-23T10:29:00Z'));
    await poll(() => sceneEvents(gateway).length === 1, 'the 19:30 scene event');
    expect(stateOf(gateway, evening)).toMatchObject({ on: true, level: 100 });
    expect(sceneEvents(gateway)[0]).toEqual({
      type: 'scene',
      ts: Date.parse('2026-11-23T10:30:00Z'),
      scene: 1,
      trigger: 'schedule',
      schedule: 10,
      targets: 1,
      failed: 0,
    });
    expect(reported(gateway, evening).at(-1)).toMatchObject({ on: true, level: 100 });

    const sunset = sunTimes('2026-11-24', TOKYO).sunset!;
    gateway.clock.set(sunset - MINUTE);
    await poll(() => sceneEvents(gateway).length === 2, 'the sunset scene event');
    expect(stateOf(gateway, dusk)).toMatchObject({ on: true, level: 200 });
    expect(sceneEvents(gateway)[1]).toMatchObject({ ts: sunset, scene: 2, trigger: 'schedule', schedule: 11 });
  });

  it('runs its schedule while disconnected and sends the event with its time after the online state', async () => {
    const gateway = await startGateway();
    const light = addrOf(gateway, 'light-cct');
    await apply(gateway, {
      scenes: [{ id: 4, name: 'Night', steps: [{ target: { device: light }, action: { on: true, level: 30 } }] }],
      schedules: [{ id: 1, scene: 4, days: [1], at: '19:30' }],
    });
    await gateway.goOffline();
    gateway.clock.set(Date.parse('2026-11-23T19:29:00Z'));
    await poll(() => gateway.sceneLog.some((s) => s.scene === 4), 'the scheduled scene');
    expect(stateOf(gateway, light)).toMatchObject({ on: true, level: 30 });
    expect(sceneEvents(gateway)).toEqual([]);

    const reconnectFrom = rig.cloud.up.length;
    await gateway.goOnline();
    await poll(() => sceneEvents(gateway).length === 1, 'the kept scene event');
    expect(sceneEvents(gateway)[0]).toMatchObject({ ts: Date.parse('2026-11-23T19:30:00Z'), scene: 4, trigger: 'schedule', schedule: 1 });
    const afterReconnect = rig.cloud.up.slice(reconnectFrom).filter((m) => m.mac === gateway.mac);
    const online = afterReconnect.findIndex((m) => m.channel === 'state' && m.message.state === 'online');
    const event = afterReconnect.findIndex((m) => m.channel === 'event' && m.message.type === 'scene');
    expect(online).toBeGreaterThanOrEqual(0);
    expect(event).toBeGreaterThan(online);
  });
});

describe('manual scene runs', () => {
  it('runs a scene on scene.run, counting distinct targets and the unreachable ones', async () => {
    const gateway = await startGateway();
    const [dimmer, cct, rgb] = [addrOf(gateway, 'light-dimmer'), addrOf(gateway, 'light-cct'), addrOf(gateway, 'light-rgb')];
    gateway.raiseFault(rgb, 2);
    await apply(gateway, {
      groups: [{ id: 7, name: 'Gone', devices: [rgb] }],
      scenes: [
        {
          id: 3,
          name: 'Meeting',
          steps: [
            { target: { device: dimmer }, action: { on: true, level: 80 } },
            { target: { device: cct }, action: { on: true, cct: 3000 } },
            { target: { group: 7 }, action: { on: true } },
            // Delays add up along the steps: this one runs a simulated minute after the others.
            { target: { device: dimmer }, action: { level: 90 }, delayS: 60 },
          ],
        },
      ],
    });

    const reply = await rig.cloud.call(gateway.mac, 'scene.run', { scene: 3 });
    expect(reply).toMatchObject({ ok: true, result: { targets: 3, failed: 1 } });
    expect(stateOf(gateway, cct)).toMatchObject({ on: true, cct: 3000, manual: true });
    await poll(() => stateOf(gateway, dimmer).level === 90, 'the delayed step');
    await poll(() => sceneEvents(gateway).length === 1, 'the scene event');
    expect(sceneEvents(gateway)[0]).toMatchObject({ scene: 3, trigger: 'manual', targets: 3, failed: 1 });
    expect(sceneEvents(gateway)[0]).not.toHaveProperty('schedule');

    const unknown = await rig.cloud.call(gateway.mac, 'scene.run', { scene: 99 });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('runs the scene bound to a panel key', async () => {
    const gateway = await startGateway();
    const [panel, light] = [addrOf(gateway, 'panel-scene6'), addrOf(gateway, 'light-dimmer')];
    await apply(gateway, {
      scenes: [{ id: 5, name: 'Read', steps: [{ target: { device: light }, action: { on: true, level: 180 } }] }],
      panelKeys: [{ panel, key: 2, scene: 5 }],
    });
    expect(gateway.pressPanelKey(panel, 3)).toBe(false);
    expect(gateway.pressPanelKey(panel, 2)).toBe(true);
    expect(stateOf(gateway, light)).toMatchObject({ on: true, level: 180, manual: true });
    await poll(() => sceneEvents(gateway).length === 1, 'the panel scene event');
    expect(sceneEvents(gateway)[0]).toMatchObject({ scene: 5, trigger: 'panel', targets: 1, failed: 0 });
  });

  it('refuses a configuration whose scenes, schedules or panel keys name what does not exist', async () => {
    const gateway = await startGateway();
    const [light, panel] = [addrOf(gateway, 'light-single'), addrOf(gateway, 'panel-scene6')];
    const scene = { id: 1, name: 'S', steps: [{ target: { device: light }, action: { on: true } }] };
    const refusals: Array<[Partial<GatewayConfig>, string]> = [
      [{ scenes: [{ ...scene, steps: [{ target: { device: 'FFFF' }, action: { on: true } }] }] }, 'device FFFF'],
      [{ scenes: [{ ...scene, steps: [{ target: { group: 9 }, action: { on: true } }] }] }, 'group 9'],
      [{ scenes: [scene], schedules: [{ id: 1, scene: 2, days: [1], at: '08:00' }] }, 'scene 2'],
      [{ scenes: [scene], panelKeys: [{ panel: 'FFFF', key: 1, scene: 1 }] }, 'panel FFFF'],
      [{ scenes: [scene], panelKeys: [{ panel, key: 1, scene: 2 }] }, 'scene 2'],
    ];
    for (const [config, names] of refusals) {
      const reply = await rig.cloud.call(gateway.mac, 'config.apply', {
        version: 5,
        config: { groups: [], scenes: [], schedules: [], linkages: [], ...config },
      });
      expect(reply, names).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining(names) } });
    }
    expect(gateway.configVersion).toBe(0);
  });
});

describe('manual override', () => {
  it('marks devices switched by a person, hands them back on devices.auto and on the next scheduled scene', async () => {
    const gateway = await startGateway();
    const [single, cct, dimmer] = [addrOf(gateway, 'light-single'), addrOf(gateway, 'light-cct'), addrOf(gateway, 'light-dimmer')];
    await apply(gateway, {
      groups: [{ id: 1, name: 'Hall', devices: [dimmer] }],
      scenes: [{ id: 1, name: 'Off', steps: [{ target: { device: cct }, action: { on: false } }] }],
      schedules: [{ id: 1, scene: 1, days: [1], at: '22:00' }],
    });
    await rig.cloud.call(gateway.mac, 'device.control', { addr: single, action: { on: true } });
    await rig.cloud.call(gateway.mac, 'devices.control', { addrs: [cct], action: { on: true } });
    await rig.cloud.call(gateway.mac, 'group.control', { group: 1, action: { on: true } });
    await gateway.drained();
    for (const addr of [single, cct, dimmer]) await poll(() => reported(gateway, addr).at(-1)?.manual === true, `${addr} reported manual`);

    const auto = await rig.cloud.call(gateway.mac, 'devices.auto', { addrs: [single, addrOf(gateway, 'light-rgb')] });
    expect(auto).toMatchObject({ ok: true, result: { released: [single] } });
    await poll(() => reported(gateway, single).at(-1)?.manual === undefined, 'the released device reported');
    expect(stateOf(gateway, single)).toMatchObject({ on: true });

    gateway.clock.set(Date.parse('2026-11-23T21:59:00Z'));
    await poll(() => sceneEvents(gateway).length === 1, 'the scheduled scene');
    expect(stateOf(gateway, cct)).toMatchObject({ on: false });
    expect(stateOf(gateway, cct)).not.toHaveProperty('manual');
    expect(reported(gateway, cct).at(-1)).not.toHaveProperty('manual');
    // Only the devices the schedule set go back to automatic.
    expect(stateOf(gateway, dimmer).manual).toBe(true);
  });

  it('keeps linkage off an overridden device while it switches the others', async () => {
    const gateway = await startGateway({ activityIntervalS: 10, random: () => 0 });
    const [sensor, kept, linked] = [addrOf(gateway, 'sensor-motion'), addrOf(gateway, 'light-cct'), addrOf(gateway, 'light-dimmer')];
    await rig.cloud.call(gateway.mac, 'params.set', { params: { sensorMode: 'linkage' } });
    await rig.cloud.call(gateway.mac, 'device.control', { addr: kept, action: { level: 50 } });
    await apply(gateway, {
      linkages: [
        { sensor, targets: [{ device: kept }, { device: linked }], onDetect: { on: true, level: 254 }, onClear: { on: false }, holdS: 10 },
      ],
    });
    const from = reported(gateway, linked).length;
    // With random() 0 the motion sensor toggles every tick: the linked light goes on and off again.
    await poll(() => {
      const levels = reported(gateway, linked).slice(from);
      return levels.some((s) => s.on === true) && levels.some((s) => s.on === false);
    }, 'linkage switching the other light on and off');
    expect(stateOf(gateway, kept)).toMatchObject({ on: true, level: 50, manual: true });
  });

  it('ends an override by itself after overrideMin simulated minutes', async () => {
    const gateway = await startGateway();
    const light = addrOf(gateway, 'light-rgb');
    await apply(gateway, { overrideMin: 5 });
    await rig.cloud.call(gateway.mac, 'device.control', { addr: light, action: { on: true } });
    expect(stateOf(gateway, light).manual).toBe(true);
    const reportTimes = (manual: boolean) =>
      rig.cloud.up.flatMap((m) =>
        m.mac === gateway.mac &&
        m.channel === 'report' &&
        m.message.devices.some((d) => d.addr === light && d.on && Boolean(d.manual) === manual)
          ? [m.message.ts]
          : [],
      );
    await poll(() => reportTimes(true).length > 0 && reportTimes(false).length > 0, 'the override to end');
    const held = reportTimes(false)[0]! - reportTimes(true)[0]!;
    // Overrides end on the schedules' check, every 30 simulated seconds; the upper bound leaves room for a busy machine.
    expect(held).toBeGreaterThanOrEqual(5 * MINUTE - 10_000);
    expect(held).toBeLessThan(10 * MINUTE);
  });
});
