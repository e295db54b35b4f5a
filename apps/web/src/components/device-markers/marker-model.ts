import { CHANNEL_NAME_DELIMITER, deviceType, splitChannelNames, type DisplayState } from '@lumigrid/contract/browser';

/**
 * How the floor plan draws a device: a shape by kind and a fill by display state (spec section 4), plus the
 * hit-testing the canvas layer needs because a canvas has no DOM element per marker. Pure, so it is tested
 * without a browser and shared by the page and the draw benchmark.
 */

/** The shape of a marker: one per family a user tells apart at a glance. */
export type MarkerShape = 'circle' | 'square' | 'diamond' | 'triangle' | 'hexagon' | 'cross' | 'gateway';

/** What a kind is called in the legend (a catalogue key under deviceControl.kinds). */
export type MarkerKind = 'light' | 'switch' | 'curtain' | 'sensor' | 'panel' | 'bridge' | 'emergency' | 'gateway';

export interface MarkerStyle {
  shape: MarkerShape;
  kind: MarkerKind;
  fill: string;
  stroke: string;
  /** Dashed outline: the device does not answer (offline), so what it shows is not current. */
  dashed: boolean;
}

/**
 * Fill per display state: full load bright amber, partial pale amber, off grey, working (no load) green,
 * offline hollow, failure red.
 */
export const DISPLAY_FILL: Readonly<Record<DisplayState, string>> = Object.freeze({
  onFull: '#faad14',
  onPartial: '#ffe58f',
  off: '#8c8c8c',
  working: '#95de64',
  offline: '#ffffff',
  failure: '#ff4d4f',
});

const STROKE: Readonly<Record<DisplayState, string>> = Object.freeze({
  onFull: '#ad6800',
  onPartial: '#d48806',
  off: '#434343',
  working: '#389e0d',
  offline: '#8c8c8c',
  failure: '#a8071a',
});

/** The tag colour of each display state (antd preset colours), matching the markers' fills. */
export const DISPLAY_TAG_COLOUR: Readonly<Record<DisplayState, string>> = Object.freeze({
  onFull: 'gold',
  onPartial: 'orange',
  off: 'default',
  working: 'green',
  offline: 'purple',
  failure: 'red',
});

/** The display states in legend order. */
export const LEGEND_STATES: readonly DisplayState[] = ['onFull', 'onPartial', 'off', 'working', 'offline', 'failure'];

/** The legend's kinds in order. */
export const LEGEND_KINDS: readonly MarkerKind[] = ['light', 'switch', 'curtain', 'sensor', 'panel', 'bridge', 'emergency', 'gateway'];

export const KIND_SHAPE: Readonly<Record<MarkerKind, MarkerShape>> = Object.freeze({
  light: 'circle',
  switch: 'square',
  curtain: 'triangle',
  sensor: 'diamond',
  panel: 'square',
  bridge: 'hexagon',
  emergency: 'cross',
  gateway: 'gateway',
});

/** The marker kind of a device type code; an unknown code draws as a light, the most common device. */
export function markerKind(typeCode: number): MarkerKind {
  const t = deviceType(typeCode);
  if (!t) return 'light';
  if (t.bridge) return 'bridge';
  if (t.emergency) return 'emergency';
  if (t.channels > 0) return 'switch';
  if (t.curtain) return 'curtain';
  if (t.sensor) return 'sensor';
  if (t.panel) return 'panel';
  return 'light';
}

/** One frozen style per type code and display state: the canvas finds its sprite by the object, without a key. */
const STYLES = new Map<number, Partial<Record<DisplayState, MarkerStyle>>>();

export function markerStyle(typeCode: number, display: DisplayState): MarkerStyle {
  let byState = STYLES.get(typeCode);
  if (!byState) STYLES.set(typeCode, (byState = {}));
  let style = byState[display];
  if (!style) {
    const kind = markerKind(typeCode);
    style = Object.freeze({
      kind,
      shape: KIND_SHAPE[kind],
      fill: DISPLAY_FILL[display],
      stroke: STROKE[display],
      dashed: display === 'offline',
    });
    byState[display] = style;
  }
  return style;
}

/** A gateway is blue while online and hollow grey while offline. */
const GATEWAY_ONLINE: MarkerStyle = Object.freeze({ kind: 'gateway', shape: 'gateway', fill: '#1677ff', stroke: '#003eb3', dashed: false });
const GATEWAY_OFFLINE: MarkerStyle = Object.freeze({ kind: 'gateway', shape: 'gateway', fill: '#ffffff', stroke: '#8c8c8c', dashed: true });

export function gatewayStyle(online: boolean): MarkerStyle {
  return online ? GATEWAY_ONLINE : GATEWAY_OFFLINE;
}

/** What the legend hides from the plan: display states and kinds a user switched off. */
export interface PlanFilter {
  states: ReadonlySet<DisplayState>;
  kinds: ReadonlySet<MarkerKind>;
}

export const SHOW_ALL: PlanFilter = Object.freeze({ states: new Set<DisplayState>(), kinds: new Set<MarkerKind>() });

