import { describe, expect, it } from 'vitest';
import type { ProjectTree } from '@lumigrid/contract/browser';
import { alertListHref, alertListLinkOf, placeName, placeOf, searchFormOfLink } from './filters.ts';

describe('links to the fault list (statistics drill-down)', () => {
  it('writes and reads the filters as query parameters', () => {
    const href = alertListHref({ projectId: '1', mapId: '7', code: 8, from: '2026-03-01', to: '2026-03-30' });
    expect(href).toBe('/alert/list?projectId=1&mapId=7&code=8&from=2026-03-01&to=2026-03-30');
    expect(alertListLinkOf(new URLSearchParams(href.split('?')[1]))).toEqual({
      projectId: '1',
      mapId: '7',
      code: 8,
      from: '2026-03-01',
      to: '2026-03-30',
    });
    expect(alertListHref({})).toBe('/alert/list');
  });

  it('drops malformed parameters instead of sending them', () => {
    expect(alertListLinkOf(new URLSearchParams('projectId=x&code=12&from=yesterday&to=2026-13-45&mapId='))).toEqual({});
  });

  it('fills the search form and keeps the place apart from it', () => {
    expect(searchFormOfLink({ code: 8, from: '2026-03-01', to: '2026-03-02', mapId: '7' })).toEqual({
      code: '8',
      raisedAt: ['2026-03-01', '2026-03-02'],
    });
    expect(searchFormOfLink({ from: '2026-03-01' })).toEqual({ raisedAt: ['2026-03-01', '2026-03-01'] });
    expect(placeOf({ buildId: '3', code: 8 } as never)).toEqual({ buildId: '3' });
  });

  it('names a place from the project tree', () => {
    const tree = {
      projects: [{ id: '1', builds: [{ id: '3', name: 'Tower', maps: [{ id: '7', name: 'Floor 1' }] }] }],
    } as unknown as ProjectTree;
    expect(placeName(tree, { mapId: '7' })).toBe('Tower / Floor 1');
    expect(placeName(tree, { buildId: '3' })).toBe('Tower');
    expect(placeName(tree, { mapId: '8' })).toBeUndefined();
  });
});
