import {
  deviceEndpoints,
  gatewayEndpoints,
  groupEndpoints,
  newSceneFields,
  projectEndpoints,
  sceneEndpoints,
  virtualEndpoints as V,
  type GatewayDevice,
} from '@lumigrid/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_DATABASES, expectError } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, gatewayRigSuite } from '../../test/gateways.fixtures.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';

describe.each(SERVICE_DATABASES)('parameter templates and virtual devices with a simulated gateway on %s', (kind) => {
  let mapId: string;
  let projectId: string;
  let gatewayId: string;
  let dimmers: GatewayDevice[];
  let other: GatewayDevice;
  const { h, sim, send, token } = gatewayRigSuite(kind, { count: 1, devicesPerKind: 12 }, 'virtual@example.com');
  const simParams = (addr: string) => sim().devices.get(addr)!.params;

  beforeAll(async () => {
    const built = await buildGatewayWithDevices(h(), token(), { mac: sim().mac, place: (d) => d.kind === 'light-dimmer' });
    ({ mapId } = built);
    gatewayId = built.gateway.id;
    dimmers = built.placed;
    other = built.devices.find((d) => d.kind === 'light-cct')!;
    projectId = (await defaultProject(h(), token())).id;
    await data(send(gatewayEndpoints.sync, { params: { id: gatewayId } }));
  }, 120_000);

  it('keeps each parameter in its set, within the spec\u2019s ranges, under a unique name', async () => {
    const type = dimmers[0]!.type;
    expectError(
      await send(V.buildTemplate, { body: { name: 'Mixed', kind: 'function', deviceType: type, params: { reportInterval: 60 } } }),
      100701,
    );
    expectError(
      await send(V.buildTemplate, { body: { name: 'Too dim', kind: 'function', deviceType: type, params: { minBrightness: 31 } } }),
      100232,
    );
    expectError(await send(V.buildTemplate, { body: { name: 'Empty', kind: 'interface', deviceType: type, params: {} } }), 100001);
    const saved = await data(
      send(V.buildTemplate, { body: { name: 'Report often', kind: 'interface', deviceType: type, params: { reportInterval: 30 } } }),
    );
    expect(saved).toMatchObject({ kind: 'interface', deviceType: type, params: { reportInterval: 30 }, devices: 0 });
    expectError(
      await send(V.buildTemplate, { body: { name: 'Report often', kind: 'interface', deviceType: type, params: { reportInterval: 60 } } }),
      110007,
    );
    const updated = await data(
      send(V.updateTemplate, { body: { id: saved.id, name: 'Report each minute', params: { reportInterval: 60 } } }),
    );
    expect(updated).toMatchObject({ name: 'Report each minute', params: { reportInterval: 60 } });
    const listed = await data(send(V.templates, { params: { type }, query: { kind: 'interface' } }));
    expect(listed.map((t) => t.name)).toEqual(['Report each minute']);
    await data(send(V.deleteTemplate, { params: { id: saved.id } }));
    expect(await data(send(V.templates, { params: { type: 0 }, query: {} }))).toEqual([]);
  });

  it('applies a parameter set to ten devices through the gateway with a result for each', async () => {
    const type = dimmers[0]!.type;
    const template = await data(
      send(V.buildTemplate, {
        body: { name: 'Corridor', kind: 'function', deviceType: type, params: { fadeTime: 40, minBrightness: 12, brightness: 80 } },
      }),
    );
    const ten = dimmers.slice(0, 10);
    const results = await data(send(V.applyTemplate, { body: { id: template.id, deviceIds: [...ten.map((d) => d.id), other.id] } }));
    expect(results.map((r) => [r.deviceId, r.code])).toEqual([...ten.map((d) => [d.id, 0]), [other.id, 100702]]);
    expect(results.at(-1)!.msg).toBe('The template is for another device type');
    for (const d of ten) expect(simParams(d.addr)).toMatchObject({ fadeTime: 40, minBrightness: 12, brightness: 80 });
    expect(simParams(other.addr)?.fadeTime).not.toBe(40);
    const [listed] = await data(send(V.templates, { params: { type }, query: { kind: 'function' } }));
    expect(listed).toMatchObject({ id: template.id, devices: 10 });
    // Devices run it: the spec's "device parameter is linked".
    expectError(await send(V.deleteTemplate, { params: { id: template.id } }), 260022);

    // A silent gateway is told per device, and nothing else stops.
    sim().faults.noReply = new Set(['device.params.set']);
    try {
      const silent = await data(send(V.applyTemplate, { body: { id: template.id, deviceIds: [ten[0]!.id] } }));
      expect(silent.map((r) => r.code)).toEqual([100104]);
    } finally {
      sim().faults.noReply = false;
    }
  });

  it('places a virtual device, groups it and puts it in a scene, and no gateway hears of it', async () => {
    const [member, stranger] = [dimmers[10]!, dimmers[11]!];
    const group = await data(send(groupEndpoints.add, { body: { mapId, gatewayId, name: 'Hall', deviceIds: [member.id] } }));
    const scene = await data(
      send(sceneEndpoints.add, {
        body: {
          ...newSceneFields(projectId, 'manual', 'Evening'),
          steps: [{ holdS: 0, members: [{ type: 'device', id: member.id, action: { on: true, percent: 30 } }] }],
        },
      }),
    );
    const gateways = await data(send(V.gateways, { params: { projectId, buildId: (await buildOf(mapId)) ?? '0', mapId } }));
    expect(gateways.map((g) => [g.id, g.onMap])).toEqual([[gatewayId, true]]);
    const template = (await data(send(V.templates, { params: { type: member.type }, query: { kind: 'function' } })))[0]!;
    const [virtual] = await data(
      send(V.buildVirtual, {
        body: { mapId, gatewayId, type: member.type, count: 1, name: 'Planned light', x: 0.8, y: 0.7, functionTemplateId: template.id },
      }),
    );
    expectError(await send(V.updateVirtual, { body: { id: virtual!.id, groupIds: ['987654321'] } }), 110011);
    const planned = await data(
      send(V.updateVirtual, {
        body: { id: virtual!.id, groupIds: [group.id], scenes: [{ sceneId: scene.scene.id, step: 0, action: { on: true, percent: 55 } }] },
      }),
    );
    expect(planned).toMatchObject({
      x: 0.8,
      y: 0.7,
      groups: [{ id: group.id, name: 'Hall' }],
      scenes: [{ name: 'Evening', step: 0 }],
      related: null,
    });
    expect((await data(send(V.unrelated, { params: { mapId, gatewayId: '0' } }))).map((v) => v.id)).toEqual([virtual!.id]);

    // The gateway's own tables hold only real devices.
    await data(send(gatewayEndpoints.sync, { params: { id: gatewayId } }));
    const hall = sim().config.groups.find((g) => g.name === 'Hall')!;
    expect(hall.devices).toEqual([member.addr]);

    const candidates = await data(send(V.candidates, { body: { id: virtual!.id } }));
    expect(candidates.map((c) => c.id)).toContain(stranger.id);
    expect(candidates.every((c) => c.type === member.type)).toBe(true);
    expectError(await send(V.relate, { body: { id: virtual!.id, deviceId: other.id } }), 100704);

    // Relation: the real device takes the place, the group, the scene and the template.
    const before = await data(send(deviceEndpoints.detail, { params: { mapId, id: stranger.id } }));
    const related = await data(send(V.relate, { body: { id: virtual!.id, deviceId: stranger.id } }));
    expect(related).toMatchObject({ params: 0, sync: 0, virtual: { related: { deviceId: stranger.id } } });
    const after = await data(send(deviceEndpoints.detail, { params: { mapId, id: stranger.id } }));
    expect([after.x, after.y]).toEqual([0.8, 0.7]);
    expect(after.groupIds).toContain(group.id);
    const sceneNow = await data(send(sceneEndpoints.get, { params: { id: scene.scene.id } }));
    expect(sceneNow.members.find((m) => m.id === stranger.id)?.action).toEqual({ on: true, percent: 55 });
    expect(
      sim()
        .config.groups.find((g) => g.name === 'Hall')!
        .devices.sort(),
    ).toEqual([member.addr, stranger.addr].sort());
    expect(sim().config.scenes.some((s) => s.steps.some((step) => 'device' in step.target && step.target.device === stranger.addr))).toBe(
      true,
    );
    expect(simParams(stranger.addr)).toMatchObject({ fadeTime: 40, minBrightness: 12 });
    expect(await data(send(V.unrelated, { params: { mapId, gatewayId } }))).toEqual([]);
    expect((await data(send(V.related, { params: { mapId } }))).map((v) => v.id)).toEqual([virtual!.id]);
    expectError(await send(V.updateVirtual, { body: { id: virtual!.id, name: 'Renamed' } }), 100703);
    expectError(await send(V.deleteVirtual, { params: { mapId, id: virtual!.id } }), 100703);
    expectError(await send(V.relate, { body: { id: virtual!.id, deviceId: stranger.id } }), 100703);

    // Unrelate: the real device gives back what it took and returns to its place; the virtual one comes back.
    const undone = await data(send(V.unrelate, { body: { id: virtual!.id } }));
    expect(undone).toMatchObject({ sync: 0, virtual: { related: null, groups: [{ id: group.id }] } });
    const back = await data(send(deviceEndpoints.detail, { params: { mapId, id: stranger.id } }));
    expect([back.x, back.y, back.groupIds]).toEqual([before.x, before.y, []]);
    const sceneBack = await data(send(sceneEndpoints.get, { params: { id: scene.scene.id } }));
    expect(sceneBack.members.map((m) => m.id)).toEqual([member.id]);
    expect(sim().config.groups.find((g) => g.name === 'Hall')!.devices).toEqual([member.addr]);
    expectError(await send(V.unrelate, { body: { id: virtual!.id } }), 100705);

    // A template a virtual device carries stays (260022) until the virtual device goes.
    const spare = await data(
      send(V.buildTemplate, { body: { name: 'Spare', kind: 'interface', deviceType: member.type, params: { reportInterval: 120 } } }),
    );
    await data(send(V.updateVirtual, { body: { id: virtual!.id, interfaceTemplateId: spare.id } }));
    expectError(await send(V.deleteTemplate, { params: { id: spare.id } }), 260022);
    await data(send(V.deleteVirtual, { params: { mapId, id: virtual!.id } }));
    await data(send(V.deleteTemplate, { params: { id: spare.id } }));
  });

  async function buildOf(map: string): Promise<string | undefined> {
    const tree = await data(send(projectEndpoints.tree, { params: { id: '0' } }));
    return tree.projects.flatMap((p) => p.builds).find((b) => b.maps.some((m) => m.id === map))?.id;
  }
});
