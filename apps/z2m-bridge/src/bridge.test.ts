import { poll, startTestCloud, type TestCloud } from '@lumigrid/gateway-sim/broker.fixtures';
import type { DecodedUp, DeviceState, EventMessage, GatewayConfig, JoinedDevice, ReplyMessage } from '@lumigrid/protocol';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Z2mBridge, z2mGroupName } from './bridge.ts';
import { expectedImports } from './stand-in/catalogue.ts';
import { Z2mStandIn } from './stand-in/stand-in.ts';

const ok = (reply: ReplyMessage) => {
  if (!reply.ok) throw new Error(`command failed: ${reply.error.code} ${reply.error.message ?? ''}`);
  return reply.result as Record<string, unknown>;
};

describe('the Zigbee2MQTT bridge between the stand-in and a cloud on one broker', () => {
  let cloud: TestCloud;
  let standIn: Z2mStandIn;
  let bridge: Z2mBridge;
  let mac: string;
  let joined: JoinedDevice[];
  const logs: string[] = [];
  const addrOf = (name: string) =>
    bridge.devices.get([...bridge.devices.keys()].find((a) => bridge.devices.get(a)!.mapped.friendlyName === name)!)!.mapped.addr;
  const reports = (addr: string): DeviceState[] =>
    cloud.up.flatMap((m) => (m.mac === mac && m.channel === 'report' ? m.message.devices.filter((d) => d.addr === addr) : []));
  const lastReport = (addr: string) => reports(addr).at(-1);
  const events = (type: EventMessage['type']) =>
    cloud.up.flatMap((m: DecodedUp) => (m.mac === mac && m.channel === 'event' && m.message.type === type ? [m.message] : []));
  const setsTo = (target: string) => standIn.received.filter((s) => s.target === target).map((s) => s.payload);

  beforeAll(async () => {
    cloud = await startTestCloud();
    standIn = new Z2mStandIn({ url: cloud.url });
    await standIn.start();
    bridge = new Z2mBridge({ url: cloud.url, password: 'unused-on-aedes', scheduleCheckMs: 20, log: (line) => logs.push(line) });
    await bridge.start();
    mac = bridge.gatewayMac!;
  });
  afterAll(async () => {
    await bridge?.stop();
    await standIn?.stop();
    await cloud?.close();
  });

  it("connects as the gateway named by the coordinator's IEEE address and lists what maps, logging what does not", async () => {
    expect(mac).toBe('4B0024C2B1A0');
    await poll(() => cloud.up.some((m) => m.mac === mac && m.channel === 'state' && m.message.state === 'online'), 'online state');
    joined = ok(await cloud.call(mac, 'devices.list', {})).devices as JoinedDevice[];
    expect(Object.fromEntries(joined.map((d) => [d.addr, d.kind]))).toEqual(expectedImports());
    expect(logs.some((l) => l.includes('not offered to Lumigrid: Store door (MCCGQ11LM') && l.includes('contact'))).toBe(true);
  });

  it('switches and dims through /set with brightness 0-254 and colour temperature in mireds, and reports the new state', async () => {
    const hall = addrOf('Hall ceiling');
    ok(await cloud.call(mac, 'device.control', { addr: hall, action: { level: 127 } }));
    await poll(() => setsTo('Hall ceiling').length === 1, 'the /set of the dimming');
    expect(setsTo('Hall ceiling')[0]).toEqual({ state: 'ON', brightness: 127 });
    await poll(() => lastReport(hall)?.level === 127 && lastReport(hall)?.on === true, 'the dimmed state reported');
    ok(await cloud.call(mac, 'device.control', { addr: hall, action: { cct: 2000, fade: 20 } }));
    await poll(() => setsTo('Hall ceiling').length === 2, 'the /set of the colour temperature');
    // 2000 K is 500 mireds, past this bulb's warmest 454.
    expect(setsTo('Hall ceiling')[1]).toEqual({ color_temp: 454, transition: 2 });
    await poll(() => lastReport(hall)?.cct === 2203, 'the colour temperature reported in kelvin');
    ok(await cloud.call(mac, 'device.control', { addr: addrOf('Entrance switch'), action: { on: true, channel: 2 } }));
    await poll(() => lastReport(addrOf('Entrance switch'))?.channels?.join() === 'false,true', 'channel 2 reported on');
  });

  it('refuses what a device cannot do, unknown devices, and devices Zigbee2MQTT says are offline', async () => {
    const strip = addrOf('Desk strip');
    const unsupported = await cloud.call(mac, 'device.control', { addr: strip, action: { cct: 3000 } });
    expect(unsupported).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    expect(await cloud.call(mac, 'device.control', { addr: '00158D0002B3C4D5', action: { on: true } })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    await standIn.setAvailable('Desk strip', false);
    await poll(() => lastReport(strip)?.online === false, 'the strip reported offline');
    expect(lastReport(strip)?.fault).toBe(2);
    expect(await cloud.call(mac, 'device.control', { addr: strip, action: { on: true } })).toMatchObject({
      ok: false,
      error: { code: 'failed' },
    });
    await standIn.setAvailable('Desk strip', true);
    await poll(() => lastReport(strip)?.online === true, 'the strip back online');
    // Zigbee2MQTT itself gone: every device with it, until it is back.
    await standIn.setBridgeOnline(false);
    await poll(() => lastReport(addrOf('Hall ceiling'))?.online === false && lastReport(strip)?.online === false, 'every device offline');
    expect(await cloud.call(mac, 'device.control', { addr: strip, action: { on: true } })).toMatchObject({
      ok: false,
      error: { code: 'failed' },
    });
    await standIn.setBridgeOnline(true);
    await poll(() => lastReport(addrOf('Hall ceiling'))?.online === true && lastReport(strip)?.online === true, 'every device back');
  });

  it('makes each configured group a Zigbee2MQTT group and controls it with one group /set', async () => {
    const config: GatewayConfig = {
      groups: [{ id: 7, name: 'Hall', devices: [addrOf('Hall ceiling'), addrOf('Meeting colour'), addrOf('Hall motion')] }],
      scenes: [{ id: 1, name: 'Evening', steps: [{ target: { group: 7 }, action: { level: 60 } }] }],
      schedules: [],
      linkages: [{ sensor: addrOf('Hall motion'), targets: [{ group: 7 }], onDetect: { level: 254 }, onClear: { level: 20 }, holdS: 10 }],
      panelKeys: [{ panel: addrOf('Hall dimmer'), key: 1, scene: 1 }],
    };
    expect(ok(await cloud.call(mac, 'config.apply', { version: 3, config }))).toEqual({ version: 3 });
    const group = standIn.groups.get(z2mGroupName(7));
    // The motion sensor is no group member on the Zigbee side: groups carry lights, switches and covers.
    expect(group?.members.map((m) => m.ieee_address).sort()).toEqual(['0x0017880108a1b2c3', '0x0017880109d4e5f6']);
    ok(await cloud.call(mac, 'group.control', { group: 7, action: { on: true, cct: 6500 } }));
    // Its scene is stored in the group's lights, to be recalled with one command.
    await poll(() => setsTo(z2mGroupName(7)).length === 2, 'the scene stored and the group /set');
    expect(setsTo(z2mGroupName(7))).toEqual([
      { scene_add: { ID: 1, name: 'Evening', transition: 0, state: 'ON', brightness: 60 } },
      { state: 'ON', color_temp: 154 },
    ]);
    expect(group?.scenes).toEqual([{ id: 1, name: 'Evening' }]);
    // A configuration without the group removes it from Zigbee2MQTT.
    ok(await cloud.call(mac, 'config.apply', { version: 4, config: { ...config, groups: [], scenes: [], linkages: [], panelKeys: [] } }));
    expect(standIn.groups.has(z2mGroupName(7))).toBe(false);
    ok(await cloud.call(mac, 'config.apply', { version: 5, config }));
  });

  it('drives linkage from occupancy in linkage mode and runs panel keys, reporting motion and scene events', async () => {
    ok(await cloud.call(mac, 'sensors.mode', { mode: 'linkage' }));
    await standIn.report('Hall motion', { occupancy: true, illuminance: 30 });
    await poll(() => events('sensor').some((e) => e.type === 'sensor' && e.sensor === 'motion' && e.value === 1), 'the motion event');
    const last = () => JSON.stringify(setsTo(z2mGroupName(7)).at(-1));
    await poll(() => last() === JSON.stringify({ state: 'ON', brightness: 254 }), 'the linked group switched on');
    await standIn.press('Hall dimmer', 'on_press');
    await poll(() => events('scene').some((e) => e.type === 'scene' && e.trigger === 'panel' && e.scene === 1), 'the panel scene');
    await poll(() => last() === JSON.stringify({ scene_recall: 1 }), 'the scene of the panel key recalled in the group');
    await poll(() => standIn.stateOf('Meeting colour').brightness === 60, 'the group at the scene brightness');
    expect(standIn.stateOf('Hall ceiling')).toMatchObject({ state: 'ON', brightness: 60 });
  });

  it("runs schedules on the bridge's own clock", async () => {
    const config: GatewayConfig = {
      groups: [{ id: 7, name: 'Hall', devices: [addrOf('Hall ceiling'), addrOf('Meeting colour')] }],
      scenes: [{ id: 2, name: 'Morning', steps: [{ target: { device: addrOf('Desk strip') }, action: { level: 200 } }] }],
      schedules: [{ id: 9, scene: 2, days: [0, 1, 2, 3, 4, 5, 6], at: '06:30' }],
      linkages: [],
    };
    ok(await cloud.call(mac, 'config.apply', { version: 6, config }));
    ok(await cloud.call(mac, 'time.set', { time: Date.parse('2026-11-30T06:29:59.900Z'), timezone: 'UTC' }));
    await poll(
      () => events('scene').some((e) => e.type === 'scene' && e.trigger === 'schedule' && e.schedule === 9),
      'the scheduled scene',
    );
    await poll(() => setsTo('Desk strip').some((p) => p.brightness === 200), 'the scheduled /set');
    expect(setsTo('Desk strip').at(-1)).toEqual({ state: 'ON', brightness: 200 });
    const run = events('scene').find((e) => e.type === 'scene' && e.schedule === 9)!;
    expect(run.ts).toBe(Date.parse('2026-11-30T06:30:00Z'));
  });

  it('reports metering as telemetry and updates device firmware through Zigbee2MQTT OTA', async () => {
    ok(await cloud.call(mac, 'device.control', { addr: addrOf('Floor lamp plug'), action: { on: true } }));
    await poll(
      () =>
        cloud.up.some(
          (m) => m.channel === 'telemetry' && m.message.samples.some((s) => s.addr === addrOf('Floor lamp plug') && s.power === 60),
        ),
      'the plug power',
    );
    ok(await cloud.call(mac, 'firmware.update', { target: 'zigbee', version: '2026.11', url: 'https://example.com/ota' }));
    await poll(() => events('firmware').some((e) => e.type === 'firmware' && e.result !== undefined), 'the update outcome');
    expect(events('firmware').at(-1)).toMatchObject({ stage: 'done', result: 1 });
    const updated = standIn.requests.filter((r) => r.request === 'device/ota_update/update').map((r) => (r.payload as { id: string }).id);
    expect(updated.length).toBeGreaterThanOrEqual(4);
    expect(await cloud.call(mac, 'firmware.update', { target: 'gateway', version: '1', url: 'https://example.com/x' })).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
  });

  it('keeps the configuration it runs across a restart, so it comes back synced and running it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'z2m-bridge-state-'));
    const options = { url: cloud.url, password: 'unused-on-aedes', mac: 'AABBCC000001', stateFile: join(dir, 'state.json') };
    try {
      const first = new Z2mBridge(options);
      await first.start();
      const config: GatewayConfig = {
        groups: [{ id: 3, name: 'Desk', devices: [addrOf('Desk strip')] }],
        scenes: [],
        schedules: [],
        linkages: [],
      };
      ok(await cloud.call('AABBCC000001', 'config.apply', { version: 12, config }));
      ok(await cloud.call('AABBCC000001', 'sensors.mode', { mode: 'linkage' }));
      await first.stop();
      const second = new Z2mBridge(options);
      await second.start();
      try {
        expect(ok(await cloud.call('AABBCC000001', 'gateway.info', {}))).toMatchObject({ configVersion: 12 });
        expect(second.config).toEqual(config);
        expect(second.params.sensorMode).toBe('linkage');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
