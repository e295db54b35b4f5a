import { describe, expect, it } from 'vitest';
import type { ProjectTree, TreeBuilding, TreeProject } from '@lumigrid/contract/browser';
import { initialMapPath, mapPathOptions, parentOptions, pathOfMap, selfAndDescendants, withPaths } from './tree.ts';
import { siteZone } from './site-time.ts';

const at = '2026-11-23T10:00:00.000Z';

function map(id: string, buildId: string, projectId: string, isDefault = false) {
  return {
    id,
    projectId,
    buildId,
    name: `map ${id}`,
    image: null,
    imageWidth: null,
    imageHeight: null,
    opacity: 100,
    isDefault,
    deviceCount: 0,
    createdAt: at,
  };
}

function build(id: string, projectId: string, maps: string[], extra: Partial<TreeBuilding> = {}): TreeBuilding {
  return {
    id,
    projectId,
    name: `build ${id}`,
    parentId: null,
    isDefault: false,
    mapCount: maps.length,
    createdAt: at,
    maps: maps.map((m) => map(m, id, projectId)),
    ...extra,
  };
}

function project(id: string, builds: TreeBuilding[], extra: Partial<TreeProject> = {}): TreeProject {
  return {
    id,
    name: `project ${id}`,
    address: null,
    parentId: null,
    longitude: null,
    latitude: null,
    carbonFactor: 0.5,
    isDefault: false,
    buildCount: builds.length,
    mapCount: builds.reduce((n, b) => n + b.maps.length, 0),
    timeZone: 'UTC',
    createdAt: at,
    builds,
    ...extra,
  };
}

const tree: ProjectTree = {
  projects: [
    project('1', [build('10', '1', ['100']), build('11', '1', ['110', '111'], { isDefault: true })], { isDefault: true }),
    project('2', [build('20', '2', [])], { parentId: '1' }),
    project('3', [build('30', '3', ['300']), build('31', '3', ['310'], { parentId: '30' })]),
  ],
};

describe('installation tree helpers', () => {
  const items = [
    { id: 'a', parentId: null, name: 'A' },
    { id: 'b', parentId: 'a', name: 'B' },
    { id: 'c', parentId: 'b', name: 'C' },
    { id: 'd', parentId: null, name: 'D' },
  ];

  it('finds an item and its descendants, which cannot become its parent', () => {
    expect([...selfAndDescendants(items, 'a')].sort()).toEqual(['a', 'b', 'c']);
    const options = parentOptions(items, 'b');
    expect(options.map((o) => [o.value, o.disabled])).toEqual([
      ['a', undefined],
      ['d', undefined],
    ]);
    expect(options[0]?.children[0]).toMatchObject({ value: 'b', disabled: true, children: [{ value: 'c', disabled: true }] });
  });

  it('lists items in tree order with their ancestors', () => {
    expect(withPaths(items).map(({ item, path }) => [item.id, path.join('/')])).toEqual([
      ['a', 'A'],
      ['b', 'A/B'],
      ['c', 'A/B/C'],
      ['d', 'D'],
    ]);
  });

  it('builds the three cascader levels, disabling branches without maps', () => {
    const options = mapPathOptions(tree);
    expect(options.map((o) => [o.label, o.disabled])).toEqual([
      ['project 1', undefined],
      ['project 1 / project 2', true],
      ['project 3', undefined],
    ]);
    expect(options[2]?.children?.map((b) => b.label)).toEqual(['build 30', 'build 30 / build 31']);
    expect(options[0]?.children?.[1]?.children?.map((m) => m.value)).toEqual(['110', '111']);
  });

  it('opens on the remembered map, else the remembered project, else the default project', () => {
    expect(initialMapPath(tree, { path: ['3', '31', '310'] })).toEqual(['3', '31', '310']);
    // A remembered map that moved or went away falls back to its project.
    expect(initialMapPath(tree, { path: ['3', '30', '999'], projectId: '3' })).toEqual(['3', '30', '300']);
    expect(initialMapPath(tree, { projectId: '3' })).toEqual(['3', '30', '300']);
    // The default project opens on its default building first.
    expect(initialMapPath(tree, {})).toEqual(['1', '11', '110']);
    expect(initialMapPath(tree, { projectId: '2' })).toEqual(['1', '11', '110']);
    expect(initialMapPath({ projects: [] }, {})).toBeUndefined();
    expect(pathOfMap(tree, '111')).toEqual(['1', '11', '111']);
  });

  it('opens a first visit on the map with the most devices, else the first with a floor plan', () => {
    const withDevices = structuredClone(tree);
    const plan = withDevices.projects[2]!.builds[0]!.maps[0]!;
    plan.image = '/api4/map/v1/image/plan.png';
    expect(initialMapPath(withDevices, {})).toEqual([plan.projectId, plan.buildId, plan.id]);
    const busy = withDevices.projects[2]!.builds[1]!.maps[0]!;
    busy.deviceCount = 3;
    expect(initialMapPath(withDevices, {})).toEqual([busy.projectId, busy.buildId, busy.id]);
    // What the user chose before still wins.
    expect(initialMapPath(withDevices, { path: ['1', '11', '111'] })).toEqual(['1', '11', '111']);
  });
});

describe("a site's time zone", () => {
  const zoned: ProjectTree = {
    projects: tree.projects.map((p) => ({ ...p, timeZone: p.id === '3' ? 'Pacific/Auckland' : 'UTC' })),
  };

  it('is the zone the server answers for the project, found by the project or by one of its maps', () => {
    expect(siteZone(zoned, { projectId: '3' })).toBe('Pacific/Auckland');
    expect(siteZone(zoned, { mapId: '310' })).toBe('Pacific/Auckland');
    expect(siteZone(zoned, { mapId: '100' })).toBe('UTC');
  });

  it('is not known before the tree is, nor for a site the tree does not hold', () => {
    expect(siteZone(undefined, { projectId: '3' })).toBeUndefined();
    expect(siteZone(zoned, { mapId: '999' })).toBeUndefined();
    expect(siteZone(zoned, {})).toBeUndefined();
  });
});
