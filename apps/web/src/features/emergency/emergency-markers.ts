import { EMERGENCY_CATEGORY_COLOURS, type EmergencyMapCategory, type EmergencyMapLight } from '@lumigrid/contract/browser';
import type { PlanMarker } from '../../components/device-markers/canvas-marker-layer.ts';
import { fractionToPlan, markerLabel, type MarkerStyle, type PlanSize } from '../../components/device-markers/marker-model.ts';

/** The legend's categories in the order a person reads a floor: healthy, busy, then what needs attention. */
export const EMERGENCY_LEGEND: readonly EmergencyMapCategory[] = [
  'full',
  'charging',
  'testing',
  'failed',
  'depleted',
  'offline',
  'unknown',
];

/** Outlines a shade darker than the fill, so a pale marker still stands out on a white plan. */
const STROKE: Readonly<Record<EmergencyMapCategory, string>> = {
  charging: '#ad6800',
  full: '#237804',
  testing: '#003eb3',
  failed: '#a8071a',
  depleted: '#391085',
  offline: '#434343',
  unknown: '#8c8c8c',
};

/** An emergency light's marker: the emergency cross, filled with its category's legend colour (dashed when offline). */
export function emergencyMarkerStyle(category: EmergencyMapCategory): MarkerStyle {
  return {
    kind: 'emergency',
    shape: 'cross',
    fill: EMERGENCY_CATEGORY_COLOURS[category],
    stroke: STROKE[category],
    dashed: category === 'offline',
  };
}

/** What the canvas draws for the emergency map: every placed light. */
export function emergencyPlanMarkers(
  lights: readonly EmergencyMapLight[],
  size: PlanSize,
  hint: (light: EmergencyMapLight) => string,
): PlanMarker[] {
  return lights.flatMap((light) =>
    light.x === null || light.y === null
      ? []
      : [
          {
            id: light.deviceId,
            latLng: fractionToPlan({ x: light.x, y: light.y }, size),
            style: emergencyMarkerStyle(light.category),
            draggable: false,
            label: markerLabel(light.name),
            hint: () => hint(light),
          },
        ],
  );
}

/** How many lights fall in each category, for the legend's counts. */
export function countByCategory(lights: readonly Pick<EmergencyMapLight, 'category'>[]): Record<EmergencyMapCategory, number> {
  const counts = Object.fromEntries(EMERGENCY_LEGEND.map((c) => [c, 0])) as Record<EmergencyMapCategory, number>;
  for (const light of lights) counts[light.category] += 1;
  return counts;
}
