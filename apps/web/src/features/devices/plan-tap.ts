import { useEffect, useRef } from 'react';
import type L from 'leaflet';
import { imageBounds } from '../../components/floor-plan-bounds.ts';
import { planToFraction } from '../../components/device-markers/marker-model.ts';
import type { FloorPlan } from '../../components/floor-plan-map.tsx';

/**
 * A tap or click on the floor plan itself, as fractions of its width and height (a pan is no tap: Leaflet
 * reports a click only when the press did not move the plan). Taps beside the image are not on the plan.
 */
export function usePlanTap(plan: FloorPlan, onTap: (position: { x: number; y: number }) => void): void {
  const latest = useRef(onTap);
  useEffect(() => {
    latest.current = onTap;
  });
  useEffect(() => {
    const map = plan.map;
    const bounds = imageBounds(plan.size);
    const container = map.getContainer();
    container.classList.add('lg-plan-tapping');
    const tapped = (event: L.LeafletMouseEvent) => {
      const [[south, west], [north, east]] = bounds;
      const { lat, lng } = event.latlng;
      if (lat < south || lat > north || lng < west || lng > east) return;
      latest.current(planToFraction(event.latlng, plan.size));
    };
    map.on('click', tapped);
    return () => {
      map.off('click', tapped);
      container.classList.remove('lg-plan-tapping');
    };
  }, [plan.map, plan.size]);
}

/** The component form, for a floor plan's render function. */
export function PlanTap({ plan, onTap }: { plan: FloorPlan; onTap: (position: { x: number; y: number }) => void }) {
  usePlanTap(plan, onTap);
  return null;
}
