import {
  XLSX_MIME,
  deviceEndpoints,
  percentToLevel,
  gatewayEndpoints,
  groupEndpoints,
  newSceneFields,
  sceneEndpoints,
  type GatewayDevice,
  type GatewaySyncItem,
  type GroupView,
  type SceneFields,
  type SceneRunPage,
} from '@lumigrid/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVICE_DATABASES, api, expectError } from '../../test/harness.ts';
import { data, syncedGateways, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';
import { bigFakePng, makeJpeg, makePdf, makePng, sendUpload } from '../../test/upload.fixtures.ts';

const on = (percent?: number) => ({ on: true, ...(percent !== undefined ? { percent } : {}) });

/** A manual scene of some members, changed by `over`. */
function sceneOf(
  projectId: string,
  name: string,
  members: SceneFields['steps'][number]['members'],
  over: Partial<SceneFields> = {},
): SceneFields {
  return { ...newSceneFields(projectId, 'manual', name), steps: [{ members, holdS: 0 }], ...over };
}

/** HH:MM in UTC of an instant. */
const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);

describe.each(SERVICE_DATABASES)('scenes run by simulated gateways on %s', (kind) => {
  let projectId: string;
  const gateways: Array<{ id: string; mapId: string; devices: GatewayDevice[] }> = [];
  const { h, sim, send, rig, token } = gatewayRigSuite(kind, { count: 3, commandTimeoutMs: 2000 }, 'scenes@example.com');
  const light = (g: number, kindName = 'light-dimmer') => gateways[g]!.devices.find((d) => d.kind === kindName)!;
  const simDevice = (g: number, addr: string) => sim(g).devices.get(addr)!.state;
  const runs = (id: string) => data<SceneRunPage>(send(sceneEndpoints.runs, { body: { id } }));

  beforeAll(async () => {
    gateways.push(...(await syncedGateways(rig(), token(), ['North', 'South', 'East'])));
    projectId = (await defaultProject(h(), token())).id;
  }, 120_000);

  it('splits a scene over three gateways, each takes its part, and a manual run changes every member', async () => {
    const members = [0, 1, 2].map((g) => ({ type: 'device' as const, id: light(g).id, action: on(40) }));
    const saved = await data(send(sceneEndpoints.add, { body: sceneOf(projectId, 'Evening', members) }));
    expect(saved.sync.map((s) => s.code)).toEqual([0, 0, 0]);
    expect(saved.scene.parts).toHaveLength(3);
    expect(saved.scene.parts.every((p) => p.onGateway)).toBe(true);
    expect(saved.scene.state).toBe('synced');
    // Each gateway runs a configuration holding its own member only.
    for (const g of [0, 1, 2]) {
      const scene = sim(g).config.scenes[0]!;
      expect(scene.steps.map((s) => s.target)).toEqual([{ device: light(g).addr }]);
    }
    for (const g of [0, 1, 2]) sim(g).devices.get(light(g).addr)!.state.on = false;

    const told = vi.spyOn(rig().h.app.webhooks.service, 'emit');
    const run = await data(send(sceneEndpoints.execute, { params: { id: saved.scene.id }, body: {} }));
    expect(run.parts.map((p) => [p.code, p.targets, p.failed])).toEqual([
      [0, 1, 0],
      [0, 1, 0],
      [0, 1, 0],
    ]);
    // Integrators are told the run (webhooks).
    expect(told.mock.calls.map(([source]) => source)).toContainEqual(
      expect.objectContaining({ kind: 'scene.ran', data: expect.objectContaining({ sceneId: saved.scene.id, trigger: 'manual' }) }),
    );
    told.mockRestore();
    for (const g of [0, 1, 2]) {
      expect(simDevice(g, light(g).addr)).toMatchObject({ on: true, level: 102, manual: true });
    }
    // Changed while a gateway is away: that gateway gets its part when the scene is next run.
    await sim(2).goOffline();
    await poll(async () => !(await data(send(gatewayEndpoints.detail, { params: { id: gateways[2]!.id } }))).online, 'gateway offline');
    const brighter = [0, 1, 2].map((g) => ({ type: 'device' as const, id: light(g).id, action: on(80) }));
    const updated = await data(send(sceneEndpoints.update, { body: { id: saved.scene.id, ...sceneOf(projectId, 'Evening', brighter) } }));
    expect(updated.sync.map((s) => s.code)).toEqual([0, 0, 100101]);
    expect(updated.scene.state).toBe('pending');
    await sim(2).goOnline();
    await poll(async () => (await data(send(gatewayEndpoints.detail, { params: { id: gateways[2]!.id } }))).online, 'gateway back');
    const again = await data(send(sceneEndpoints.execute, { params: { id: saved.scene.id }, body: {} }));
    expect(again.parts.map((p) => p.code)).toEqual([0, 0, 0]);
    expect(simDevice(2, light(2).addr).level).toBe(percentToLevel(80));
    expect((await data(send(sceneEndpoints.get, { params: { id: saved.scene.id } }))).state).toBe('synced');
    const history = await runs(saved.scene.id);
    expect(history.total).toBe(2);
    expect(history.list[0]).toMatchObject({ trigger: 'manual', then: 'start' });
    const listed = await data(send(sceneEndpoints.page, { body: { projectId } }));
    expect(listed.list.find((s) => s.id === saved.scene.id)?.lastRun?.parts).toHaveLength(3);
  });

  it('keeps a picture per scene: png or jpeg up to 1 MB, replaced and removed with its file', async () => {
    const saved = await data(
      send(sceneEndpoints.add, {
        body: sceneOf(projectId, 'Pictured', [{ type: 'device', id: light(0, 'light-single').id, action: on() }]),
      }),
    );
    const upload = (data: Buffer, type = 'image/png', lang?: string) =>
      sendUpload(
        h().app,
        sceneEndpoints.uploadImage,
        { name: 'scene.png', type, data },
        { token: token(), lang, fields: { id: saved.scene.id } },
      );
    const first = await upload(makePng(64, 32));
    expect(first.body.code).toBe(0);
    const url = first.body.data.image!;
    expect(url).toMatch(/^\/api4\/scene\/v1\/image\/[0-9a-f]{32}\.png$/);
    const served = await h().app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const second = await upload(await makeJpeg(40, 40), 'image/jpeg');
    expect(second.body.data.image).toMatch(/\.jpg$/);
    expect((await h().app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expectError(await upload(bigFakePng(1024 * 1024 + 1), 'image/png', 'ja'), 100014, 'ja');
    expectError(await upload(makePdf(), 'application/pdf'), 100013);
    expect((await data(send(sceneEndpoints.get, { params: { id: saved.scene.id } }))).image).toBe(second.body.data.image);
    const removed = await data(send(sceneEndpoints.removeImage, { params: { id: saved.scene.id }, body: {} }));
    expect(removed.image).toBeNull();
    expect((await h().app.inject({ method: 'GET', url: second.body.data.image! })).statusCode).toBe(404);
    await data(send(sceneEndpoints.remove, { params: { id: saved.scene.id } }));
  });

  it('holds every limit of the spec with its localised message, and changes nothing', async () => {
    const before = await data(send(sceneEndpoints.page, { body: { projectId } }));
    const add = (body: SceneFields, lang: 'en' | 'ja' = 'en') => api(h().app, sceneEndpoints.add, { body }, { token: token(), lang });
    const one = [{ type: 'device' as const, id: light(0).id, action: on() }];
    expectError(await add(sceneOf(projectId, 'Evening', one)), 310002);
    expectError(await add(sceneOf(projectId, 'Bad*name', one), 'ja'), 310010, 'ja');
    expectError(await add(sceneOf(projectId, '夜間照明場景設定', one)), 100011);
    expectError(await add(sceneOf(projectId, 'Nothing', [])), 110009);
    const sensor = gateways[0]!.devices.find((d) => d.kind === 'sensor-motion')!;
    expectError(await add(sceneOf(projectId, 'Sensor only', [{ type: 'device', id: sensor.id, action: on() }])), 100204);
    const eleven = gateways[0]!.devices.slice(0, 11).map((d) => ({ type: 'device' as const, id: d.id, action: on() }));
    expect(eleven).toHaveLength(11);
    expectError(await add(sceneOf(projectId, 'Too many', eleven)), 310005);
    const timed = { kind: 'schedule' as const, triggers: [{ at: '18:00', offsetMin: 0, then: 'start' as const }] };
    expectError(await add(sceneOf(projectId, 'No days', one, { ...timed, days: [] })), 310006);
    expectError(await add(sceneOf(projectId, 'No times', one, { kind: 'schedule', days: [1] })), 310008);
    expectError(await add(sceneOf(projectId, 'Backwards', one, { ...timed, days: [1], from: '2026-12-02', to: '2026-12-01' })), 310012);
    expectError(
      await add(
        sceneOf(projectId, 'Sun unlocated', one, { kind: 'sun', days: [1], triggers: [{ at: 'sunset', offsetMin: -15, then: 'start' }] }),
      ),
      310009,
    );
    const after = await data(send(sceneEndpoints.page, { body: { projectId } }));
    expect(after.total).toBe(before.total);
  });

  it('runs a schedule and a sunset on the gateway clock with no command from the cloud, also while disconnected', async () => {
    const g = 1;
    const device = light(g, 'light-cct');
    const at = Date.parse('2026-11-26T18:00:00Z');
    const saved = await data(
      send(sceneEndpoints.add, {
        body: sceneOf(projectId, 'Thursday six', [{ type: 'device', id: device.id, action: on(80) }], {
          kind: 'schedule',
          days: [4],
          triggers: [
            { at: hhmm(at), offsetMin: 0, then: 'start' },
            { at: hhmm(at + 60 * 60_000), offsetMin: 0, then: 'end' },
          ],
        }),
      }),
    );
    expect(saved.sync[0]?.code).toBe(0);
    const commandsBefore = sim(g).executions.size;
    sim(g).devices.get(device.addr)!.state.on = false;
    sim(g).clock.set(at - 60_000);
    await poll(() => simDevice(g, device.addr).on === true, 'the schedule switched the light on');
    expect(sim(g).executions.size).toBe(commandsBefore);
    await poll(async () => (await runs(saved.scene.id)).list.some((r) => r.trigger === 'schedule' && r.then === 'start'), 'run recorded');

    // Offline, the gateway keeps its clock and runs the end time; the run reaches the cloud when it is back.
    await sim(g).goOffline();
    sim(g).clock.set(at + 59 * 60_000);
    await poll(() => simDevice(g, device.addr).on === false, 'the end time switched it off while offline');
    expect((await runs(saved.scene.id)).list.some((r) => r.then === 'end')).toBe(false);
    await sim(g).goOnline();
    await poll(async () => {
      const end = (await runs(saved.scene.id)).list.find((r) => r.then === 'end');
      return end?.at === new Date(at + 60 * 60_000).toISOString();
    }, 'the offline run reported with its own time');

    // Sunset: the gateway computes it from its longitude and latitude.
    await data(send(gatewayEndpoints.setLonLat, { body: { id: gateways[g]!.id, longitude: 139.69, latitude: 35.68 } }));
    const sun = await data(
      send(sceneEndpoints.add, {
        body: sceneOf(projectId, 'Dusk', [{ type: 'device', id: device.id, action: on(30) }], {
          kind: 'sun',
          days: [0, 1, 2, 3, 4, 5, 6],
          triggers: [
            { at: 'sunset', offsetMin: -15, then: 'start' },
            { at: 'sunrise', offsetMin: 10, then: 'end' },
          ],
        }),
      }),
    );
    expect(sun.sync[0]?.code).toBe(0);
    const detail = await data(send(sceneEndpoints.get, { params: { id: sun.scene.id } }));
    expect(detail.upcoming).toHaveLength(7);
    const nextStart = detail.upcoming.find((u) => u.then === 'start')!;
    sim(g).devices.get(device.addr)!.state.on = false;
    sim(g).clock.set(nextStart.at - 60_000);
    await poll(() => simDevice(g, device.addr).on === true && simDevice(g, device.addr).level === 76, 'sunset -15 min switched it on');
    await poll(async () => (await runs(sun.scene.id)).list[0]?.at === new Date(nextStart.at).toISOString(), 'sunset run recorded');

    const week = await data(send(sceneEndpoints.week, { body: { projectId, from: '2026-11-23' } }));
    expect(week.filter((r) => r.sceneId === saved.scene.id).map((r) => [new Date(r.at).toISOString(), r.then])).toEqual([
      ['2026-11-26T18:00:00.000Z', 'start'],
      ['2026-11-26T19:00:00.000Z', 'end'],
    ]);
    expect(week.filter((r) => r.sceneId === sun.scene.id && r.then === 'start')).toHaveLength(7);
  });

  it('hands a light switched by hand back with execute_auto', async () => {
    const device = light(2, 'light-single');
    await data(send(deviceEndpoints.control, { body: { id: device.id, action: { op: 'onOff', on: true } } } as never));
    await poll(() => simDevice(2, device.addr).manual === true, 'manual override');
    const marker = async () =>
      (await data(send(deviceEndpoints.markers, { query: { mapId: gateways[2]!.mapId } }))).find((m) => m.id === device.id)!;
    // The floor plan shows it once the gateway reports it.
    await poll(async () => (await marker()).manual, 'the marker says switched by hand');
    const result = await data(send(sceneEndpoints.executeAuto, { body: { deviceIds: [device.id] } }));
    expect(result).toMatchObject({ released: 1, parts: [{ gatewayId: gateways[2]!.id, code: 0 }] });
    expect(simDevice(2, device.addr).manual).toBeFalsy();
    await poll(async () => !(await marker()).manual, 'the marker back to automatic');
  });

  it('binds a scene panel key, and the key runs the scene on the gateway', async () => {
    const panel = gateways[0]!.devices.find((d) => d.kind === 'panel-scene6')!;
    const target = light(0, 'light-rgb');
    const saved = await data(
      send(sceneEndpoints.add, {
        body: sceneOf(projectId, 'Key one', [{ type: 'device', id: target.id, action: { on: true, color: '#ff0000' } }]),
      }),
    );
    const keys = await data(send(sceneEndpoints.inputScene, { body: { panelId: panel.id, key: 1, sceneId: saved.scene.id } }));
    expect(keys).toEqual([{ key: 1, sceneId: saved.scene.id, sceneName: 'Key one' }]);
    await data(send(gatewayEndpoints.sync, { params: { id: gateways[0]!.id } }));
    sim(0).devices.get(target.addr)!.state.on = false;
    expect(sim(0).pressPanelKey(panel.addr, 1)).toBe(true);
    expect(simDevice(0, target.addr)).toMatchObject({ on: true, rgb: [255, 0, 0] });
    await poll(async () => (await runs(saved.scene.id)).list.some((r) => r.trigger === 'panel'), 'panel run recorded');
    // A light is no panel; a scene of another gateway cannot be bound.
    expectError(await send(sceneEndpoints.inputScene, { body: { panelId: target.id, key: 2, sceneId: saved.scene.id } }), 100209);
  });

  it('links a motion sensor to a group: the gateway runs it in linkage mode, hold time and daylight target included', async () => {
    const sensor = gateways[0]!.devices.find((d) => d.kind === 'sensor-motion')!;
    const target = light(0, 'light-cct');
    const group = await data<GroupView>(
      send(groupEndpoints.add, { body: { mapId: gateways[0]!.mapId, gatewayId: gateways[0]!.id, name: 'Hall', deviceIds: [target.id] } }),
    );
    const linkage = { sensorId: sensor.id, groupId: group.id, onDetectPercent: 90, onClearPercent: 0, holdS: 30, lux: 500 };
    expectError(await send(sceneEndpoints.saveLinkage, { body: { ...linkage, sensorId: target.id } }), 100209);
    const otherGroup = await data<GroupView>(
      send(groupEndpoints.add, {
        body: { mapId: gateways[1]!.mapId, gatewayId: gateways[1]!.id, name: 'Far', deviceIds: [light(1, 'light-rgb').id] },
      }),
    );
    expectError(await send(sceneEndpoints.saveLinkage, { body: { ...linkage, groupId: otherGroup.id } }), 100211);
    expect(await data(send(sceneEndpoints.saveLinkage, { body: linkage }))).toMatchObject({
      ...linkage,
      groupName: 'Hall',
      onGateway: false,
    });
    await data(send(gatewayEndpoints.sync, { params: { id: gateways[0]!.id } }));
    await data(send(gatewayEndpoints.sensorsLinkage, { params: { id: gateways[0]!.id } }));
    const listed = await data(send(sceneEndpoints.linkages, { params: { mapId: gateways[0]!.mapId } }));
    expect(listed).toMatchObject([{ sensorId: sensor.id, onGateway: true }]);
    expect(sim(0).config.linkages).toEqual([
      {
        sensor: sensor.addr,
        targets: [{ group: group.number }],
        onDetect: { on: true, level: 229 },
        onClear: { on: false },
        holdS: 30,
        luxAbove: 500,
      },
    ]);

    const state = () => simDevice(0, target.addr);
    sim(0).devices.get(target.addr)!.state.on = false;
    sim(0).devices.get(sensor.addr)!.state.lux = 100;
    expect(sim(0).detectMotion(sensor.addr)).toBe(true);
    expect(state()).toMatchObject({ on: true, level: 229 });
    await poll(() => state().on === false, 'the hold time ran out and the group went off');
    // Brighter than the daylight target: detection leaves the lights off.
    sim(0).devices.get(sensor.addr)!.state.lux = 900;
    sim(0).detectMotion(sensor.addr);
    expect(state().on).toBe(false);

    await data(send(sceneEndpoints.removeLinkage, { params: { id: sensor.id }, body: {} }));
    expect(await data(send(sceneEndpoints.linkages, { params: { mapId: gateways[0]!.mapId } }))).toEqual([]);
    expectError(await send(sceneEndpoints.removeLinkage, { params: { id: sensor.id }, body: {} }), 110011);
  });

  it('says "timeout for adding scene" for a gateway that does not take its part, and keeps the scene', async () => {
    // The configuration never reaches the gateway: it neither applies nor answers it.
    sim(1).faults.lost = new Set(['config.apply']);
    try {
      const saved = await data(
        send(sceneEndpoints.add, {
          body: sceneOf(projectId, 'Silent part', [{ type: 'device', id: light(1, 'light-single').id, action: on() }]),
        }),
      );
      expect(saved.sync).toEqual([{ gatewayId: gateways[1]!.id, gatewayName: 'South', code: 310003 }]);
      expect(saved.scene.state).toBe('pending');
      expect((await data(send(sceneEndpoints.get, { params: { id: saved.scene.id } }))).name).toBe('Silent part');
    } finally {
      sim(1).faults.lost = new Set();
    }
  });

  it('removes one gateway part, deletes a scene, and the gateways drop them by themselves', async () => {
    const members = [0, 1].map((g) => ({ type: 'device' as const, id: light(g, 'light-single').id, action: on() }));
    const saved = await data(send(sceneEndpoints.add, { body: sceneOf(projectId, 'Two parts', members) }));
    const pending = async () => (await data<GatewaySyncItem[]>(send(gatewayEndpoints.syncStatus, {}))).map((p) => p.id);
    expect(await pending()).not.toContain(gateways[0]!.id);
    const scenesOn = (g: number) => sim(g).config.scenes.map((s) => s.name);
    expect(scenesOn(0)).toContain('Two parts');
    await data(send(sceneEndpoints.removeSlice, { params: { id: saved.scene.parts.find((p) => p.gatewayId === gateways[0]!.id)!.id } }));
    await poll(() => !scenesOn(0).includes('Two parts'), 'the part gone from gateway 0', { timeoutMs: 30_000 });
    await poll(async () => !(await pending()).includes(gateways[0]!.id), 'gateway 0 synced', { timeoutMs: 30_000 });
    const left = await data(send(sceneEndpoints.get, { params: { id: saved.scene.id } }));
    expect(left.parts.map((p) => p.gatewayId)).toEqual([gateways[1]!.id]);
    expect(left.members.map((m) => m.id)).toEqual([members[1]!.id]);
    await data(send(sceneEndpoints.remove, { params: { id: saved.scene.id } }));
    await poll(() => !scenesOn(1).includes('Two parts'), 'the scene gone from gateway 1', { timeoutMs: 30_000 });
    expectError(await send(sceneEndpoints.get, { params: { id: saved.scene.id } }), 110011);
  });

  it('groups in a group schedule, and exports the list as Excel with headers in the caller language', async () => {
    const group = await data<GroupView>(
      send(groupEndpoints.add, {
        body: { mapId: gateways[2]!.mapId, gatewayId: gateways[2]!.id, name: 'Corridor', deviceIds: [light(2).id] },
      }),
    );
    const saved = await data(
      send(sceneEndpoints.add, {
        body: sceneOf(projectId, 'Corridor nights', [{ type: 'group', id: group.id, action: on(20) }], {
          kind: 'groupSchedule',
          days: [1, 2, 3, 4, 5],
          triggers: [{ at: '22:00', offsetMin: 0, then: 'start' }],
          skipHolidays: true,
        }),
      }),
    );
    expect(sim(2).config.schedules.find((s) => s.at === '22:00')).toMatchObject({ days: [1, 2, 3, 4, 5], skipHolidays: true });
    expect(sim(2).config.scenes.some((s) => s.steps.some((step) => 'group' in step.target))).toBe(true);
    expectError(
      await send(sceneEndpoints.add, {
        body: sceneOf(projectId, 'Not groups', [{ type: 'device', id: light(2).id, action: on() }], {
          kind: 'groupSchedule',
          days: [1],
          triggers: [{ at: '22:00', offsetMin: 0, then: 'start' }],
        }),
      }),
      310011,
    );
    const res = await h().app.inject({
      method: 'POST',
      url: sceneEndpoints.export.path,
      payload: { projectId },
      headers: { authorization: `Bearer ${token()}`, 'accept-language': 'ja' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('名前');
    const names = sheet.getColumn(1).values.slice(2);
    expect(names).toContain(saved.scene.name);
  });
});
