import { describe, expect, it } from 'vitest';
import type { ManualScene } from '@lumigrid/contract/browser';
import { keyScene, PANEL_KEYS, panelKeyOptions } from './panel-keys.ts';

const scene = (id: string, name: string, gatewayIds: string[], kind: ManualScene['kind'] = 'manual'): ManualScene => ({
  id,
  name,
  kind,
  gatewayIds,
});

describe('scene panel keys', () => {
  it('numbers the keys 1-6 as the contract does', () => {
    expect(PANEL_KEYS).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("offers the manual scenes and sequences with a part on the panel's gateway, by name", () => {
    const manuals = [scene('1', 'Evening', ['7']), scene('2', 'All on', ['7', '8'], 'sequence'), scene('3', 'Elsewhere', ['8'])];
    expect(panelKeyOptions(manuals, '7').map((o) => o.name)).toEqual(['All on', 'Evening']);
    expect(panelKeyOptions(manuals, undefined)).toEqual([]);
  });

  it('keeps a bound scene that no longer runs from this gateway, marked stale, once', () => {
    const manuals = [scene('1', 'Evening', ['7']), scene('3', 'Elsewhere', ['8'])];
    const keys = [
      { key: 1, sceneId: '1', sceneName: 'Evening' },
      { key: 2, sceneId: '3', sceneName: 'Elsewhere' },
      { key: 3, sceneId: '3', sceneName: 'Elsewhere' },
    ];
    expect(panelKeyOptions(manuals, '7', keys)).toEqual([
      { sceneId: '3', name: 'Elsewhere', kind: 'manual', stale: true },
      { sceneId: '1', name: 'Evening', kind: 'manual', stale: false },
    ]);
    expect(keyScene(keys, 2)).toBe('3');
    expect(keyScene(keys, 6)).toBeNull();
    expect(keyScene(undefined, 1)).toBeNull();
  });
});
