import {
  NOTICE_TYPE,
  type GatewayUpdateNotice,
  type ImportResult,
  type SuperGatewayDevices,
  type DeviceKindName,
  DEVICE_TYPE_CODES,
  accountEndpoints,
  gatewayEndpoints,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForRealtime, listenToUserTopic, type StompTestClient } from '../../test/realtime.fixtures.ts';
import { SERVICE_DATABASES, expectError } from '../../test/harness.ts';
import { bind, data, defaultMapId, gatewayRigSuite, placeDevice } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

describe.each(SERVICE_DATABASES)('super gateways, bridges and firmware notices on %s', (kind) => {
  let mapId: string;
  let stomp: StompTestClient;
  const notices: GatewayUpdateNotice[] = [];
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 2, superGateways: 1, firmwareTimeoutMs: 3000 }, 'super@example.com');

  beforeAll(async () => {
    const url = await listenForRealtime(h().app);
    mapId = await defaultMapId(h(), token());
    const me = (await data(send(accountEndpoints.profile, {}))).id;
    stomp = await listenToUserTopic(url, token(), 'global_message_notice', me, notices);
  }, 60_000);
  afterAll(async () => stomp?.stop());

  it('lists the bridges of a super gateway with their devices, and unbinding a bridge frees them unless placed (260021)', async () => {
    const superSim = sim(1);
    const gw = await bind(h(), token(), superSim.mac, mapId, 'Super');
    expect(gw.superGateway).toBe(true);
    const imported = await data<ImportResult>(send(gatewayEndpoints.importDevices, { params: { id: gw.id } }));
    expect(imported.imported).toBe(superSim.devices.size);

    const all = await data<SuperGatewayDevices>(send(gatewayEndpoints.superGatewayDevices, { params: { id: gw.id, bridgeId: '0' } }));
    // Its radio and Wi-SUN bridges, and the DALI bridge that joined behind one of them.
    expect(all.bridgeQuantity).toBe(3);
    expect(all.bridges.map((b) => b.kind).sort()).toEqual(['bridge', 'bridge-dali', 'bridge-wisun']);
    for (const b of all.bridges) expect(b.type, b.kind).toBe(DEVICE_TYPE_CODES[b.kind as DeviceKindName]);
    expect(all.devices).toEqual([]);
    expect((await data(send(gatewayEndpoints.detail, { params: { id: gw.id } }))).bridgeQuantity).toBe(3);
    const behindEach = await Promise.all(
      all.bridges.map(async (b) => ({
        bridge: b,
        behind: await data<SuperGatewayDevices>(send(gatewayEndpoints.superGatewayDevices, { params: { id: gw.id, bridgeId: b.id } })),
      })),
    );
    // A radio bridge with plain devices only, so unbinding it frees no other bridge.
    const { bridge, behind } = behindEach.find(
      ({ bridge: b, behind: found }) => b.kind !== 'bridge-dali' && found.devices.every((d) => d.kind !== 'bridge-dali'),
    )!;
    expect(behind.devices.length).toBe(bridge.deviceCount);
    expect(bridge.deviceCount).toBeGreaterThan(0);
    expect(behind.devices.every((d) => d.bridgeId === bridge.id)).toBe(true);

    await placeDevice(h(), behind.devices[0]!.id, mapId);
    expectError(await send(gatewayEndpoints.unbindBridge, { params: { id: gw.id, bridgeId: bridge.id } }), 260021);
    await placeDevice(h(), behind.devices[0]!.id, null);
    expect((await send(gatewayEndpoints.unbindBridge, { params: { id: gw.id, bridgeId: bridge.id } })).body.code).toBe(0);
    const after = await data<SuperGatewayDevices>(send(gatewayEndpoints.superGatewayDevices, { params: { id: gw.id, bridgeId: '0' } }));
    expect(after.bridgeQuantity).toBe(2);
    expect((await data(send(gatewayEndpoints.detail, { params: { id: gw.id } }))).deviceCount).toBe(
      imported.imported - 1 - bridge.deviceCount,
    );
    expectError(await send(gatewayEndpoints.superGatewayDevices, { params: { id: gw.id, bridgeId: bridge.id } }), 110011);
    // Importing again brings the freed bridge and its devices back.
    expect((await data<ImportResult>(send(gatewayEndpoints.importDevices, { params: { id: gw.id } }))).imported).toBe(
      1 + bridge.deviceCount,
    );
  });

  it('sends the firmware result to the account\u2019s users as a type 1 notice over STOMP', async () => {
    const gateway = sim();
    const gw = await bind(h(), token(), gateway.mac, mapId, 'Notice gateway');
    await data(send(gatewayEndpoints.startUpdate, { params: { id: gw.id, target: 'gateway' } }));
    await poll(() => notices.some((n) => n.id === gw.id), 'success notice');
    expect(notices.find((n) => n.id === gw.id)).toEqual({
      type: NOTICE_TYPE.gatewayUpdate,
      userId: expect.any(String),
      name: 'Notice gateway',
      result: 1,
      id: gw.id,
      mac: gateway.mac,
      target: 'gateway',
      version: '3.3.0',
    });

    notices.length = 0;
    gateway.faults.failUpdates = true;
    await poll(
      async () => (await send(gatewayEndpoints.startUpdate, { params: { id: gw.id, target: 'gateway' } })).body.code === 0,
      'failing update accepted',
    );
    await poll(() => notices.length > 0, 'failure notice');
    expect(notices[0]).toMatchObject({ id: gw.id, result: 2 });
    gateway.faults.failUpdates = false;
  }, 30_000);
});
