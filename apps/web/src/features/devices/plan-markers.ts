import type { DeviceMarker, Gateway } from '@lumigrid/contract';
import type { PlanMarker } from '../../components/device-markers/canvas-marker-layer.ts';
import { fractionToPlan, gatewayStyle, markerLabel, markerStyle, type PlanSize } from '../../components/device-markers/marker-model.ts';

/** Gateways have no position of their own: they stand in a row along the plan's top-left edge. */
export function gatewaySlot(index: number): { x: number; y: number } {
  return { x: Math.min(0.98, 0.03 + index * 0.04), y: 0.04 };
}

/** The id a gateway's marker goes by on the canvas (device ids are plain digits, so these never clash). */
export const gatewayMarkerId = (gatewayId: string) => `gw-${gatewayId}`;

/** The second line of a marker's hover: what it is and its state, in the user's language. */
export interface MarkerHints {
  device: (marker: DeviceMarker) => string;
  gateway: (gateway: Gateway) => string;
}

/** What the canvas draws for a map: gateways first (underneath), then every placed device. */
export function planMarkers(
  markers: readonly DeviceMarker[],
  gateways: readonly Gateway[],
  size: PlanSize,
  hints?: MarkerHints,
): PlanMarker[] {
  const out: PlanMarker[] = gateways.map((g, i) => ({
    id: gatewayMarkerId(g.id),
    latLng: fractionToPlan(gatewaySlot(i), size),
    style: gatewayStyle(g.online),
    draggable: false,
    label: g.name,
    hint: hints?.gateway(g),
  }));
  for (const m of markers) {
    if (m.x === null || m.y === null) continue;
    out.push({
      id: m.id,
      latLng: fractionToPlan({ x: m.x, y: m.y }, size),
      style: markerStyle(m.type, m.display),
      draggable: true,
      label: markerLabel(m.name),
      hint: hints?.device(m),
    });
  }
  return out;
}
