import { energyEndpoints, projectEndpoints } from '@lumigrid/contract';
import { afterAll, beforeAll, describe } from 'vitest';
import { tenancyCase, tenancyMatrix, tenancyPrincipals, type Principal, type PrincipalKey, type TenancyCase } from '../../test/tenancy.ts';
import { DATABASES, apiData, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';

/** The first account's map name: it may appear in no answer to the second account. */
const SECRET = 'Secret boiler room';

type Ids = { project: string; build: string; map: string };

const NOVEMBER = { from: '2026-11-01', to: '2026-11-30', unit: 'day' as const };

/** Every energy route, called by a second account with the first account's places, alone or under its own project. */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(energyEndpoints.total, (a) => ({ body: { projectId: a.project, period: 'month' as const, date: '2026-11-01' } })),
  tenancyCase(energyEndpoints.total, (a, b) => ({
    body: { projectId: b.project, buildId: a.build, period: 'day' as const, date: '2026-11-01' },
  })),
  tenancyCase(energyEndpoints.total, (a, b) => ({
    body: { projectId: b.project, mapId: a.map, period: 'year' as const, date: '2026-11-01' },
  })),
  tenancyCase(energyEndpoints.records, (a) => ({ body: { projectId: a.project, ...NOVEMBER } })),
  tenancyCase(energyEndpoints.records, (a, b) => ({ body: { projectId: b.project, mapId: a.map, ...NOVEMBER } })),
  tenancyCase(energyEndpoints.report, (a) => ({ body: { projectId: a.project, ...NOVEMBER } })),
  tenancyCase(energyEndpoints.report, (a, b) => ({ body: { projectId: b.project, buildId: a.build, ...NOVEMBER } })),
];

describe.each(DATABASES)('tenancy of the energy calls on %s', (kind) => {
  let h: Harness;
  let tokenB: string;
  let principals: Record<PrincipalKey, Principal>;
  let a: Ids;
  let b: Ids;

  beforeAll(async () => {
    h = await startApp(kind);
    const tokenA = await signUpByMail(h, 'energy-owner@example.com');
    tokenB = await signUpByMail(h, 'energy-intruder@example.com');
    principals = await tenancyPrincipals(h, {
      victim: 'energy-owner@example.com',
      victimToken: tokenA,
      intruder: 'energy-intruder@example.com',
    });
    const places = async (token: string, mapName: string): Promise<Ids> => {
      const tree = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token });
      const project = tree.projects.find((p) => p.isDefault)!;
      const build = project.builds[0]!.id;
      const map = await treeFactory(h, token).map({ buildId: build, name: mapName });
      return { project: project.id, build, map: map.id };
    };
    a = await places(tokenA, SECRET);
    b = await places(tokenB, 'Own boiler room');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  tenancyMatrix({
    domain: energyEndpoints,
    cases: CASES,
    secrets: [SECRET],
    world: () => ({ app: h.app, intruder: tokenB, a, b, principals }),
  });
});
