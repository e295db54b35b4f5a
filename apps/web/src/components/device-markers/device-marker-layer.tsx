import { useEffect, useMemo, useRef } from 'react';
import type L from 'leaflet';
import type { DeviceMarker, Gateway } from '@lumigrid/contract';
import { fractionToPlan, gatewayStyle, markerStyle, planToFraction, type PlanSize } from '../../features/devices/marker-model.ts';
import type { FloorPlan } from '../floor-plan-map.tsx';
import { CanvasMarkerLayer, type PlanMarker } from './canvas-marker-layer.ts';

/** Gateways have no position of their own: they stand in a row along the plan's top-left edge. */
export function gatewaySlot(index: number): { x: number; y: number } {
  return { x: Math.min(0.98, 0.03 + index * 0.04), y: 0.04 };
}

/** The id a gateway's marker goes by on the canvas (device ids are plain digits, so these never clash). */
export const gatewayMarkerId = (gatewayId: string) => `gw-${gatewayId}`;

/** What the canvas draws for a map: gateways first (underneath), then every placed device. */
export function planMarkers(markers: readonly DeviceMarker[], gateways: readonly Gateway[], size: PlanSize): PlanMarker[] {
  const out: PlanMarker[] = gateways.map((g, i) => ({
    id: gatewayMarkerId(g.id),
    latLng: fractionToPlan(gatewaySlot(i), size),
    style: gatewayStyle(g.online),
    draggable: false,
  }));
  for (const m of markers) {
    if (m.x === null || m.y === null) continue;
    out.push({ id: m.id, latLng: fractionToPlan({ x: m.x, y: m.y }, size), style: markerStyle(m.type, m.display), draggable: true });
  }
  return out;
}

export interface DeviceMarkerLayerProps {
  plan: FloorPlan;
  markers: readonly DeviceMarker[];
  gateways: readonly Gateway[];
  selectedId: string | undefined;
  /** An editor: devices may be dragged. */
  editable: boolean;
  onSelect: (id: string) => void;
  onMove: (id: string, position: { x: number; y: number }) => void;
  /** Receives the layer, for the page's test hooks and the draw benchmark. */
  onLayer?: (layer: CanvasMarkerLayer | undefined) => void;
}

/** The devices and gateways of a map on the floor plan's canvas layer; React feeds it, Leaflet owns it. */
export function DeviceMarkerLayer({ plan, markers, gateways, selectedId, editable, onSelect, onMove, onLayer }: DeviceMarkerLayerProps) {
  const layerRef = useRef<CanvasMarkerLayer | null>(null);
  const items = useMemo(() => planMarkers(markers, gateways, plan.size), [markers, gateways, plan.size]);
  const latest = useRef({ onSelect, onMove, size: plan.size, items, editable, selectedId });
  useEffect(() => {
    latest.current = { onSelect, onMove, size: plan.size, items, editable, selectedId };
  });

  useEffect(() => {
    const layer = new CanvasMarkerLayer({
      onClick: (id) => latest.current.onSelect(id),
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
