import { OPERATE_AUTH, groupEndpoints, newSceneFields, sceneEndpoints, virtualEndpoints as V } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, api, apiData, expectError } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, twoGatewayTenancyWorld } from '../../test/gateways.fixtures.ts';
import { defaultProject, subAccount } from '../../test/projects.fixtures.ts';

/** The first account's names: no answer to the second account may carry them. */
const SECRETS = ['Secret stand-in', 'Secret preset'];

type Ids = {
  project: string;
  build: string;
  map: string;
  gateway: string;
  device: string;
  group: string;
  scene: string;
  template: string;
  virtual: string;
};

const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(V.applyTemplate, (a) => ({ body: { id: a.template, deviceIds: [a.device] } })),
  tenancyCase(V.applyTemplate, (a, b) => ({ body: { id: b.template, deviceIds: [a.device] } })),
  tenancyCase(V.buildVirtual, (a, b) => ({ body: { mapId: a.map, gatewayId: b.gateway, type: 4, count: 1, name: 'Mine' } })),
  tenancyCase(V.buildVirtual, (a, b) => ({ body: { mapId: b.map, gatewayId: a.gateway, type: 4, count: 1, name: 'Mine' } })),
  tenancyCase(V.buildVirtual, (a, b) => ({
    body: { mapId: b.map, gatewayId: b.gateway, type: 4, count: 1, name: 'Mine', functionTemplateId: a.template },
  })),
  tenancyCase(V.updateVirtual, (a) => ({ body: { id: a.virtual, name: 'Taken over' } })),
  tenancyCase(V.updateVirtual, (a, b) => ({ body: { id: b.virtual, groupIds: [a.group] } })),
  tenancyCase(V.updateVirtual, (a, b) => ({ body: { id: b.virtual, scenes: [{ sceneId: a.scene, step: 0, action: { on: true } }] } })),
  tenancyCase(V.updateVirtual, (a, b) => ({ body: { id: b.virtual, interfaceTemplateId: a.template } })),
  tenancyCase(V.deleteVirtual, (a) => ({ params: { mapId: a.map, id: a.virtual } })),
  tenancyCase(V.deleteVirtual, (a, b) => ({ params: { mapId: b.map, id: a.virtual } })),
  tenancyCase(V.gateways, (a) => ({ params: { projectId: a.project, buildId: a.build, mapId: a.map } })),
  tenancyCase(V.details, (a) => ({ params: { id: a.virtual } })),
  tenancyCase(V.unrelated, (a) => ({ params: { mapId: a.map, gatewayId: '0' } })),
  tenancyCase(V.unrelated, (a, b) => ({ params: { mapId: b.map, gatewayId: a.gateway } })),
  tenancyCase(V.related, (a) => ({ params: { mapId: a.map } })),
  tenancyCase(V.candidates, (a) => ({ body: { id: a.virtual } })),
  tenancyCase(V.relate, (a, b) => ({ body: { id: a.virtual, deviceId: b.device } })),
  tenancyCase(V.relate, (a, b) => ({ body: { id: b.virtual, deviceId: a.device } })),
  tenancyCase(V.unrelate, (a) => ({ body: { id: a.virtual } })),
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  tenancyCase(V.details, () => ({ params: { id: '987654321' } })),
  tenancyCase(V.candidates, () => ({ body: { id: '9999999999999999999' } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the virtual device and parameter template calls on %s', (kind) => {
  const { world, commandsSeen } = twoGatewayTenancyWorld(kind, {
    accounts: { victim: 'virtual-owner@example.com', intruder: 'virtual-intruder@example.com' },
    countCommands: (c) => c.name.startsWith('device'),
    build: async (rig, { token, sim, victim }): Promise<Ids> => {
      const { app } = rig.h;
      const [virtualName, templateName] = victim ? [SECRETS[0]!, SECRETS[1]!] : ['Own stand-in', 'Own preset'];
      const { gateway, mapId, placed } = await buildGatewayWithDevices(rig.h, token, {
        mac: sim.mac,
        place: (d) => d.kind === 'light-dimmer',
      });
      const light = placed[0]!;
      const project = await defaultProject(rig.h, token);
      const group = await apiData(
        app,
        groupEndpoints.add,
        { body: { mapId, gatewayId: gateway.id, name: 'Hall', deviceIds: [light.id] } },
        { token },
      );
      const scene = await apiData(
        app,
        sceneEndpoints.add,
        {
          body: {
            ...newSceneFields(project.id, 'manual', 'Evening'),
            steps: [{ holdS: 0, members: [{ type: 'device', id: light.id, action: { on: true } }] }],
          },
        },
        { token },
      );
      const template = await apiData(
        app,
        V.buildTemplate,
        { body: { name: templateName, kind: 'function', deviceType: light.type, params: { fadeTime: 20 } } },
        { token },
      );
      const [virtual] = await apiData(
        app,
        V.buildVirtual,
        {
          body: {
            mapId,
            gatewayId: gateway.id,
            type: light.type,
            count: 1,
            name: virtualName,
            x: 0.5,
            y: 0.5,
            functionTemplateId: template.id,
          },
        },
        { token },
      );
      return {
        project: project.id,
        build: project.builds[0]!.id,
        map: mapId,
        gateway: gateway.id,
        device: light.id,
        group: group.id,
        scene: scene.scene.id,
        template: template.id,
        virtual: virtual!.id,
      };
    },
    timeout: 180_000,
  });
  const h = () => world().h;

  tenancyMatrix({
    domain: V,
    cases: CASES,
    // Templates belong to the account, not to a project: they are checked below, by account.
    withoutIds: [V.templates, V.buildTemplate, V.updateTemplate, V.deleteTemplate],
    secrets: SECRETS,
    world,
  });

  it('shows and changes templates of the caller\u2019s own account only', async () => {
    const { intruder, principals, a } = world();
    const intruders = [intruder, principals.intruderEditable.token];
    for (const token of intruders) {
      const listed = await data(api(h().app, V.templates, { params: { type: 0 }, query: {} }, { token }));
      expect(JSON.stringify(listed)).not.toContain(SECRETS[1]);
      expectError(await api(h().app, V.updateTemplate, { body: { id: a.template, name: 'Taken over' } }, { token }), 110011);
      expectError(await api(h().app, V.deleteTemplate, { params: { id: a.template } }, { token }), 110011);
    }
    for (const token of [undefined]) expectError(await api(h().app, V.templates, { params: { type: 0 }, query: {} }, { token }), 250004);
    // The account's own sub-accounts share its templates; a limited one reaches no device outside its projects.
    const sibling = await data(api(h().app, V.templates, { params: { type: 0 }, query: {} }, { token: principals.sibling.token }));
    expect(sibling.map((t) => t.name)).toContain(SECRETS[1]);
  });

  it('refuses every write of a view-only user of the account, and lets it read', async () => {
    const { a } = world();
    const viewOnly = await subAccount(h(), 'virtual-owner@example.com', OPERATE_AUTH.viewOnly);
    const as = { token: viewOnly };
    expectError(
      await api(h().app, V.buildTemplate, { body: { name: 'No', kind: 'function', deviceType: 4, params: { fadeTime: 1 } } }, as),
      110003,
    );
    expectError(await api(h().app, V.updateTemplate, { body: { id: a.template, name: 'No' } }, as), 110003);
    expectError(await api(h().app, V.deleteTemplate, { params: { id: a.template } }, as), 110003);
    expectError(await api(h().app, V.applyTemplate, { body: { id: a.template, deviceIds: [a.device] } }, as), 110003);
    expectError(
      await api(h().app, V.buildVirtual, { body: { mapId: a.map, gatewayId: a.gateway, type: 4, count: 1, name: 'No' } }, as),
      110003,
    );
    expectError(await api(h().app, V.updateVirtual, { body: { id: a.virtual, name: 'No' } }, as), 110003);
    expectError(await api(h().app, V.deleteVirtual, { params: { mapId: a.map, id: a.virtual } }, as), 110003);
    expectError(await api(h().app, V.relate, { body: { id: a.virtual, deviceId: a.device } }, as), 110003);
    expectError(await api(h().app, V.unrelate, { body: { id: a.virtual } }, as), 110003);
    expect(await data(api(h().app, V.details, { params: { id: a.virtual } }, as))).toMatchObject({ name: SECRETS[0] });
  });

  it('left the first account\u2019s templates and virtual devices as they were and sent its gateway nothing', async () => {
    const { victim, a } = world();
    const virtual = await data(api(h().app, V.details, { params: { id: a.virtual } }, { token: victim }));
    expect(virtual).toMatchObject({ name: SECRETS[0], related: null, functionTemplateId: a.template });
    const templates = await data(api(h().app, V.templates, { params: { type: 0 }, query: {} }, { token: victim }));
    expect(templates.map((t) => t.name)).toEqual([SECRETS[1]]);
    expect(commandsSeen()).toBe(0);
  });
});
