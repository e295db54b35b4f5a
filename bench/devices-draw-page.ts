/// <reference lib="dom" />
/**
 * The browser side of devices-draw.bench.ts, bundled by esbuild into the page: the floor plan's own canvas
 * layer against the naive way, one Leaflet DOM marker (divIcon) per device, on the same Leaflet map.
 */
import L from 'leaflet';
import { DEVICE_TYPE_CODE_LIST, DISPLAY_STATES, type DeviceMarker } from '@lumigrid/contract';
import { CanvasMarkerLayer } from '../apps/web/src/components/device-markers/canvas-marker-layer.ts';
import { planMarkers, type MarkerHints } from '../apps/web/src/features/devices/plan-markers.ts';
import { fractionToPlan } from '../apps/web/src/components/device-markers/marker-model.ts';

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

/** n devices spread over the plan in a grid, of every type and state, as the map's markers answer has them. */
function devices(n: number): DeviceMarker[] {
  const side = Math.ceil(Math.sqrt(n));
  return Array.from({ length: n }, (_, i) => ({
    id: String(i + 1),
    name: `Device ${i + 1}`,
    type: DEVICE_TYPE_CODE_LIST[i % DEVICE_TYPE_CODE_LIST.length]!,
    status: '',
    display: DISPLAY_STATES[i % DISPLAY_STATES.length]!,
    manual: i % 97 === 0,
    x: ((i % side) + 0.5) / side,
    y: (Math.floor(i / side) + 0.5) / side,
  }));
}

/** The hover's second line as the page has it (there through i18next); written when a hover shows it. */
const HINTS: MarkerHints = {
  device: (m) => ['kind', m.display, ...(m.manual ? ['by hand'] : [])].join(' · '),
  gateway: (g) => `gateway · ${g.online ? 'online' : 'offline'}`,
};

/** Resolves after the browser has produced the next frame (style, layout and paint included). */
const nextFrame = () => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));

/** A fresh map with n devices on the canvas layer; ms: from building the plan's markers to the next frame's end. */
async function firstDraw(n: number): Promise<{ map: L.Map; layer: CanvasMarkerLayer; ms: number }> {
  const map = planMap();
  const markers = devices(n);
  await nextFrame();
  const t0 = performance.now();
  const layer = new CanvasMarkerLayer();
  layer.setMarkers(planMarkers(markers, [], PLAN, HINTS));
  layer.addTo(map);
  await nextFrame();
  return { map, layer, ms: performance.now() - t0 };
}

async function drawCanvas(n: number): Promise<{ firstDrawMs: number; layerDrawMs: number }> {
  const { layer, ms } = await firstDraw(n);
  return { firstDrawMs: ms, layerDrawMs: layer.lastDrawMs };
}

/**
 * After the first draw, `rounds` report batches: each gives `batch` devices (a gateway's report) a new display
 * state, as the page's cache does (new marker objects for those, the others kept), and the layer is fed the
 * plan's markers again. Per batch: the page's work (plan markers and the layer's update) and the time to the
 * end of the next frame.
 */
async function reportBatches(n: number, batch: number, rounds: number): Promise<{ workMs: number[]; frameMs: number[] }> {
  const map = planMap();
  let markers = devices(n);
  const layer = new CanvasMarkerLayer();
  layer.setMarkers(planMarkers(markers, [], PLAN, HINTS));
  layer.addTo(map);
  await nextFrame();
  await nextFrame();
  const workMs: number[] = [];
  const frameMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const next = markers.slice();
    const start = (round * 7919) % n;
    for (let k = 0; k < batch; k++) {
      const i = (start + k * 41) % n;
      const old = next[i]!;
      const display = DISPLAY_STATES[(DISPLAY_STATES.indexOf(old.display) + 1) % DISPLAY_STATES.length]!;
      next[i] = { ...old, display };
    }
    markers = next;
    const t0 = performance.now();
    layer.setMarkers(planMarkers(markers, [], PLAN, HINTS));
    workMs.push(performance.now() - t0);
    await nextFrame();
    frameMs.push(performance.now() - t0);
    await nextFrame();
  }
  return { workMs, frameMs };
}

let panning: { map: L.Map; intervals: number[]; recording: boolean; farthestPx: number; redraws: number; loadMs: number } | undefined;

/**
 * Loads n devices, zooms in two steps (markers far enough apart for a press between them to grab the plan, not
 * a marker; most of the plan is then out of view) and starts recording every frame's interval. The driver then
 * drags the plan with the mouse from the answered point (real input events, one move per frame) and calls
 * panEnd once the move has ended.
 */
async function panStart(n: number): Promise<{ loadMs: number; x: number; y: number }> {
  const { map, ms: loadMs } = await firstDraw(n);
  map.setZoom(map.getZoom() + 2, { animate: false });
  await nextFrame();
  await nextFrame();
  const state = { map, intervals: [] as number[], recording: true, farthestPx: 0, redraws: 0, loadMs };
  panning = state;
  // How far the plan travelled: where the view's first centre is on the screen now.
  const centre = map.getCenter();
  const from = map.latLngToContainerPoint(centre);
  map.on('move', () => {
    state.farthestPx = Math.max(state.farthestPx, map.latLngToContainerPoint(centre).distanceTo(from));
  });
  map.on('moveend', () => state.redraws++);
  let last = await new Promise<number>((done) => requestAnimationFrame(done));
  const tick = (now: number) => {
    state.intervals.push(now - last);
    last = now;
    if (state.recording) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // Between four markers of the grid, near the view's centre.
  const side = Math.ceil(Math.sqrt(n));
  const at = map.latLngToContainerPoint(map.getCenter());
  const fraction = (v: number) => Math.round(v * side) / side;
  const planPoint = map.containerPointToLatLng(at);
  const between = fractionToPlan({ x: fraction(planPoint.lng / PLAN.width), y: fraction(1 - planPoint.lat / PLAN.height) }, PLAN);
  const start = map.latLngToContainerPoint(between);
  const box = map.getContainer().getBoundingClientRect();
  return { loadMs, x: box.left + start.x, y: box.top + start.y };
}

/** Waits until the drag's move (and its inertia) has ended and three frames more (the redraw), then answers. */
async function panEnd(): Promise<{ loadMs: number; intervals: number[]; farthestPx: number; redraws: number }> {
  const state = panning!;
  for (let frame = 0; frame < 300 && state.redraws === 0; frame++) await new Promise((done) => requestAnimationFrame(done));
  for (let frame = 0; frame < 3; frame++) await new Promise((done) => requestAnimationFrame(done));
  state.recording = false;
  const { loadMs, intervals, farthestPx, redraws } = state;
  return { loadMs, intervals, farthestPx, redraws };
}

async function drawDom(n: number): Promise<{ firstDrawMs: number }> {
  const map = planMap();
  const items = planMarkers(devices(n), [], PLAN);
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

Object.assign(window, { drawCanvas, drawDom, reportBatches, panStart, panEnd });
