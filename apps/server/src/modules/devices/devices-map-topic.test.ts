import {
  mapDestination,
  type Device,
  type DeviceMarker,
  type GatewayDevice,
  type MapTopicMessage,
  deviceEndpoints,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, signUpByMail, api, endpointCaller } from '../../test/harness.ts';
import { listenForRealtime, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';
import { buildGatewayWithDevices, data, defaultMapId, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';

/**
 * The map topics when devices leave a map (moved out, moved to another map, deleted), and "last update" as
 * the server's arrival time when the gateway's clock runs ahead.
 */
describe.each(DATABASES)('map topics and last update on %s', (kind) => {
  let rig: GatewayRig;
  let token: string;
  let mapId: string;
  let otherMapId: string;
  let imported: GatewayDevice[];
  const h = () => rig.h;
  const sim = () => rig.fleet.gateways[0]!;
  const send = endpointCaller(
    () => h().app,
    () => token,
  );
  const byKind = (k: string) => imported.find((d) => d.kind === k)!;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 1, commandTimeoutMs: 800 });
    token = await signUpByMail(h(), 'topics@example.com');
    mapId = await defaultMapId(h(), token);
    otherMapId = (await treeFactory(h(), token).map()).id;
    ({ devices: imported } = await buildGatewayWithDevices(h(), token, { mac: sim().mac, mapId, name: 'Topic gateway' }));
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  async function watch(url: string, id: string) {
    const client = await stompClient(url, { token });
    const seen: MapTopicMessage[] = [];
    await client.subscribe(mapDestination(id), (m) => seen.push(JSON.parse(m.body) as MapTopicMessage));
    return { client, seen };
  }
  const removedIds = (seen: MapTopicMessage[]) => seen.flatMap((m) => ('removed' in m ? m.removed : []));
  const markerIds = (seen: MapTopicMessage[]) => seen.flatMap((m) => ('removed' in m ? [] : [m.id]));

  it('tells the old map a device left and the new map it arrived: move between maps, move out, delete', async () => {
    const [a, b, c] = [byKind('light-single'), byKind('light-dimmer'), byKind('light-cct')];
    await data(
      send(deviceEndpoints.moveIn, { body: { mapId, devices: [a, b, c].map((d, i) => ({ id: d.id, x: 0.1 * (i + 1), y: 0.5 })) } }),
    );
    const url = await listenForRealtime(h().app);
    const clients: StompTestClient[] = [];
    try {
      const here = await watch(url, mapId);
      const there = await watch(url, otherMapId);
      clients.push(here.client, there.client);

      // Moved to another map: gone here, a marker there.
      await data(send(deviceEndpoints.moveIn, { body: { mapId: otherMapId, devices: [{ id: a.id, x: 0.4, y: 0.4 }] } }));
      await poll(() => removedIds(here.seen).includes(a.id), 'removed from the old map');
      await poll(() => markerIds(there.seen).includes(a.id), 'arrived on the new map');
      expect(removedIds(there.seen)).toEqual([]);
      expect(here.seen.find((m) => 'removed' in m)).toEqual({ removed: [a.id] });

      // A drag within the same map is no removal.
      await data(api(h().app, deviceEndpoints.positions, { body: { mapId, devices: [{ id: b.id, x: 0.9, y: 0.9 }] } }, { token }));
      await poll(() => markerIds(here.seen).includes(b.id), 'the dragged marker');
      expect(removedIds(here.seen)).toEqual([a.id]);

      // Moved out: both maps named in one call each hear about their own device only.
      await data(send(deviceEndpoints.moveOut, { body: { ids: [a.id, b.id] } }));
      await poll(() => removedIds(here.seen).includes(b.id) && removedIds(there.seen).includes(a.id), 'moved out');
      expect(removedIds(there.seen)).toEqual([a.id]);

      // Deleted from the cloud.
      await data(send(deviceEndpoints.remove, { body: { ids: [c.id], fromGateway: false } }));
      await poll(() => removedIds(here.seen).includes(c.id), 'deleted');
      expect((await data<DeviceMarker[]>(send(deviceEndpoints.markers, { query: { mapId } }))).map((m) => m.id)).not.toContain(c.id);
    } finally {
      for (const client of clients) await client.stop();
    }
  });

  it('shows the server arrival time as last update when the gateway clock runs an hour ahead', async () => {
    const light = byKind('switch-1');
    await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: light.id, x: 0.2, y: 0.2 }] } }));
    sim().clock.set(Date.now() + 60 * 60 * 1000);
    const before = Date.now();
    await data(send(deviceEndpoints.control, { body: { id: light.id, action: { op: 'channel', channel: 1, on: true } } }));
    let device: Device | undefined;
    await poll(async () => {
      device = await data<Device>(send(deviceEndpoints.detail, { params: { mapId, id: light.id } }));
      return device.display === 'onFull';
    }, 'the report of the gateway whose clock runs ahead');
    const after = Date.now();
    const lastUpdate = Date.parse(device!.lastUpdate!);
    expect(lastUpdate).toBeGreaterThanOrEqual(before);
    expect(lastUpdate).toBeLessThanOrEqual(after);
  });
});
