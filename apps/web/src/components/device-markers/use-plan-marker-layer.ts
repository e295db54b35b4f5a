import { useEffect, useRef } from 'react';
import L from 'leaflet';
import { imageBounds } from '../floor-plan-bounds.ts';
import type { FloorPlan } from '../floor-plan-map.tsx';
import type { CanvasMarkerLayer, PlanMarker } from './canvas-marker-layer.ts';

/**
 * A canvas marker layer on the plan's map for as long as that map lives (React feeds it, Leaflet owns it): it
 * starts with the markers and selection of the render that made it and follows them after. `create` builds
 * the layer once per map, so its handlers must read the latest props through a ref.
 */
export function usePlanMarkerLayer(
  plan: FloorPlan,
  items: PlanMarker[],
  selectedId: string | undefined,
  create: () => CanvasMarkerLayer,
  onLayer?: (layer: CanvasMarkerLayer | undefined) => void,
) {
  const layerRef = useRef<CanvasMarkerLayer | null>(null);
  useEffect(() => {
    const layer = create();
    layer.setSelected(selectedId);
    layer.setMarkers(items);
    layer.addTo(plan.map);
    layer.setPlanBounds(L.latLngBounds(imageBounds(plan.size)));
    layerRef.current = layer;
    onLayer?.(layer);
    return () => {
      onLayer?.(undefined);
      layer.remove();
      layerRef.current = null;
    };
    // The layer belongs to this map; what it starts with and `create` and `onLayer` are read once.
  }, [plan.map]);

  useEffect(() => {
    layerRef.current?.setMarkers(items);
  }, [items]);
  useEffect(() => {
    layerRef.current?.setSelected(selectedId);
  }, [selectedId]);
  return layerRef;
}
