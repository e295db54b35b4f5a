import type { ScenePart, SceneRun } from '@lumigrid/contract/browser';
import { browserZone } from '../../i18n/time-format.ts';

/** The time zones a scene's gateways run it in, each once, in the order of its parts. */
export function partZones(parts: readonly Pick<ScenePart, 'timezone'>[]): string[] {
  return [...new Set(parts.map((p) => p.timezone))];
}

/**
 * The zones of the gateways a run went to, as the scene's parts know them. A gateway the scene has left since
 * is not known: then the scene's zones stand in, and the browser's when the scene has no part left.
 */
export function runZones(run: Pick<SceneRun, 'parts'>, parts: readonly Pick<ScenePart, 'gatewayId' | 'timezone'>[]): string[] {
  const zoneOf = new Map(parts.map((p) => [p.gatewayId, p.timezone]));
  const known = [...new Set(run.parts.flatMap((p) => (zoneOf.has(p.gatewayId) ? [zoneOf.get(p.gatewayId)!] : [])))];
  if (known.length > 0) return known;
  const all = partZones(parts);
  return all.length > 0 ? all : [browserZone()];
}