export const filtersAnything = (filter: PlanFilter) => filter.states.size > 0 || filter.kinds.size > 0;

/** Whether a device of this type code in this state stays on the plan under the filter. */
export function passesFilter(filter: PlanFilter, typeCode: number, display: DisplayState): boolean {
  return !filter.states.has(display) && !filter.kinds.has(markerKind(typeCode));
}

/**
 * A legend click: a plain click shows or hides the entry; with Ctrl (or Cmd) it shows only that entry of its
 * row, or everything again when it already was the only one.
 */
export function toggleFilter<T extends DisplayState | MarkerKind>(
  hidden: ReadonlySet<T>,
  all: readonly T[],
  entry: T,
  only: boolean,
): Set<T> {
  if (only) {
    const isolated = all.every((other) => (other === entry) !== hidden.has(other));
    return isolated ? new Set() : new Set(all.filter((other) => other !== entry));
  }
  const next = new Set(hidden);
  if (next.has(entry)) next.delete(entry);
  else next.add(entry);
  return next;
}

/** Marker radius in screen pixels; it stays the same at every zoom so a dense plan stays readable. */
export const MARKER_RADIUS = 9;
/** Radius of the "switched by hand" badge. */
const HAND_BADGE_RADIUS = 4.5;
/** A click this close to a marker's centre (pixels) still hits it: a little more than its radius. */
export const HIT_RADIUS = MARKER_RADIUS + 3;

/** Image pixel size of the floor plan. */
export interface PlanSize {
  width: number;
  height: number;
}

/**
 * A stored position (fractions 0-1 of width and height, from the top-left corner) to CRS.Simple [lat, lng]
 * on a plan of that size, where lat grows upwards from the bottom edge (floor-plan-bounds.ts).
 */
export function fractionToPlan(position: { x: number; y: number }, size: PlanSize): [number, number] {
  return [size.height * (1 - position.y), size.width * position.x];
}

/** The inverse of fractionToPlan, clamped to the plan so a drop at its edge still lands on it. */
export function planToFraction(latLng: { lat: number; lng: number }, size: PlanSize): { x: number; y: number } {
  const clamp = (n: number) => Math.min(1, Math.max(0, n));
  // Stored positions keep six decimals: a tenth of a pixel on a 10,000-pixel plan, and a compact answer.
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return { x: round(clamp(latLng.lng / size.width)), y: round(clamp(1 - latLng.lat / size.height)) };
}

/** A drawn marker's centre in the canvas's pixels, in drawing order (later ones are on top). */
export interface DrawnPoint {
  id: string;
  x: number;
  y: number;
}

/**
 * The marker under a point: the topmost (last drawn) whose centre is within `radius`, else undefined.
 * A linear scan: 5,000 markers take well under a millisecond, less than a spatial index costs to rebuild
 * after every redraw.
 */
export function hitTest(points: readonly DrawnPoint[], x: number, y: number, radius = HIT_RADIUS): DrawnPoint | undefined {
  const r2 = radius * radius;
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i] as DrawnPoint;
    const dx = p.x - x;
    const dy = p.y - y;
    if (dx * dx + dy * dy <= r2) return p;
  }
  return undefined;
}

/** Traces a marker's outline at (x, y) with radius r on a 2D context; the caller fills and strokes. */
export function traceShape(ctx: CanvasRenderingContext2D, shape: MarkerShape, x: number, y: number, r: number): void {
  ctx.beginPath();
  addShape(ctx, shape, x, y, r);
}

/** Adds a marker's outline to the current path as its own sub-path, so many markers fill in one call. */
function addShape(ctx: CanvasRenderingContext2D, shape: MarkerShape, x: number, y: number, r: number): void {
  switch (shape) {
    case 'circle':
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, Math.PI * 2);
      break;
    case 'square':
      ctx.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
      break;
    case 'diamond':
      ctx.moveTo(x, y - r);
      ctx.lineTo(x + r, y);
      ctx.lineTo(x, y + r);
      ctx.lineTo(x - r, y);
      ctx.closePath();
      break;
    case 'triangle':
      ctx.moveTo(x, y - r);
      ctx.lineTo(x + r, y + r * 0.8);
      ctx.lineTo(x - r, y + r * 0.8);
      ctx.closePath();
      break;
    case 'hexagon':
      for (let i = 0; i < 6; i++) {
        const a = (Math.PI / 3) * i;
        if (i === 0) ctx.moveTo(x + r * Math.cos(a), y + r * Math.sin(a));
        else ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a));
      }
      ctx.closePath();
      break;
    case 'cross': {
      const a = r * 0.38;
      ctx.moveTo(x - a, y - r);
      ctx.lineTo(x + a, y - r);
      ctx.lineTo(x + a, y - a);
      ctx.lineTo(x + r, y - a);
      ctx.lineTo(x + r, y + a);
      ctx.lineTo(x + a, y + a);
      ctx.lineTo(x + a, y + r);
      ctx.lineTo(x - a, y + r);
      ctx.lineTo(x - a, y + a);
      ctx.lineTo(x - r, y + a);
      ctx.lineTo(x - r, y - a);
      ctx.lineTo(x - a, y - a);
      ctx.closePath();
      break;
    }
    case 'gateway':
      // A rounded square, larger than a device: the gateway is the root of everything on the plan.
      ctx.roundRect(x - r * 1.2, y - r * 1.2, r * 2.4, r * 2.4, r * 0.45);
      break;
  }
}

