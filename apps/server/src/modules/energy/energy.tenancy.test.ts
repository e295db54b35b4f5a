import { energyEndpoints } from '@lumigrid/contract';
import { describe } from 'vitest';
import { tenancyCase, tenancyMatrix, twoMapsTenancyWorld, type MapPlaces, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES } from '../../test/harness.ts';

/** The first account's map name: it may appear in no answer to the second account. */
const SECRET = 'Secret boiler room';

const NOVEMBER = { from: '2026-11-01', to: '2026-11-30', unit: 'day' as const };

/** Every energy route, called by a second account with the first account's places, alone or under its own project. */
const CASES: Array<TenancyCase<MapPlaces>> = [
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

describe.each(SERVICE_DATABASES)('tenancy of the energy calls on %s', (kind) => {
  const world = twoMapsTenancyWorld(kind, { name: 'energy', secret: SECRET, intruderMap: 'Own boiler room', timeout: 60_000 });

  tenancyMatrix({ domain: energyEndpoints, cases: CASES, secrets: [SECRET], world });
});
