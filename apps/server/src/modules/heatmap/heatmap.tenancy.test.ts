import { DEFAULT_HEAT_LEVELS, heatmapEndpoints } from '@lumigrid/contract';
import { describe } from 'vitest';
import { tenancyCase, tenancyMatrix, twoMapsTenancyWorld, type MapPlaces, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES } from '../../test/harness.ts';

/** The first account's map name: it may appear in no answer to the second account. */
const SECRET = 'Secret boardroom';

const WEEK = { from: '2026-11-16', to: '2026-11-22' };
const levels = DEFAULT_HEAT_LEVELS.map((l) => ({ ...l }));

/** Every heatmap route, called by a second account with the first account's places, alone or under its own project. */
const CASES: Array<TenancyCase<MapPlaces>> = [
  tenancyCase(heatmapEndpoints.gen, (a) => ({ body: { mapId: a.map, ...WEEK } })),
  tenancyCase(heatmapEndpoints.page, (a) => ({ body: { projectId: a.project, ...WEEK } })),
  tenancyCase(heatmapEndpoints.page, (a, b) => ({ body: { projectId: b.project, mapId: a.map, ...WEEK } })),
  tenancyCase(heatmapEndpoints.download, (a) => ({ body: { projectId: a.project, ...WEEK } })),
  tenancyCase(heatmapEndpoints.download, (a, b) => ({ body: { projectId: b.project, buildId: a.build, ...WEEK } })),
  tenancyCase(heatmapEndpoints.settings, (a) => ({ params: { projectId: a.project } })),
  tenancyCase(heatmapEndpoints.saveSettings, (a) => ({ body: { projectId: a.project, levels } })),
  tenancyCase(heatmapEndpoints.resetSettings, (a) => ({ body: { projectId: a.project } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the heatmap calls on %s', (kind) => {
  const world = twoMapsTenancyWorld(kind, { name: 'heatmap', secret: SECRET, intruderMap: 'Own boardroom', timeout: 120_000 });

  tenancyMatrix({ domain: heatmapEndpoints, cases: CASES, secrets: [SECRET], world });
});
