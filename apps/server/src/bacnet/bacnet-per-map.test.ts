import { createSocket } from 'node:dgram';
import { ObjectType, PropertyIdentifier as P } from '@bacnet-js/client';
import { mapEndpoints, projectEndpoints } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bacnetDevices } from '../db/schema/index.ts';
import { SERVICE_DATABASES, endpointCaller, signUpByMail } from '../test/harness.ts';
import { buildGatewayWithDevices, data, startGatewayRig, type GatewayRig } from '../test/gateways.fixtures.ts';
import { poll } from '../test/poll.ts';
import { freeUdpPort, objectNames, readValues, startTestClient, type TestClient } from './bacnet-client.fixtures.ts';

const BASE_INSTANCE = 270_000;
const MAIL = 'bms-maps@example.com';

/** A UDP port of 127.0.0.1 whose next `count - 1` ports are free too: one per map's device. */
async function freePorts(count: number): Promise<number> {
  for (;;) {
    const first = await freeUdpPort();
    const sockets = [];
    let free = true;
    for (let i = 1; i < count && free; i++) {
      const socket = createSocket('udp4');
      free = await new Promise<boolean>((resolve) => {
        socket.once('error', () => resolve(false));
        socket.bind(first + i, '127.0.0.1', () => resolve(true));
      });
      sockets.push(socket);
    }
    for (const socket of sockets) await new Promise<void>((resolve) => socket.close(() => resolve()));
    if (free) return first;
  }
}

/** BACNET_DEVICE_PER=map: one BACnet device per map of the project, each on its own port and instance, kept by map. */
describe.each(SERVICE_DATABASES)('one BACnet/IP device per map (%s)', (kind) => {
  let rig: GatewayRig;
  let client: TestClient;
  let token: string;
  let port: number;
  let projectId: string;
  let buildId: string;
  let maps: Array<{ id: string; name: string }>;
  const send = endpointCaller(
    () => rig.h.app,
    () => token,
  );
  const config = () => ({
    port,
    interface: '127.0.0.1',
    deviceInstance: BASE_INSTANCE,
    account: MAIL,
    projectId: BigInt(projectId),
    readOnly: true,
    devicePer: 'map' as const,
  });
  const slots = async () => new Map((await rig.h.database.db.select().from(bacnetDevices)).map((r) => [String(r.mapId), r.slot]));

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1, commandTimeoutMs: 10_000 });
    token = await signUpByMail(rig.h, MAIL);
    const built = await buildGatewayWithDevices(rig.h, token, { mac: rig.fleet.gateways[0]!.mac, name: 'North', place: () => true });
    const tree = await data(send(projectEndpoints.tree, { params: { id: '0' } }));
    const project = tree.projects.find((p) => p.isDefault)!;
    projectId = project.id;
    buildId = project.builds.find((b) => b.maps.some((m) => m.id === built.mapId))!.id;
    const second = await data(send(mapEndpoints.addMap, { body: { buildId, name: 'Annex' } }));
    maps = [project.builds.flatMap((b) => b.maps).find((m) => m.id === built.mapId)!, { id: second.id, name: 'Annex' }];
    port = await freePorts(3);
    client = await startTestClient();
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await rig?.close();
  });

  it("serves each map as a device of its own, on the port and instance of its kept slot, with that map's objects", async () => {
    await rig.h.app.bacnet.start(config(), { lease: { tryMs: 50 } });
    expect([...rig.h.app.bacnet.mapServers.keys()].sort()).toEqual(maps.map((m) => m.id).sort());
    const kept = await slots();
    expect([...kept.values()].sort()).toEqual([0, 1]);
    for (const map of maps) {
      const slot = kept.get(map.id)!;
      const names = (await objectNames(client, port + slot, BASE_INSTANCE + slot)).map((o) => o.name);
      expect(names).toContain(`${map.name} total power`);
      // The other map's objects are its own device's.
      const other = maps.find((m) => m.id !== map.id)!;
      expect(names).not.toContain(`${other.name} total power`);
      const device = { type: ObjectType.DEVICE, instance: BASE_INSTANCE + slot };
      const [deviceName] = await readValues(client, port + slot, device, P.OBJECT_NAME);
      expect(String(deviceName).endsWith(` ${map.name}`)).toBe(true);
    }
    const heard: number[] = [];
    client.on('iAm', (content) => heard.push(content.payload.deviceId));
    client.whoIs({ address: `127.0.0.1:${port + kept.get(maps[1]!.id)!}` });
    await poll(() => heard.includes(BASE_INSTANCE + kept.get(maps[1]!.id)!), "the second map's I-Am");
  });

  it('gives a map added while serving the next slot within a lease try, and keeps every slot through a restart', async () => {
    const before = await slots();
    const third = await data(send(mapEndpoints.addMap, { body: { buildId, name: 'Roof' } }));
    await poll(() => rig.h.app.bacnet.mapServers.has(third.id), "the new map's device");
    expect((await slots()).get(third.id)).toBe(2);
    const roof = { type: ObjectType.DEVICE, instance: BASE_INSTANCE + 2 };
    expect(await readValues(client, port + 2, roof, P.OBJECT_NAME)).toEqual([expect.stringMatching(/Roof$/)]);

    await rig.h.app.bacnet.close();
    expect(rig.h.app.bacnet.mapServers.size).toBe(0);
    await rig.h.app.bacnet.start(config(), { lease: { tryMs: 50 } });
    const after = await slots();
    for (const [mapId, slot] of before) expect(after.get(mapId)).toBe(slot);
    // A port the last run just let go may take a try to bind again.
    await poll(() => rig.h.app.bacnet.mapServers.size === 3, "every map's device serving again");
    await rig.h.app.bacnet.close();
  });
});
