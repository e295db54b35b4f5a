import { SCENE_LIMITS, type ManualScene, type PanelKeys } from '@lumigrid/contract/browser';

const { min: firstKey, max: lastKey } = SCENE_LIMITS.panelKey;

/** The keys of a scene panel, 1-6 as the contract numbers them. */
export const PANEL_KEYS: readonly number[] = Array.from({ length: lastKey - firstKey + 1 }, (_, i) => firstKey + i);

export interface PanelKeyOption {
  sceneId: string;
  name: string;
  kind: ManualScene['kind'] | undefined;
  /** Bound already but no longer runnable from this panel (the scene left the panel's gateway). */
  stale: boolean;
}

/**
 * What a key of a panel may run: the project's manual scenes and sequences that have a part on the panel's
 * gateway (the server refuses others with 310013), by name, and a scene a key is bound to that no longer
 * qualifies, so the key still shows what it runs.
 */
export function panelKeyOptions(manuals: readonly ManualScene[], gatewayId: string | undefined, keys: PanelKeys = []): PanelKeyOption[] {
  const runnable = manuals
    .filter((m) => gatewayId !== undefined && m.gatewayIds.includes(gatewayId))
    .map((m) => ({ sceneId: m.id, name: m.name, kind: m.kind, stale: false }));
  const known = new Set(runnable.map((o) => o.sceneId));
  const stale = keys
    .filter((k) => !known.has(k.sceneId))
    .map((k) => ({ sceneId: k.sceneId, name: k.sceneName, kind: manuals.find((m) => m.id === k.sceneId)?.kind, stale: true }));
  const unique = [...new Map([...runnable, ...stale].map((o) => [o.sceneId, o])).values()];
  return unique.sort((a, b) => a.name.localeCompare(b.name));
}

/** The scene a key runs, or null when it is free. */
export function keyScene(keys: PanelKeys | undefined, key: number): string | null {
  return keys?.find((k) => k.key === key)?.sceneId ?? null;
}
