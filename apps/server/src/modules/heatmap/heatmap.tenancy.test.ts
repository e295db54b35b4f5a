import { DEFAULT_HEAT_LEVELS, heatmapEndpoints, projectEndpoints } from '@lumigrid/contract';
import { afterAll, beforeAll, describe } from 'vitest';
import { tenancyCase, tenancyMatrix, tenancyPrincipals, type Principal, type PrincipalKey, type TenancyCase } from '../../test/tenancy.ts';
import { DATABASES, apiData, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';

/** The first account's map name: it may appear in no answer to the second account. */
const SECRET = 'Secret boardroom';

type Ids = { project: string; build: string; map: string };

const WEEK = { from: '2026-11-16', to: '2026-11-22' };
const levels = DEFAULT_HEAT_LEVELS.map((l) => ({ ...l }));

/** Every heatmap route, called by a second account with the first account's places, alone or under its own project. */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(heatmapEndpoints.gen, (a) => ({ body: { mapId: a.map, ...WEEK } })),
  tenancyCase(heatmapEndpoints.page, (a) => ({ body: { projectId: a.project, ...WEEK } })),
  tenancyCase(heatmapEndpoints.page, (a, b) => ({ body: { projectId: b.project, mapId: a.map, ...WEEK } })),
  tenancyCase(heatmapEndpoints.download, (a) => ({ body: { projectId: a.project, ...WEEK } })),
  tenancyCase(heatmapEndpoints.download, (a, b) => ({ body: { projectId: b.project, buildId: a.build, ...WEEK } })),
  tenancyCase(heatmapEndpoints.settings, (a) => ({ params: { projectId: a.project } })),
  tenancyCase(heatmapEndpoints.saveSettings, (a) => ({ body: { projectId: a.project, levels } })),
  tenancyCase(heatmapEndpoints.resetSettings, (a) => ({ body: { projectId: a.project } })),
];

describe.each(DATABASES)('tenancy of the heatmap calls on %s', (kind) => {
  let h: Harness;
  let tokenB: string;
  let principals: Record<PrincipalKey, Principal>;
  let a: Ids;
  let b: Ids;

  beforeAll(async () => {
    h = await startApp(kind);
    const tokenA = await signUpByMail(h, 'heatmap-owner@example.com');
    tokenB = await signUpByMail(h, 'heatmap-intruder@example.com');
    principals = await tenancyPrincipals(h, {
      victim: 'heatmap-owner@example.com',
      victimToken: tokenA,
      intruder: 'heatmap-intruder@example.com',
    });
    const places = async (token: string, mapName: string): Promise<Ids> => {
      const tree = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token });
      const project = tree.projects.find((p) => p.isDefault)!;
      const build = project.builds[0]!.id;
      const map = await treeFactory(h, token).map({ buildId: build, name: mapName });
      return { project: project.id, build, map: map.id };
    };
    a = await places(tokenA, SECRET);
    b = await places(tokenB, 'Own boardroom');
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  tenancyMatrix({
    domain: heatmapEndpoints,
    cases: CASES,
    secrets: [SECRET],
    world: () => ({ app: h.app, intruder: tokenB, a, b, principals }),
  });
});
