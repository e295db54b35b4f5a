import { groupEndpoints, newSceneFields, sceneEndpoints, type SceneFields, type SceneSaveResult } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, uploadTenancyCase, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, api } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, twoGatewayTenancyWorld } from '../../test/gateways.fixtures.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';

/** The first account's scene name: it may appear in no answer to the second account. */
const SECRET = 'Secret scene';

type Ids = { project: string; map: string; device: string; panel: string; sensor: string; group: string; scene: string; part: string };

const fields = (project: string, name: string, device: string): SceneFields => ({
  ...newSceneFields(project, 'manual', name),
  steps: [{ holdS: 0, members: [{ type: 'device', id: device, action: { on: true } }] }],
});

/**
 * Every scene route, called by a second account with the first account's ids (`a`) and, where a call takes
 * several ids, its own (`b`) for the others.
 */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(sceneEndpoints.page, (a) => ({ body: { projectId: a.project } })),
  tenancyCase(sceneEndpoints.export, (a) => ({ body: { projectId: a.project } })),
  tenancyCase(sceneEndpoints.get, (a) => ({ params: { id: a.scene } })),
  tenancyCase(sceneEndpoints.add, (a, b) => ({ body: fields(a.project, 'Taken', b.device) })),
  tenancyCase(sceneEndpoints.add, (a, b) => ({ body: fields(b.project, 'Taken', a.device) })),
  tenancyCase(sceneEndpoints.update, (a, b) => ({ body: { id: a.scene, ...fields(b.project, 'Taken over', b.device) } })),
  tenancyCase(sceneEndpoints.update, (a, b) => ({ body: { id: b.scene, ...fields(b.project, 'Own', a.device) } })),
  tenancyCase(sceneEndpoints.removeSlice, (a) => ({ params: { id: a.part } })),
  tenancyCase(sceneEndpoints.remove, (a) => ({ params: { id: a.scene } })),
  uploadTenancyCase(sceneEndpoints.uploadImage, (a) => ({ id: a.scene })),
  tenancyCase(sceneEndpoints.removeImage, (a) => ({ params: { id: a.scene }, body: {} })),
  tenancyCase(sceneEndpoints.manuals, (a) => ({ params: { id: a.project } })),
  tenancyCase(sceneEndpoints.execute, (a) => ({ params: { id: a.scene }, body: {} })),
  tenancyCase(sceneEndpoints.runs, (a) => ({ body: { id: a.scene } })),
  tenancyCase(sceneEndpoints.week, (a) => ({ body: { projectId: a.project, from: '2026-11-23' } })),
  tenancyCase(sceneEndpoints.settings, (a) => ({ params: { projectId: a.project } })),
  tenancyCase(sceneEndpoints.saveSettings, (a) => ({ body: { projectId: a.project, holidays: [], overrideMin: 5 } })),
  tenancyCase(sceneEndpoints.inputScene, (a, b) => ({ body: { panelId: a.panel, key: 1, sceneId: b.scene } })),
  tenancyCase(sceneEndpoints.inputScene, (a, b) => ({ body: { panelId: b.panel, key: 1, sceneId: a.scene } })),
  tenancyCase(sceneEndpoints.linkages, (a) => ({ params: { mapId: a.map } })),
  tenancyCase(sceneEndpoints.saveLinkage, (a, b) => ({
    body: { sensorId: a.sensor, groupId: b.group, onDetectPercent: 50, onClearPercent: 0, holdS: 60, lux: null },
  })),
  tenancyCase(sceneEndpoints.saveLinkage, (a, b) => ({
    body: { sensorId: b.sensor, groupId: a.group, onDetectPercent: 50, onClearPercent: 0, holdS: 60, lux: null },
  })),
  tenancyCase(sceneEndpoints.removeLinkage, (a) => ({ params: { id: a.sensor }, body: {} })),
  tenancyCase(sceneEndpoints.panelKeys, (a) => ({ params: { id: a.panel } })),
  tenancyCase(sceneEndpoints.executeAuto, (a) => ({ body: { deviceIds: [a.device] } })),
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  tenancyCase(sceneEndpoints.get, () => ({ params: { id: '987654321' } })),
  tenancyCase(sceneEndpoints.get, () => ({ params: { id: '9999999999999999999' } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the scene calls on %s', (kind) => {
  const { world, commandsSeen } = twoGatewayTenancyWorld(kind, {
    accounts: { victim: 'scene-owner@example.com', intruder: 'scene-intruder@example.com' },
    countCommands: (c) => c.name !== 'config.apply',
    build: async (rig, { token, sim, victim }): Promise<Ids> => {
      const { app } = rig.h;
      const name = victim ? SECRET : 'Own scene';
      const { placed, gateway, mapId } = await buildGatewayWithDevices(rig.h, token, {
        mac: sim.mac,
        place: (d) => ['light-cct', 'panel-scene6', 'sensor-motion'].includes(d.kind),
      });
      const project = (await defaultProject(rig.h, token)).id;
      const light = placed.find((d) => d.kind === 'light-cct')!;
      const panel = placed.find((d) => d.kind === 'panel-scene6')!;
      const sensor = placed.find((d) => d.kind === 'sensor-motion')!;
      const saved = await data<SceneSaveResult>(api(app, sceneEndpoints.add, { body: fields(project, name, light.id) }, { token }));
      const group = await data(
        api(app, groupEndpoints.add, { body: { mapId, gatewayId: gateway.id, name, deviceIds: [light.id] } }, { token }),
      );
      const linkage = { sensorId: sensor.id, groupId: group.id, onDetectPercent: 80, onClearPercent: 10, holdS: 60, lux: null };
      await data(api(app, sceneEndpoints.saveLinkage, { body: linkage }, { token }));
      return {
        project,
        map: mapId,
        device: light.id,
        panel: panel.id,
        sensor: sensor.id,
        group: group.id,
        scene: saved.scene.id,
        part: saved.scene.parts[0]!.id,
      };
    },
  });

  tenancyMatrix({
    domain: sceneEndpoints,
    cases: CASES,
    // Served by an unguessable file name, as floor plans are.
    withoutIds: [sceneEndpoints.image],
    secrets: [SECRET],
    world,
  });

  it('left the first account\u2019s scene as it was and sent its gateway nothing', async () => {
    const { app, victim, a } = world();
    const scene = await data(api(app, sceneEndpoints.get, { params: { id: a.scene } }, { token: victim }));
    expect(scene).toMatchObject({ name: SECRET, parts: [{ id: a.part }] });
    expect(scene.members.map((m) => m.id)).toEqual([a.device]);
    expect(commandsSeen()).toBe(0);
    const keys = await data(api(app, sceneEndpoints.panelKeys, { params: { id: a.panel } }, { token: victim }));
    expect(keys).toEqual([]);
    const linkages = await data(api(app, sceneEndpoints.linkages, { params: { mapId: a.map } }, { token: victim }));
    expect(linkages).toMatchObject([{ sensorId: a.sensor, groupId: a.group, onDetectPercent: 80 }]);
  });
});
