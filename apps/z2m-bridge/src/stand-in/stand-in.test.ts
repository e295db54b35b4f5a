import { createServer, type AddressInfo } from 'node:net';
import { poll } from '@lumigrid/gateway-sim/broker.fixtures';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Z2mDevice, Z2mGroup, Z2mResponse } from '../z2m-formats.ts';
import { Z2mStandIn } from './stand-in.ts';

describe('the Zigbee2MQTT stand-in', () => {
  let broker: Aedes;
  let server: ReturnType<typeof createServer>;
  let standIn: Z2mStandIn;
  let client: MqttClient;
  const seen = new Map<string, unknown>();
  const set = (name: string, payload: unknown) => client.publishAsync(`zigbee2mqtt/${name}/set`, JSON.stringify(payload), { qos: 1 });

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    server = createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
    standIn = new Z2mStandIn({ url });
    await standIn.start();
    client = await mqtt.connectAsync(url, { protocolVersion: 4 });
    client.on('message', (topic, payload) => seen.set(topic, payload.length ? JSON.parse(payload.toString()) : undefined));
    await client.subscribeAsync('zigbee2mqtt/#', { qos: 1 });
  });
  afterAll(async () => {
    await client?.endAsync();
    await standIn?.stop();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("publishes Zigbee2MQTT's retained bridge topics and each device's availability", async () => {
    await poll(() => seen.has('zigbee2mqtt/bridge/devices') && seen.has('zigbee2mqtt/Hall ceiling/availability'), 'retained topics');
    const devices = seen.get('zigbee2mqtt/bridge/devices') as Z2mDevice[];
    expect(devices[0]).toMatchObject({ type: 'Coordinator', definition: null });
    expect(devices.find((d) => d.friendly_name === 'Hall ceiling')?.definition?.model).toBe('9290022169');
    expect(seen.get('zigbee2mqtt/bridge/state')).toEqual({ state: 'online' });
    expect(seen.get('zigbee2mqtt/Hall ceiling/availability')).toEqual({ state: 'online' });
  });

  it("obeys /set within the definition's ranges and ignores what the device does not have", async () => {
    await set('Hall ceiling', { brightness: 300, color_temp: 600, transition: 1, colour: 'red' });
    await poll(() => (seen.get('zigbee2mqtt/Hall ceiling') as { brightness?: number })?.brightness === 254, 'the clamped state');
    expect(seen.get('zigbee2mqtt/Hall ceiling')).toMatchObject({ state: 'ON', brightness: 254, color_temp: 454 });
    expect(seen.get('zigbee2mqtt/Hall ceiling')).not.toHaveProperty('colour');
    await set('Hall ceiling', { state: 'TOGGLE' });
    await poll(() => standIn.stateOf('Hall ceiling').state === 'OFF', 'toggled off');
    await set('Window blind', { state: 'OPEN' });
    await poll(() => standIn.stateOf('Window blind').position === 100, 'the blind open');
    await set('Floor lamp plug', { state: 'ON' });
    await poll(() => standIn.stateOf('Floor lamp plug').power === 60, 'the plug drawing its load');
  });

  it('answers group requests with their transaction and keeps scenes in the group', async () => {
    await client.publishAsync('zigbee2mqtt/bridge/request/group/add', JSON.stringify({ friendly_name: 'Lounge', transaction: 't1' }), {
      qos: 1,
    });
    await poll(() => seen.has('zigbee2mqtt/bridge/response/group/add'), 'the answer');
    expect(seen.get('zigbee2mqtt/bridge/response/group/add')).toEqual({
      data: { friendly_name: 'Lounge', id: 1 },
      status: 'ok',
      transaction: 't1',
    });
    const add = { group: 'Lounge', device: '0x0017880109d4e5f6', transaction: 't2' };
    await client.publishAsync('zigbee2mqtt/bridge/request/group/members/add', JSON.stringify(add), { qos: 1 });
    await poll(() => (seen.get('zigbee2mqtt/bridge/groups') as Z2mGroup[] | undefined)?.[0]?.members.length === 1, 'the member');
    await set('Lounge', { scene_add: { ID: 4, name: 'Read', transition: 0, state: 'ON', brightness: 99 } });
    await poll(() => (seen.get('zigbee2mqtt/bridge/groups') as Z2mGroup[])[0]!.scenes.length === 1, 'the scene listed');
    await set('Lounge', { scene_recall: 4 });
    await poll(() => standIn.stateOf('Meeting colour').brightness === 99, 'the scene recalled');
    await client.publishAsync('zigbee2mqtt/bridge/request/group/add', JSON.stringify({ friendly_name: 'Lounge', transaction: 't3' }), {
      qos: 1,
    });
    await poll(() => (seen.get('zigbee2mqtt/bridge/response/group/add') as Z2mResponse).transaction === 't3', 'the refusal');
    expect(seen.get('zigbee2mqtt/bridge/response/group/add')).toMatchObject({
      status: 'error',
      error: "friendly_name 'Lounge' is already in use",
    });
  });
});
