/// <reference lib="dom" />
/**
 * The browser side of devices-draw.bench.ts, bundled by esbuild into the page: the floor plan's own canvas
 * layer against the naive way, one Leaflet DOM marker (divIcon) per device, on the same Leaflet map.
 */
import L from 'leaflet';
import { DEVICE_TYPE_CODE_LIST, DISPLAY_STATES } from '@lumigrid/contract';
import { CanvasMarkerLayer, type PlanMarker } from '../apps/web/src/components/device-markers/canvas-marker-layer.ts';
import { fractionToPlan, markerStyle } from '../apps/web/src/components/device-markers/marker-model.ts';

const PLAN = { width: 4000, height: 3000 };

function planMap(): L.Map {
  const container = document.getElementById('map')!;
  const map = L.map(container, { crs: L.CRS.Simple, minZoom: -6, maxZoom: 4, attributionControl: false });
  map.fitBounds([
    [0, 0],
    [PLAN.height, PLAN.width],
  ]);
  return map;
}

/** n devices spread over the plan in a grid, of every type and state. */
function devices(n: number): PlanMarker[] {
  const side = Math.ceil(Math.sqrt(n));
  return Array.from({ length: n }, (_, i) => {
    const type = DEVICE_TYPE_CODE_LIST[i % DEVICE_TYPE_CODE_LIST.length]!;
    const display = DISPLAY_STATES[i % DISPLAY_STATES.length]!;
    return {
      id: String(i + 1),
      latLng: fractionToPlan({ x: ((i % side) + 0.5) / side, y: (Math.floor(i / side) + 0.5) / side }, PLAN),
      style: markerStyle(type, display),
      draggable: true,
      label: `Device ${i + 1}`,
    };
  });
}

/** Resolves after the browser has produced the next frame (style, layout and paint included). */
const nextFrame = () => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));

async function drawCanvas(n: number): Promise<{ firstDrawMs: number; layerDrawMs: number }> {
  const map = planMap();
  const items = devices(n);
  await nextFrame();
  const t0 = performance.now();
  const layer = new CanvasMarkerLayer();
  layer.setMarkers(items);
  layer.addTo(map);
  await nextFrame();
  return { firstDrawMs: performance.now() - t0, layerDrawMs: layer.lastDrawMs };
}

async function drawDom(n: number): Promise<{ firstDrawMs: number }> {
  const map = planMap();
  const items = devices(n);
  await nextFrame();
  const t0 = performance.now();
  const group = L.layerGroup(
    items.map((m) =>
      L.marker(m.latLng, {
        icon: L.divIcon({
          className: 'dom-marker',
          html: `<span style="background:${m.style.fill};border-color:${m.style.stroke}"></span>`,
          iconSize: [18, 18],
        }),
      }),
    ),
  );
  group.addTo(map);
  await nextFrame();
  return { firstDrawMs: performance.now() - t0 };
}

Object.assign(window, { drawCanvas, drawDom });
