import {
  deviceEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  heatmapEndpoints,
  newSceneFields,
  projectEndpoints,
  sceneEndpoints,
  type Device,
  type DeviceMarker,
  type GatewayDevice,
  type GroupView,
} from '@lumigrid/contract';
import { Z2mBridge, Z2mStandIn, expectedImports, z2mGroupName } from '@lumigrid/z2m-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOSQUITTO_URL, runPrefix, startPlainBroker } from '../../test/gateway-link.fixtures.ts';
import { BROKERS, buildGatewayWithDevices, data } from '../../test/gateways.fixtures.ts';
import { endpointCaller, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';

/**
 * The platform, the Zigbee2MQTT bridge and the Zigbee2MQTT stand-in with real definitions, over real MQTT:
 * on the embedded broker Zigbee2MQTT has a broker of its own (two brokers); on Mosquitto (TEST_MQTT_URL) all
 * three share it under a base topic of this run's own.
 */
describe.each(BROKERS)('a Zigbee2MQTT installation as a Lumigrid gateway over the %s broker', (broker) => {
  let h: Harness;
  let zigbee: { url: string; close(): Promise<void> } | undefined;
  let standIn: Z2mStandIn;
  let bridge: Z2mBridge;
  let token: string;
  let mapId: string;
  let gatewayId: string;
  let devices: GatewayDevice[];
  const mac = `${runPrefix()}2B0001`;
  const send = endpointCaller(
    () => h.app,
    () => token,
  );
  const byModel = (model: string) => devices.find((d) => d.model === model)!;
  const setsTo = (target: string) => standIn.received.filter((s) => s.target === target).map((s) => s.payload);
  const detail = (id: string) => data<Device>(send(deviceEndpoints.detail, { params: { mapId, id } }));
  const marker = async (id: string) =>
    (await data<DeviceMarker[]>(send(deviceEndpoints.markers, { query: { mapId } }))).find((m) => m.id === id)!;

  beforeAll(async () => {
    const external = broker === 'mosquitto';
    h = await startApp(
      'pglite',
      { HOST: '127.0.0.1', ...(external ? { MQTT_URL: MOSQUITTO_URL } : {}) },
      { gatewayLink: { port: 0, commandTimeoutMs: 5000, ...(external ? { sharedGroup: `lumigrid-test-${runPrefix()}` } : {}) } },
    );
    const lumigridUrl = external ? MOSQUITTO_URL : `mqtt://127.0.0.1:${h.app.gatewayLink!.brokerPort}`;
    // A broker of Zigbee2MQTT's own, for the two-broker set-up: the embedded broker admits only gateways.
    zigbee = external ? undefined : await startPlainBroker();
    const z2mUrl = zigbee?.url ?? MOSQUITTO_URL;
    const baseTopic = `z2m-test-${runPrefix()}`;
    standIn = new Z2mStandIn({ url: z2mUrl, baseTopic });
    await standIn.start();
    await h.app.gatewayFleet.provision(mac, `pw-${mac}`);
    bridge = new Z2mBridge({ mac, password: `pw-${mac}`, url: lumigridUrl, z2mUrl, baseTopic, scheduleCheckMs: 50 });
    await bridge.start();
    await poll(() => h.app.gatewayLink!.presence.isOnline(mac) === true, 'the bridge online as a gateway');
    token = await signUpByMail(h, 'zigbee@example.com');
    const built = await buildGatewayWithDevices(h, token, { mac, name: 'Zigbee2MQTT', place: () => true });
    ({ mapId, devices } = built);
    gatewayId = built.gateway.id;
  }, 60_000);
  afterAll(async () => {
    await bridge?.stop();
    await standIn?.stop();
    if (broker === 'mosquitto') await h?.app.gatewayLink?.clearState(mac).catch(() => undefined);
    await h?.close();
    await zigbee?.close();
  });

  it('offers the Zigbee devices for import as the kinds their definitions make them, and nothing it cannot map', async () => {
    const check = await data(send(gatewayEndpoints.checkImport, { params: { id: gatewayId } }));
    expect(check.total).toBe(8);
    expect(Object.fromEntries(devices.map((d) => [d.addr, d.kind]))).toEqual(expectedImports());
    // Placed on the floor plan, each with a marker.
    expect((await data<DeviceMarker[]>(send(deviceEndpoints.markers, { query: { mapId } }))).length).toBe(8);
  });

  it('switches and dims from the API: Zigbee2MQTT receives /set payloads in its ranges and the state comes back', async () => {
    const hue = byModel('9290022169');
    const steps: Array<[GatewayDevice, object, string, Record<string, unknown>, (d: Device) => boolean]> = [
      [hue, { op: 'onOff', on: true }, 'Hall ceiling', { state: 'ON' }, (d) => d.display === 'onFull'],
      [hue, { op: 'brightness', percent: 50 }, 'Hall ceiling', { state: 'ON', brightness: 127 }, (d) => d.display === 'onPartial'],
      [hue, { op: 'cct', kelvin: 2700 }, 'Hall ceiling', { color_temp: 370 }, () => standIn.stateOf('Hall ceiling').color_temp === 370],
      [
        byModel('ZS-EUB_2gang'),
        { op: 'channel', channel: 2, on: true },
        'Entrance switch',
        { state_right: 'ON' },
        (d) => d.display === 'onPartial',
      ],
      [
        byModel('E1757'),
        { op: 'position', percent: 40 },
        'Window blind',
        { position: 40 },
        () => standIn.stateOf('Window blind').position === 40,
      ],
    ];
    for (const [device, action, name, payload, reached] of steps) {
      const before = setsTo(name).length;
      expect(await data(send(deviceEndpoints.control, { body: { id: device.id, action } as never }))).toBeNull();
      await poll(() => setsTo(name).length > before, `the /set of ${JSON.stringify(action)}`);
      expect(setsTo(name).at(-1)).toEqual(payload);
      await poll(async () => reached(await detail(device.id)), `${name} after ${JSON.stringify(action)}`);
    }
  });

  it('creates a group as a Zigbee2MQTT group and controls it with one group command', async () => {
    const members = [byModel('9290022169'), byModel('9290012573A')];
    const group = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId, gatewayId, name: 'Meeting room', deviceIds: members.map((m) => m.id) } }),
    );
    await data(send(gatewayEndpoints.sync, { params: { id: gatewayId } }));
    const z2mGroup = () => [...standIn.groups.values()].find((g) => g.friendly_name === z2mGroupName(bridge.config.groups[0]?.id ?? 0));
    await poll(() => z2mGroup()?.members.length === 2, 'the Zigbee2MQTT group with both lights');
    expect(
      z2mGroup()!
        .members.map((m) => m.ieee_address)
        .sort(),
    ).toEqual(['0x0017880108a1b2c3', '0x0017880109d4e5f6']);
    const result = await data(send(groupEndpoints.control, { body: { id: group.id, action: { op: 'brightness', percent: 100 } } }));
    expect(result.mode).toBe('group');
    await poll(() => setsTo(z2mGroup()!.friendly_name).length === 1, 'the group /set');
    expect(setsTo(z2mGroup()!.friendly_name)[0]).toEqual({ state: 'ON', brightness: 254 });
  });

  it("runs a schedule on the bridge's clock, with no command from the platform", async () => {
    const tree = await data(send(projectEndpoints.tree, { params: { id: '0' } }));
    const projectId = tree.projects.find((p) => p.isDefault)!.id;
    const strip = byModel('ICPSHC24-10EU-IL-1/ICPSHC24-10EU-IL-2');
    const at = Date.parse('2026-11-26T18:00:00Z');
    const saved = await data(
      send(sceneEndpoints.add, {
        body: {
          ...newSceneFields(projectId, 'schedule', 'Thursday six'),
          steps: [{ members: [{ type: 'device', id: strip.id, action: { on: true, percent: 80 } }], holdS: 0 }],
          days: [4],
          triggers: [{ at: '18:00', offsetMin: 0, then: 'start' }],
        },
      }),
    );
    expect(saved.sync[0]?.code).toBe(0);
    await poll(() => bridge.config.schedules.length > 0, 'the schedule on the bridge');
    const before = setsTo('Desk strip').length;
    bridge.setClock(at - 200);
    await poll(() => setsTo('Desk strip').length > before, 'the scheduled /set');
    expect(setsTo('Desk strip').at(-1)).toEqual({ state: 'ON', brightness: 203 });
    expect(bridge.sceneLog.at(-1)).toMatchObject({ trigger: 'schedule', at });
  });

  it('lets occupancy drive a linked group on the bridge', async () => {
    const sensor = byModel('RTCGQ11LM');
    const group = await data<GroupView>(
      send(groupEndpoints.add, {
        body: { mapId, gatewayId, name: 'Corridor', deviceIds: [byModel('ICPSHC24-10EU-IL-1/ICPSHC24-10EU-IL-2').id] },
      }),
    );
    const linkage = { sensorId: sensor.id, groupId: group.id, onDetectPercent: 90, onClearPercent: 0, holdS: 30, lux: null };
    await data(send(sceneEndpoints.saveLinkage, { body: linkage }));
    await data(send(gatewayEndpoints.sensorsLinkage, { params: { id: gatewayId } }));
    await poll(() => bridge.config.linkages.length === 1 && bridge.params.sensorMode === 'linkage', 'the linkage running on the bridge', {
      timeoutMs: 20_000,
    });
    const target = z2mGroupName(bridge.config.linkages[0]!.targets.map((t) => ('group' in t ? t.group : 0))[0]!);
    const before = setsTo(target).length;
    await standIn.report('Hall motion', { occupancy: true });
    await poll(() => setsTo(target).length > before, 'the linked group switched by occupancy');
    expect(setsTo(target).at(-1)).toEqual({ state: 'ON', brightness: 229 });
    // The motion event is an activation of the heatmap, on the bridge's clock (the schedule's day).
    const day = new Date(bridge.now()).toISOString().slice(0, 10);
    await poll(async () => {
      const heat = await data(send(heatmapEndpoints.gen, { body: { mapId, from: day, to: day } }));
      return heat.sensors.some((s) => s.id === sensor.id && s.count > 0);
    }, 'the activation on the heatmap');
  });

  it('shows a device Zigbee2MQTT reports unavailable as offline on the plan', async () => {
    const strip = byModel('ICPSHC24-10EU-IL-1/ICPSHC24-10EU-IL-2');
    await standIn.setAvailable('Desk strip', false);
    await poll(async () => (await marker(strip.id)).display === 'offline', 'the strip offline on the plan');
    await standIn.setAvailable('Desk strip', true);
    await poll(async () => (await marker(strip.id)).display !== 'offline', 'the strip back');
  });
});
