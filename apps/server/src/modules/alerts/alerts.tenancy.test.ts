import { alertEndpoints, deviceEndpoints, mapEndpoints, type AlertPage } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, api } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, twoGatewayTenancyWorld } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';

/** The first account's device name: it may appear in no answer to the second account. */
const SECRET = 'Secret lamp';

type Ids = { alert: string; project: string; build: string; map: string; gateway: string };

/** Every alert route, called by a second account with the first account's ids. */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(alertEndpoints.page, (a) => ({ body: { projectId: a.project } })),
  tenancyCase(alertEndpoints.page, (a) => ({ body: { buildId: a.build } })),
  tenancyCase(alertEndpoints.page, (a) => ({ body: { mapId: a.map } })),
  tenancyCase(alertEndpoints.page, (a) => ({ body: { gatewayId: a.gateway } })),
  tenancyCase(alertEndpoints.statistics, (a) => ({
    body: { mapId: a.map, from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z', unit: 'day' as const },
  })),
  tenancyCase(alertEndpoints.handle, (a, b) => ({ body: { ids: [b.alert, a.alert], note: 'mine now' } })),
  tenancyCase(alertEndpoints.remove, (a, b) => ({ body: { ids: [b.alert, a.alert] } })),
  tenancyCase(alertEndpoints.remove, () => ({ body: { ids: ['9999999999999999999'] } })),
  tenancyCase(alertEndpoints.deviceState, (a) => ({ body: { projectId: a.project } })),
  tenancyCase(alertEndpoints.deviceState, (a) => ({ body: { gatewayId: a.gateway } })),
  tenancyCase(alertEndpoints.deviceState, (a) => ({ body: { mapId: a.map } })),
  tenancyCase(alertEndpoints.deviceStatus, (a) => ({ body: { buildId: a.build } })),
  tenancyCase(alertEndpoints.deviceStatus, (a) => ({ body: { mapId: a.map, fault: 8 } })),
  tenancyCase(alertEndpoints.projectStatus, (a) => ({ params: { id: a.project } })),
  tenancyCase(alertEndpoints.buildingStatus, (a) => ({ params: { id: a.project, buildId: a.build } })),
  tenancyCase(alertEndpoints.buildingStatus, (a, b) => ({ params: { id: b.project, buildId: a.build } })),
  tenancyCase(alertEndpoints.mapStatus, (a) => ({ params: { id: a.project, mapId: a.map } })),
  tenancyCase(alertEndpoints.mapStatus, (a, b) => ({ params: { id: b.project, mapId: a.map } })),
  tenancyCase(alertEndpoints.failReport, (a) => ({ body: { mapId: a.map } })),
  tenancyCase(alertEndpoints.failReport, (a) => ({ body: { gatewayId: a.gateway } })),
  tenancyCase(alertEndpoints.statusReport, (a) => ({ body: { projectId: a.project } })),
  tenancyCase(alertEndpoints.statusReport, (a) => ({ body: { gatewayId: a.gateway } })),
  tenancyCase(mapEndpoints.devicesReport, (a) => ({ body: { mapId: a.map } })),
  tenancyCase(mapEndpoints.gateways, (a) => ({ params: { buildId: a.build, mapId: a.map } })),
  tenancyCase(mapEndpoints.gateways, (a, b) => ({ params: { buildId: b.build, mapId: a.map } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the alert calls on %s', (kind) => {
  const { world } = twoGatewayTenancyWorld(kind, {
    accounts: { victim: 'alert-owner@example.com', intruder: 'alert-intruder@example.com' },
    build: async (rig, { token, sim, victim }): Promise<Ids> => {
      const name = victim ? SECRET : 'Own lamp';
      const { gateway, mapId, placed } = await buildGatewayWithDevices(rig.h, token, {
        mac: sim.mac,
        place: (d) => d.kind === 'light-cct',
      });
      const light = placed[0]!;
      await api(rig.h.app, deviceEndpoints.rename, { body: { id: light.id, name } }, { token });
      sim.raiseFault(light.addr, 8);
      let alert = '';
      await poll(async () => {
        const page = await data<AlertPage>(api(rig.h.app, alertEndpoints.page, { body: {} }, { token }));
        alert = page.list[0]?.id ?? '';
        return alert !== '';
      }, 'an alert');
      const project = await defaultProject(rig.h, token);
      return { alert, project: project.id, build: project.builds[0]!.id, map: mapId, gateway: gateway.id };
    },
  });

  tenancyMatrix({ domain: alertEndpoints, cases: CASES, secrets: [SECRET], world });

  it('left the first account\u2019s alert as it was', async () => {
    const { app, victim, intruder, a, b } = world();
    const page = await data<AlertPage>(api(app, alertEndpoints.page, { body: {} }, { token: victim }));
    expect(page.list).toMatchObject([{ id: a.alert, name: SECRET, state: 'pending', note: '' }]);
    const own = await data<AlertPage>(api(app, alertEndpoints.page, { body: {} }, { token: intruder }));
    expect(own.list.map((x) => x.id)).toEqual([b.alert]);
  });
});