/** The colour of the "switched by hand" badge: apart from every display state's fill. */
export const HAND_BADGE_FILL = '#722ed1';

/**
 * Paints one marker centred at (x, y) as vector shapes: the selection halo first when selected, then the
 * shape's fill and outline (dashed while offline). The canvas layer paints each look once into a sprite with
 * this and stamps the sprite; the legend draws its shapes the same way.
 */
export function paintMarker(ctx: CanvasRenderingContext2D, style: MarkerStyle, x: number, y: number, selected: boolean): void {
  const r = MARKER_RADIUS;
  ctx.lineWidth = 1.5;
  if (selected) {
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(x, y, r + 6, 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(22, 119, 255, 0.25)';
    ctx.fill();
    ctx.strokeStyle = '#1677ff';
    ctx.stroke();
  }
  ctx.beginPath();
  addShape(ctx, style.shape, x, y, r);
  ctx.fillStyle = style.fill;
  ctx.fill();
  ctx.setLineDash(style.dashed ? [3, 2] : []);
  ctx.strokeStyle = style.stroke;
  ctx.stroke();
  ctx.setLineDash([]);
}

/** Paints the "switched by hand" badge of a marker centred at (x, y): a dot at its top right. */
export function paintBadge(ctx: CanvasRenderingContext2D, x: number, y: number): void {
  const r = MARKER_RADIUS;
  const [bx, by] = [x + r * 0.85, y - r * 0.85];
  ctx.lineWidth = 1.5;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(bx, by, HAND_BADGE_RADIUS, 0, Math.PI * 2);
  ctx.fillStyle = HAND_BADGE_FILL;
  ctx.fill();
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
}

/** What a marker is called on the plan: a switch's channel names, each once. */
export function markerLabel(name: string): string {
  if (!name.includes(CHANNEL_NAME_DELIMITER)) return name;
  return [...new Set(splitChannelNames(name))].join(' / ');
}

/** Label text size in screen pixels, and the gap between a marker and its label. */
export const LABEL_FONT_PX = 11;
const LABEL_GAP = 3;
/** Side of the cells that index placed boxes while labels are placed. */
const LABEL_CELL = 64;

/** A label's box in canvas pixels (top-left corner), centred under its marker. */
export interface LabelBox {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Which markers get their name written under them: in drawing order, each label that overlaps neither a
 * marker nor a label already placed. Zooming in spreads markers apart, so more names fit. Placed boxes are
 * indexed by grid cell, so the check stays near-linear for thousands of markers.
 */
export function placeLabels(points: readonly DrawnPoint[], widthOf: (id: string) => number, height = LABEL_FONT_PX + 2): LabelBox[] {
  const cells = new Map<string, { x: number; y: number; width: number; height: number }[]>();
  const cellsOf = (box: { x: number; y: number; width: number; height: number }) => {
    const keys: string[] = [];
    for (let cx = Math.floor(box.x / LABEL_CELL); cx <= Math.floor((box.x + box.width) / LABEL_CELL); cx++)
      for (let cy = Math.floor(box.y / LABEL_CELL); cy <= Math.floor((box.y + box.height) / LABEL_CELL); cy++) keys.push(`${cx},${cy}`);
    return keys;
  };
  const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const add = (box: { x: number; y: number; width: number; height: number }) => {
    for (const key of cellsOf(box)) {
      const list = cells.get(key);
      if (list) list.push(box);
      else cells.set(key, [box]);
    }
  };
  const r = MARKER_RADIUS;
  for (const p of points) add({ x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r });
  const placed: LabelBox[] = [];
  for (const p of points) {
    const width = widthOf(p.id);
    if (width <= 0) continue;
    const box = { id: p.id, x: p.x - width / 2, y: p.y + r + LABEL_GAP, width, height };
    if (cellsOf(box).some((key) => cells.get(key)?.some((other) => overlaps(box, other)))) continue;
    add(box);
    placed.push(box);
  }
  return placed;
}

/** Writes placed labels in dark text with a white halo, readable over any floor plan. */
export function drawLabels(ctx: CanvasRenderingContext2D, labels: readonly LabelBox[], textOf: (id: string) => string): void {
  ctx.font = `${LABEL_FONT_PX}px sans-serif`;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
  ctx.fillStyle = '#262626';
  // Halos first, then all the text: labels never overlap, and the context's state changes once, not per label.
  for (const label of labels) ctx.strokeText(textOf(label.id), label.x, label.y + 1);
  for (const label of labels) ctx.fillText(textOf(label.id), label.x, label.y + 1);
}
