import {
  alertEndpoints,
  mapEndpoints,
  type AlertPage,
  type EndpointSpec,
  type Lang,
  type Gateway,
  type GatewayDevice,
} from '@lumigrid/contract';
import { FAULT_CODES } from '@lumigrid/protocol';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alerts } from '../../db/schema/index.ts';
import { DATABASES } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, userIdOf, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { downloadWorkbook } from '../../test/workbook.ts';

/** Old alerts written straight into the table, so the failure report streams more than one batch. */
const BACKLOG = 2_345;

describe.each(DATABASES)('device status, the status tree and the reports on %s', (kind) => {
  let gateway: Gateway;
  let mapId: string;
  let placed: GatewayDevice[];
  let projectId: string;
  let buildId: string;
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1 }, 'status@example.com');
  const light = () => placed.find((d) => d.kind === 'light-dimmer')!;

  const download = (endpoint: EndpointSpec, body: object, lang: Lang) =>
    downloadWorkbook(h().app, endpoint, body, { token: token(), lang });

  beforeAll(async () => {
    // Two devices stay off the map: the tree counts what is placed, the device state every device.
    ({ gateway, mapId, placed } = await buildGatewayWithDevices(h(), token(), {
      mac: sim().mac,
      name: 'Hall gateway',
      place: (d) => d.kind !== 'sensor-motion' && d.kind !== 'switch-2',
    }));
    const project = await defaultProject(h(), token());
    projectId = project.id;
    buildId = project.builds[0]!.id;
    sim().raiseFault(light().addr, FAULT_CODES.led);
    await poll(async () => (await data<AlertPage>(send(alertEndpoints.page, { body: { open: true } }))).total === 1, 'the LED alert');
    await poll(
      async () => (await data(send(alertEndpoints.deviceStatus, { body: { fault: FAULT_CODES.led } }))).total === 1,
      'the LED fault reported',
    );
  }, 90_000);

  it('counts the devices by display state and fault, the gateways online and the open alerts', async () => {
    const all = await data(send(alertEndpoints.deviceStatus, { body: { pageSize: 200 } }));
    const state = await data(send(alertEndpoints.deviceState, { body: {} }));
    expect(state.total).toBe(all.total);
    expect(Object.values(state.display).reduce((a, b) => a + b, 0)).toBe(all.total);
    for (const [display, count] of Object.entries(state.display)) expect(all.list.filter((d) => d.display === display)).toHaveLength(count);
    expect(state.display.failure).toBe(1);
    expect(state.byFault).toEqual([{ code: FAULT_CODES.led, count: 1 }]);
    expect(state.gateways).toEqual({ online: 1, offline: 0 });
    expect(state.openAlerts).toBe(1);

    const ofMap = await data(send(alertEndpoints.deviceState, { body: { mapId } }));
    expect(ofMap.total).toBe(placed.length);
    expect(await data(send(alertEndpoints.deviceState, { body: { gatewayId: gateway.id } }))).toMatchObject({
      total: all.total,
      gateways: { online: 1, offline: 0 },
      openAlerts: 1,
    });

    const failing = await data(send(alertEndpoints.deviceStatus, { body: { fault: FAULT_CODES.led } }));
    expect(failing.list.map((d) => d.id)).toEqual([light().id]);
    expect(failing.list[0]).toMatchObject({ fault: FAULT_CODES.led, display: 'failure' });
    expect((await data(send(alertEndpoints.deviceStatus, { body: { fault: FAULT_CODES.battery } }))).total).toBe(0);
  });

  it('counts every node of the tree over everything under it, down to the gateways of a map', async () => {
    const counts = { devices: placed.length, failure: 1, offline: 0, openAlerts: 1 };
    const account = await data(send(alertEndpoints.projectStatus, { params: { id: '0' } }));
    expect(account.project).toMatchObject({ id: '0', ...counts });
    expect(account.children.find((p) => p.id === projectId)).toMatchObject(counts);
    expect(account.builds).toEqual([]);

    const project = await data(send(alertEndpoints.projectStatus, { params: { id: projectId } }));
    expect(project.project).toMatchObject({ id: projectId, ...counts });
    expect(project.builds.find((b) => b.id === buildId)).toMatchObject(counts);

    const build = await data(send(alertEndpoints.buildingStatus, { params: { id: projectId, buildId } }));
    expect(build.build).toMatchObject({ id: buildId, ...counts });
    expect(build.maps.find((m) => m.id === mapId)).toMatchObject(counts);

    const map = await data(send(alertEndpoints.mapStatus, { params: { id: projectId, mapId } }));
    expect(map.map).toMatchObject({ id: mapId, ...counts });
    // A gateway counts all its devices, placed or not.
    expect(map.gateways).toEqual([
      expect.objectContaining({ id: gateway.id, name: 'Hall gateway', online: true, devices: placed.length + 2, failure: 1 }),
    ]);

    const gateways = await data(send(mapEndpoints.gateways, { params: { buildId, mapId } }));
    expect(gateways.map((g) => g.id)).toEqual([gateway.id]);
    expect(gateways[0]).toMatchObject({ online: true, mapId });
  });

  it('streams the failure report newest first however long, with headers in the reader\u2019s language', async () => {
    const tenantId = BigInt(await userIdOf(h(), 'status@example.com'));
    await h().database.db.execute(sql`
      insert into ${alerts} (tenant_id, gateway_id, addr, code, name, gateway_name, project_id, build_id, map_id, raised_at, cleared_at)
      select ${tenantId}, ${BigInt(gateway.id)}, 'old-' || n, 1 + n % 9, 'Old lamp ' || n, 'Hall gateway',
             ${BigInt(projectId)}, ${BigInt(buildId)}, ${BigInt(mapId)},
             timestamptz '2020-01-01' + n * interval '1 minute', timestamptz '2020-01-01' + n * interval '1 minute' + interval '5 minutes'
      from generate_series(1, ${BACKLOG}) n`);
    const total = (await data<AlertPage>(send(alertEndpoints.page, { body: {} }))).total;
    expect(total).toBe(BACKLOG + 1);

    const rows = await download(alertEndpoints.failReport, {}, 'ja');
    expect(rows[0]!.slice(0, 3)).toEqual(['デバイス', '故障コード', '故障内容']);
    expect(rows).toHaveLength(total + 1);
    // Newest first: the live LED fault, then the backlog from its newest.
    expect(rows[1]!.slice(0, 3)).toEqual([light().name, FAULT_CODES.led, 'LED故障']);
    expect(rows[2]![0]).toBe(`Old lamp ${BACKLOG}`);
    expect(rows.at(-1)![0]).toBe('Old lamp 1');

    const led = await download(alertEndpoints.failReport, { code: FAULT_CODES.led, open: true }, 'en');
    expect(led.map((r) => r[0])).toEqual(['Device', light().name]);
  });

  it('downloads the device status report and a map\u2019s devices report', async () => {
    const all = await data(send(alertEndpoints.deviceStatus, { body: { pageSize: 200 } }));
    const status = await download(alertEndpoints.statusReport, {}, 'en');
    expect(status[0]!.slice(0, 4)).toEqual(['Name', 'Type code', 'Kind', 'MAC']);
    expect(status.slice(1).map((r) => r[0])).toEqual(all.list.map((d) => d.name));
    const lightRow = status.find((r) => r[0] === light().name)!;
    expect(lightRow).toContain('Failure');
    expect(lightRow).toContain('LED fault');
    // The kind as people name it, never the protocol's code.
    expect(lightRow[2]).toBe('Dimmer');
    expect(status.flat()).not.toContain('light-dimmer');

    const failing = await download(alertEndpoints.statusReport, { display: 'failure' }, 'cn');
    expect(failing.map((r) => r[0])).toEqual(['名称', light().name]);

    const ofMap = await download(mapEndpoints.devicesReport, { mapId }, 'tc');
    expect(ofMap[0]![0]).toBe('名稱');
    expect(ofMap.find((r) => r[0] === light().name)![2]).toBe('調光器');
    expect(ofMap.slice(1).map((r) => r[0])).toEqual(all.list.filter((d) => d.mapId === mapId).map((d) => d.name));
  });
});
