import { describe, expect, it } from 'vitest';
import type { BuildingStatus, ProjectStatus, StatusNode } from '@lumigrid/contract/browser';
import { namePath, placeKey, placeOfKey, statusTree } from './status-tree.ts';

const node = (id: string, name: string, parentId: string | null = null, failure = 0): StatusNode => ({
  id,
  name,
  parentId,
  devices: 10,
  failure,
  offline: 1,
  openAlerts: failure,
});

const account: ProjectStatus = { project: node('0', ''), children: [node('1', 'HQ', null, 2), node('2', 'Depot')], builds: [] };
const hq: ProjectStatus = {
  project: node('1', 'HQ', null, 3),
  children: [node('5', 'Annex', '1')],
  builds: [node('10', 'Tower'), node('11', 'Tower east wing', '10')],
};
const tower: BuildingStatus = { build: node('10', 'Tower'), maps: [node('100', 'Floor 1', null, 2)] };

describe('the place tree of the statistics', () => {
  it('lists the account projects, unread levels left to load', () => {
    const tree = statusTree(account, new Map(), new Map());
    expect(tree.map((n) => [n.key, n.name, n.counts.failure, n.children])).toEqual([
      ['project:1', 'HQ', 2, undefined],
      ['project:2', 'Depot', 0, undefined],
    ]);
  });

  it('nests sub-projects, buildings and sub-buildings under an opened project, maps under an opened building', () => {
    const tree = statusTree(account, new Map([['1', hq]]), new Map([['10', tower]]));
    const hqNode = tree[0]!;
    // The project's own answer counts it freshest.
    expect(hqNode.counts.failure).toBe(3);
    expect(hqNode.children?.map((n) => n.key)).toEqual(['project:5', 'build:1:10']);
    const towerNode = hqNode.children![1]!;
    expect(towerNode.children?.map((n) => [n.key, n.isLeaf])).toEqual([
      ['build:1:11', false],
      ['map:1:100', true],
    ]);
    expect(towerNode.children![1]!.place).toEqual({ projectId: '1', mapId: '100' });
    expect(namePath(tree, 'map:1:100')).toEqual(['HQ', 'Tower', 'Floor 1']);
    expect(namePath(tree, 'map:1:999')).toBeUndefined();
  });

  it('turns places into keys and back', () => {
    for (const place of [{ projectId: '1' }, { projectId: '1', buildId: '10' }, { projectId: '1', mapId: '100' }])
      expect(placeOfKey(placeKey(place))).toEqual(place);
    expect(placeOfKey('nonsense')).toBeUndefined();
  });
});
