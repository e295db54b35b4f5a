import { useEffect, useMemo, useRef } from 'react';
import type L from 'leaflet';
import type { DeviceMarker, Gateway } from '@lumigrid/contract';
import { planToFraction } from '../../components/device-markers/marker-model.ts';
import { planMarkers } from './plan-markers.ts';
import type { FloorPlan } from '../../components/floor-plan-map.tsx';
import { CanvasMarkerLayer } from '../../components/device-markers/canvas-marker-layer.ts';

export interface DeviceMarkerLayerProps {
  plan: FloorPlan;
  markers: readonly DeviceMarker[];
  gateways: readonly Gateway[];
  selectedId: string | undefined;
  /** An editor: devices may be dragged. */
  editable: boolean;
  onSelect: (id: string) => void;
  /** A click on the plan away from every marker. */
  onDeselect?: () => void;
  onMove: (id: string, position: { x: number; y: number }) => void;
  /** Receives the layer, for the page's test hooks and the draw benchmark. */
  onLayer?: (layer: CanvasMarkerLayer | undefined) => void;
}

/** The devices and gateways of a map on the floor plan's canvas layer; React feeds it, Leaflet owns it. */
export function DeviceMarkerLayer({
  plan,
  markers,
  gateways,
  selectedId,
  editable,
  onSelect,
  onDeselect,
  onMove,
  onLayer,
}: DeviceMarkerLayerProps) {
  const layerRef = useRef<CanvasMarkerLayer | null>(null);
  const items = useMemo(() => planMarkers(markers, gateways, plan.size), [markers, gateways, plan.size]);
  const latest = useRef({ onSelect, onDeselect, onMove, size: plan.size, items, editable, selectedId });
  useEffect(() => {
    latest.current = { onSelect, onDeselect, onMove, size: plan.size, items, editable, selectedId };
  });

  useEffect(() => {
    const layer = new CanvasMarkerLayer({
      onClick: (id) => latest.current.onSelect(id),
      onBackgroundClick: () => latest.current.onDeselect?.(),
      onDragEnd: (id, latLng: L.LatLng) => latest.current.onMove(id, planToFraction(latLng, latest.current.size)),
    });
    layer.setEditable(latest.current.editable);
    layer.setSelected(latest.current.selectedId);
    layer.setMarkers(latest.current.items);
    layer.addTo(plan.map);
    layerRef.current = layer;
    onLayer?.(layer);
    return () => {
      onLayer?.(undefined);
      layer.remove();
      layerRef.current = null;
    };
    // The layer belongs to this map; onLayer is read once.
  }, [plan.map]);

  useEffect(() => {
    layerRef.current?.setMarkers(items);
  }, [items]);
  useEffect(() => {
    layerRef.current?.setEditable(editable);
  }, [editable]);
  useEffect(() => {
    layerRef.current?.setSelected(selectedId);
  }, [selectedId]);
  return null;
}
