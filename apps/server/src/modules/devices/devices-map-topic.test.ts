import {
  mapDestination,
  type Device,
  type DeviceMarker,
  type GatewayDevice,
  type MapTopicMessage,
  deviceEndpoints,
} from '@lumigrid/contract';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVICE_DATABASES, api } from '../../test/harness.ts';
import { listenForRealtime, stompClient, type StompTestClient } from '../../test/realtime.fixtures.ts';
import { buildGatewayWithDevices, data, defaultMapId, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';

/**
 * The map topics when devices leave a map (moved out, moved to another map, deleted), and "last update" as
 * the server's arrival time when the gateway's clock runs ahead.
 */
describe.each(SERVICE_DATABASES)('map topics and last update on %s', (kind) => {
  let mapId: string;
  let otherMapId: string;
  let imported: GatewayDevice[];
  let url: string;
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1, commandTimeoutMs: 800 }, 'topics@example.com');
  const byKind = (k: string) => imported.find((d) => d.kind === k)!;

  beforeAll(async () => {
    mapId = await defaultMapId(h(), token());
    otherMapId = (await treeFactory(h(), token()).map()).id;
    ({ devices: imported } = await buildGatewayWithDevices(h(), token(), { mac: sim().mac, mapId, name: 'Topic gateway' }));
    url = await listenForRealtime(h().app);
  }, 60_000);

  async function watch(id: string) {
    const client = await stompClient(url, { token: token() });
    const seen: MapTopicMessage[] = [];
    await client.subscribe(mapDestination(id), (m) => seen.push(JSON.parse(m.body) as MapTopicMessage));
    return { client, seen };
  }
  const removedIds = (seen: MapTopicMessage[]) => seen.flatMap((m) => ('removed' in m ? m.removed : []));
  const markerIds = (seen: MapTopicMessage[]) => seen.flatMap((m) => ('id' in m ? [m.id] : []));

  it('tells the old map a device left and the new map it arrived: move between maps, move out, delete', async () => {
    const [a, b, c] = [byKind('light-single'), byKind('light-dimmer'), byKind('light-cct')];
    await data(
      send(deviceEndpoints.moveIn, { body: { mapId, devices: [a, b, c].map((d, i) => ({ id: d.id, x: 0.1 * (i + 1), y: 0.5 })) } }),
    );
    const clients: StompTestClient[] = [];
    try {
      const here = await watch(mapId);
      const there = await watch(otherMapId);
      clients.push(here.client, there.client);

      // Moved to another map: gone here, a marker there.
      await data(send(deviceEndpoints.moveIn, { body: { mapId: otherMapId, devices: [{ id: a.id, x: 0.4, y: 0.4 }] } }));
      await poll(() => removedIds(here.seen).includes(a.id), 'removed from the old map');
      await poll(() => markerIds(there.seen).includes(a.id), 'arrived on the new map');
      expect(removedIds(there.seen)).toEqual([]);
      expect(here.seen.find((m) => 'removed' in m)).toEqual({ removed: [a.id] });

      // A drag within the same map is no removal.
      await data(api(h().app, deviceEndpoints.positions, { body: { mapId, devices: [{ id: b.id, x: 0.9, y: 0.9 }] } }, { token: token() }));
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

  it('sends each report to the map its device is on now: placed, renamed, moved, moved out, deleted', async () => {
    const [light, fenceHere, fenceThere] = [byKind('light-rgb'), byKind('curtain'), byKind('panel-smart')];
    await data(
      send(deviceEndpoints.moveIn, {
        body: { mapId, devices: [{ id: fenceHere.id, x: 0.7, y: 0.7 }] },
      }),
    );
    await data(send(deviceEndpoints.moveIn, { body: { mapId: otherMapId, devices: [{ id: fenceThere.id, x: 0.7, y: 0.7 }] } }));
    const here = await watch(mapId);
    const there = await watch(otherMapId);
    const writer = h().app.reportWriter!;
    const aboutLight = (seen: MapTopicMessage[]) =>
      seen.flatMap((m) =>
        'removed' in m
          ? m.removed.includes(light.id)
            ? ['removed']
            : []
          : 'id' in m && m.id === light.id
            ? [`${m.name}:${m.display}`]
            : [],
      );
    /** The gateway reports the light's fault (or its end); answers once the report has gone to every map topic it goes to. */
    const report = async (fault: number) => {
      const accepted = writer.stats.accepted;
      if (fault) sim().raiseFault(light.addr, fault);
      else sim().clearFault(light.addr);
      await poll(() => writer.stats.accepted > accepted, 'the report received');
      await h().app.placements.settled();
    };
    /** A marker on both maps after everything before it: a topic's messages arrive in order, so what is not here by then never came. */
    let fences = 0;
    const fence = async () => {
      const x = 0.1 + (++fences % 8) / 10;
      await data(
        api(h().app, deviceEndpoints.positions, { body: { mapId, devices: [{ id: fenceHere.id, x, y: 0.7 }] } }, { token: token() }),
      );
      await data(
        api(
          h().app,
          deviceEndpoints.positions,
          { body: { mapId: otherMapId, devices: [{ id: fenceThere.id, x, y: 0.7 }] } },
          { token: token() },
        ),
      );
      await poll(
        () =>
          here.seen.some((m) => 'id' in m && m.id === fenceHere.id && m.x === x) &&
          there.seen.some((m) => 'id' in m && m.id === fenceThere.id && m.x === x),
        'the fence on both maps',
      );
    };
    try {
      // Not placed: no map hears its report.
      await report(5);
      await fence();
      expect(aboutLight(here.seen)).toEqual([]);
      expect(aboutLight(there.seen)).toEqual([]);

      // Placed and renamed: its reports carry the new name to this map only.
      await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: light.id, x: 0.3, y: 0.3 }] } }));
      await data(send(deviceEndpoints.rename, { body: { id: light.id, name: 'Hall light' } }));
      await report(0);
      await fence();
      expect(aboutLight(here.seen).at(-1)).toMatch(/^Hall light:(?!failure)/);
      expect(aboutLight(there.seen)).toEqual([]);

      // Moved to the other map: its next report goes there, none here after the removal.
      await data(send(deviceEndpoints.moveIn, { body: { mapId: otherMapId, devices: [{ id: light.id, x: 0.3, y: 0.3 }] } }));
      const toldWebhooks = vi.spyOn(h().app.webhooks.deviceStates, 'marker');
      await report(6);
      await fence();
      expect(aboutLight(here.seen).at(-1)).toBe('removed');
      expect(aboutLight(there.seen).at(-1)).toBe('Hall light:failure');
      // The marker went to webhooks too, with its map (device.stateChanged).
      expect(toldWebhooks.mock.calls.some(([map, marker]) => String(map) === otherMapId && marker.id === light.id)).toBe(true);
      toldWebhooks.mockRestore();

      // Moved out, then back in and deleted: no map hears of it again.
      await data(send(deviceEndpoints.moveOut, { body: { ids: [light.id] } }));
      await report(0);
      await fence();
      expect(aboutLight(there.seen).at(-1)).toBe('removed');
      await data(send(deviceEndpoints.moveIn, { body: { mapId, devices: [{ id: light.id, x: 0.3, y: 0.3 }] } }));
      await data(send(deviceEndpoints.remove, { body: { ids: [light.id], fromGateway: false } }));
      await report(7);
      await fence();
      expect(aboutLight(here.seen).at(-1)).toBe('removed');
      expect(aboutLight(there.seen).at(-1)).toBe('removed');
    } finally {
      await here.client.stop();
      await there.client.stop();
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
