import {
  alertEndpoints,
  deviceEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  mapEndpoints,
  type AlertPage,
  type Gateway,
  type GatewayDevice,
  type GroupView,
} from '@lumigrid/contract';
import { FAULT_CODES } from '@lumigrid/protocol';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { gateways } from '../../db/schema/index.ts';
import { DATABASES } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { downloadWorkbook } from '../../test/workbook.ts';

const GRACE_MS = 300;

describe.each(DATABASES)('devices behind a gateway that is not online, on %s', (kind) => {
  let gateway: Gateway;
  let mapId: string;
  let projectId: string;
  let placed: GatewayDevice[];
  let group: GroupView;
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1, offlineGraceMs: GRACE_MS }, 'gateway-gone@example.com');
  const lights = () => placed.filter((d) => d.kind === 'light-single' || d.kind === 'light-dimmer');

  /** Every view of the devices' state at once: markers, the list, the counts, the status report, the group. */
  async function views() {
    const [markers, list, state, mapStatus, groupView, ofMap] = await Promise.all([
      data(send(deviceEndpoints.markers, { query: { mapId } })),
      data(send(alertEndpoints.deviceStatus, { body: { pageSize: 200 } })),
      data(send(alertEndpoints.deviceState, { body: {} })),
      data(send(alertEndpoints.mapStatus, { params: { id: projectId, mapId } })),
      data(send(groupEndpoints.get, { params: { id: group.id } })),
      data(send(mapEndpoints.devicesOf, { params: { id: mapId } })),
    ]);
    return { markers, list, state, mapStatus, groupView, ofMap };
  }

  async function statusReportOnline(): Promise<unknown[]> {
    const rows = await downloadWorkbook(h().app, alertEndpoints.statusReport, {}, { token: token(), lang: 'en' });
    const column = rows[0]!.indexOf('Online');
    return rows.slice(1).map((r) => r[column]);
  }

  beforeAll(async () => {
    ({ gateway, mapId, placed } = await buildGatewayWithDevices(h(), token(), { mac: sim().mac, place: () => true }));
    projectId = (await defaultProject(h(), token())).id;
    group = await data(
      send(groupEndpoints.add, { body: { mapId, gatewayId: gateway.id, name: 'Lights', deviceIds: lights().map((d) => d.id) } }),
    );
    for (const light of lights()) await data(send(deviceEndpoints.control, { body: { id: light.id, action: { op: 'onOff', on: true } } }));
    await poll(async () => {
      const markers = await data(send(deviceEndpoints.markers, { query: { mapId } }));
      return lights().every((l) => markers.find((m) => m.id === l.id)?.display === 'onFull');
    }, 'the lights on');
  }, 90_000);

  it('shows every device offline once its gateway is gone, on every view, and counts the gateway’s alerts on its node', async () => {
    const before = await views();
    expect(before.markers.some((m) => m.display === 'onFull')).toBe(true);
    // The map's device list shows the reported state too, not what the import stored.
    const lightOnMap = before.ofMap.find((d) => d.id === lights()[0]!.id)!;
    expect(lightOnMap).toMatchObject({ typeStatus: 0, status: before.markers.find((m) => m.id === lightOnMap.id)!.status });

    await sim().goOffline();
    await poll(async () => (await data(send(gatewayEndpoints.detail, { params: { id: gateway.id } }))).online === false, 'gateway offline');
    await poll(async () => (await data<AlertPage>(send(alertEndpoints.page, { body: { open: true } }))).total > 0, 'the offline alert');

    const { markers, list, state, mapStatus, groupView, ofMap } = await views();
    expect(markers.map((m) => m.display)).toEqual(placed.map(() => 'offline'));
    expect(ofMap.map((d) => d.typeStatus)).toEqual(placed.map(() => 2));
    expect(markers.every((m) => !m.manual)).toBe(true);
    expect(list.list.map((d) => d.display)).toEqual(list.list.map(() => 'offline'));
    expect(list.list.every((d) => d.fault === FAULT_CODES.offline)).toBe(true);
    expect(state.display.offline).toBe(state.total);
    expect(state.display.onFull + state.display.onPartial + state.display.off + state.display.working + state.display.failure).toBe(0);
    expect(state.gateways).toEqual({ online: 0, offline: 1 });
    expect(groupView).toMatchObject({ display: 'offline', offlineCount: lights().length });
    expect(groupView.members.map((m) => m.display)).toEqual(lights().map(() => 'offline'));
    expect(new Set(await statusReportOnline())).toEqual(new Set(['No']));
    // The gateway's node counts its own open alerts, as its map does.
    expect(mapStatus.map.openAlerts).toBeGreaterThan(0);
    expect(mapStatus.gateways).toEqual([expect.objectContaining({ id: gateway.id, online: false, openAlerts: mapStatus.map.openAlerts })]);
    expect(mapStatus.gateways[0]).toMatchObject({ devices: state.total, offline: state.total });

    await sim().goOnline();
    sim().reportAll();
    await poll(async () => {
      const back = await data(send(deviceEndpoints.markers, { query: { mapId } }));
      return lights().every((l) => back.find((m) => m.id === l.id)?.display === 'onFull');
    }, 'the lights back as they are');
  });

  it('does not show a device working behind a gateway whose presence is unknown', async () => {
    await poll(async () => (await data(send(gatewayEndpoints.detail, { params: { id: gateway.id } }))).online, 'gateway online');
    // What the link stores when the server has lost its broker (gateways.repo recordPresenceAnyTenant).
    await h()
      .database.db.update(gateways)
      .set({ online: false, offlineReason: 'unknown' })
      .where(eq(gateways.id, BigInt(gateway.id)));
    try {
      expect((await data(send(gatewayEndpoints.detail, { params: { id: gateway.id } }))).presence).toBe('unknown');
      const { markers, list, state } = await views();
      expect(markers.every((m) => m.display === 'offline')).toBe(true);
      expect(list.list.every((d) => d.display === 'offline')).toBe(true);
      expect(state.display.offline).toBe(state.total);
      const light = await data(send(deviceEndpoints.detail, { params: { mapId, id: lights()[0]!.id } }));
      expect(light.display).toBe('offline');
    } finally {
      await h()
        .database.db.update(gateways)
        .set({ online: true, offlineReason: null })
        .where(eq(gateways.id, BigInt(gateway.id)));
    }
  });

  it('moves the gateway’s last seen with each report it sends, not only when it connects or leaves', async () => {
    const lastSeen = async () => (await data(send(gatewayEndpoints.detail, { params: { id: gateway.id } }))).lastSeenAt!;
    const before = await lastSeen();
    await poll(() => Date.now() > Date.parse(before), 'a later instant');
    sim().reportAll();
    await poll(async () => Date.parse(await lastSeen()) > Date.parse(before), 'last seen moved by the report');
  });
});
