import type { DeviceMarker, Gateway } from '@lumigrid/contract/browser';
import type { PlanMarker } from '../../components/device-markers/canvas-marker-layer.ts';
import { fractionToPlan, gatewayStyle, markerLabel, markerStyle, type PlanSize } from '../../components/device-markers/marker-model.ts';

/** The id a gateway's marker goes by on the canvas (device ids are plain digits, so these never clash). */
export const gatewayMarkerId = (gatewayId: string) => `gw-${gatewayId}`;

/** The gateway id behind a canvas marker id, or undefined for a device's marker. */
export const gatewayOfMarker = (markerId: string) => (markerId.startsWith('gw-') ? markerId.slice(3) : undefined);

/** The second line of a marker's hover: what it is and its state, in the user's language. */
export interface MarkerHints {
  device: (marker: DeviceMarker) => string;
  gateway: (gateway: Gateway) => string;
}

/** What the canvas draws for a map: placed gateways first (underneath), then every placed device. */
export function planMarkers(
  markers: readonly DeviceMarker[],
  gateways: readonly Gateway[],
  size: PlanSize,
  hints?: MarkerHints,
): PlanMarker[] {
  const out: PlanMarker[] = [];
  for (const g of gateways) {
    if (g.x === null || g.y === null) continue;
    out.push({
      id: gatewayMarkerId(g.id),
      latLng: fractionToPlan({ x: g.x, y: g.y }, size),
      style: gatewayStyle(g.online),
      draggable: true,
      label: g.name,
      hint: hints && (() => hints.gateway(g)),
    });
  }
  for (const m of markers) {
    if (m.x === null || m.y === null) continue;
    const known = built.get(m);
    if (known && known.width === size.width && known.height === size.height && known.hints === hints) {
      out.push(known.marker);
      continue;
    }
    const marker: PlanMarker = {
      id: m.id,
      latLng: fractionToPlan({ x: m.x, y: m.y }, size),
      style: markerStyle(m.type, m.display),
      draggable: true,
      label: markerLabel(m.name),
      hint: hints && (() => hints.device(m)),
      manual: m.manual,
    };
    built.set(m, { width: size.width, height: size.height, hints, marker });
    out.push(marker);
  }
  return out;
}

/**
 * The canvas marker made from each device marker object, for as long as that object lives. A report replaces
 * only its own device's object in the page's cache, so a batch rebuilds only the devices it carried, and the canvas sees every other marker unchanged by identity.
 */
const built = new WeakMap<DeviceMarker, { width: number; height: number; hints: MarkerHints | undefined; marker: PlanMarker }>();
