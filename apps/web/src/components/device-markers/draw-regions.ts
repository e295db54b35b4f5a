import { MARKER_RADIUS, type MarkerStyle } from './marker-model.ts';

/**
 * The arithmetic behind the canvas layer's partial redraws: which markers a report batch changed, which
 * rectangles of the canvas that dirties, and which drawn markers and labels touch them. Pure, so it is tested
 * without a browser.
 */

/** Half the side of the square every marker's pixels fit in (selection halo, outline and badge included). */
export const SPRITE_HALF = 17;

/** A marker as the layer compares it between two feeds. */
export interface MarkerLook {
  id: string;
  latLng: readonly [number, number];
  style: MarkerStyle;
  label: string;
  manual?: boolean;
}

export const sameLook = (a: MarkerStyle, b: MarkerStyle) =>
  a === b || (a.shape === b.shape && a.fill === b.fill && a.stroke === b.stroke && a.dashed === b.dashed);

/**
 * The indices of markers whose drawing changed between two feeds of the same markers (a report batch: states,
 * the hand badge), or undefined when more than that changed (a marker came, went, moved or changed order,
 * or a name changed while names are written on the plan), which takes a full redraw.
 */
export function restyled(prev: readonly MarkerLook[], next: readonly MarkerLook[], labelsShown: boolean): number[] | undefined {
  if (prev.length !== next.length) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < next.length; i++) {
    const a = prev[i] as MarkerLook;
    const b = next[i] as MarkerLook;
    if (a === b) continue;
    if (a.id !== b.id || a.latLng[0] !== b.latLng[0] || a.latLng[1] !== b.latLng[1]) return undefined;
    if (labelsShown && a.label !== b.label) return undefined;
    if (!sameLook(a.style, b.style) || Boolean(a.manual) !== Boolean(b.manual)) changed.push(i);
  }
  return changed;
}

/** A rectangle in the canvas's device pixels: [x0, x1) x [y0, y1). */
export interface PixelRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The device pixels a marker centred at (x, y) (CSS pixels) may paint, at a device pixel ratio. */
export function markerRect(x: number, y: number, ratio: number): PixelRect {
  const half = SPRITE_HALF;
  return {
    x0: Math.floor((x - half) * ratio),
    y0: Math.floor((y - half) * ratio),
    x1: Math.ceil((x + half) * ratio),
    y1: Math.ceil((y + half) * ratio),
  };
}

/** Whether a marker centred at (x, y) is drawn on a canvas of that size (CSS pixels); farther ones are skipped. */
export function onCanvas(x: number, y: number, width: number, height: number): boolean {
  const margin = 2 * MARKER_RADIUS;
  return x >= -margin && y >= -margin && x <= width + margin && y <= height + margin;
}

/** The steps (CSS pixels) a canvas's extent moves and grows by: panning seldom changes its size, and at any
 * device pixel ratio in quarters its corner falls on a whole device pixel. */
const EXTENT_STEP = 64;

/**
 * The part of a view (CSS pixels, [0, width] x [0, height]) that the pixels of `count` markers centred at
 * (xs, ys) fall in, rounded out to steps of 64 and clipped to the view; an empty rectangle when there are none.
 */
export function drawnExtent(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  count: number,
  width: number,
  height: number,
): { x0: number; y0: number; x1: number; y1: number } {
  if (count === 0) return { x0: 0, y0: 0, x1: 0, y1: 0 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = xs[i] as number;
    const y = ys[i] as number;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  // A marker's pixels reach SPRITE_HALF from its centre; one pixel more covers rounding to device pixels.
  const reach = SPRITE_HALF + 1;
  const clip = (v: number, max: number) => Math.min(max, Math.max(0, v));
  return {
    x0: clip(Math.floor((minX - reach) / EXTENT_STEP) * EXTENT_STEP, width),
    y0: clip(Math.floor((minY - reach) / EXTENT_STEP) * EXTENT_STEP, height),
    x1: clip(Math.ceil((maxX + reach) / EXTENT_STEP) * EXTENT_STEP, width),
    y1: clip(Math.ceil((maxY + reach) / EXTENT_STEP) * EXTENT_STEP, height),
  };
}

/**
 * Points (CSS pixels) bucketed by square cells, to find those near a rectangle without looking at all of
 * them. Built once per full redraw in two passes over flat arrays (counting sort), so it allocates nothing per
 * point.
 */
export class PointGrid {
  private readonly cols: number;
  private readonly rows: number;
  private readonly start: Int32Array;
  private readonly items: Int32Array;

  constructor(
    private readonly xs: ArrayLike<number>,
    private readonly ys: ArrayLike<number>,
    count: number,
    width: number,
    height: number,
    private readonly cell = 64,
  ) {
    this.cols = Math.max(1, Math.ceil(width / cell) + 2);
    this.rows = Math.max(1, Math.ceil(height / cell) + 2);
    const counts = new Int32Array(this.cols * this.rows + 1);
    const cellOf = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const c = this.cellIndex(xs[i] as number, ys[i] as number);
      cellOf[i] = c;
      counts[c + 1]!++;
    }
    for (let c = 1; c < counts.length; c++) counts[c]! += counts[c - 1]!;
    this.start = counts.slice();
    const fill = counts;
    this.items = new Int32Array(count);
    for (let i = 0; i < count; i++) this.items[fill[cellOf[i]!]!++] = i;
  }

  /** Cells hold everything beyond the canvas in its outermost ring. */
  private col(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor(x / this.cell) + 1));
  }

  private row(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor(y / this.cell) + 1));
  }

  private cellIndex(x: number, y: number): number {
    return this.row(y) * this.cols + this.col(x);
  }

  /** Calls back with every point inside [x0, x1] x [y0, y1], each once, in no particular order. */
  each(x0: number, y0: number, x1: number, y1: number, found: (index: number) => void): void {
    const c0 = this.col(x0);
    const c1 = this.col(x1);
    for (let r = this.row(y0), r1 = this.row(y1); r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        for (let k = this.start[cell]!, end = this.start[cell + 1]!; k < end; k++) {
          const i = this.items[k]!;
          const x = this.xs[i] as number;
          const y = this.ys[i] as number;
          if (x >= x0 && x <= x1 && y >= y0 && y <= y1) found(i);
        }
      }
    }
  }
}

/**
 * The drawn markers (indices into the drawing order) whose pixels touch any of the rectangles, ascending, so
 * that drawing them in that order over the cleared rectangles gives what a full redraw would.
 */
export function touching(grid: PointGrid, rects: readonly PixelRect[], ratio: number, count: number): number[] {
  const seen = new Uint8Array(count);
  const out: number[] = [];
  // A marker's pixels reach SPRITE_HALF from its centre; one pixel more covers rounding to device pixels.
  const reach = SPRITE_HALF + 1;
  for (const r of rects) {
    grid.each(r.x0 / ratio - reach, r.y0 / ratio - reach, r.x1 / ratio + reach, r.y1 / ratio + reach, (i) => {
      if (!seen[i]) {
        seen[i] = 1;
        out.push(i);
      }
    });
  }
  return out.sort((a, b) => a - b);
}

/** The boxes (CSS pixels) that overlap any of the rectangles (device pixels), widened by `margin` for halos. */
export function boxesTouching<T extends { x: number; y: number; width: number; height: number }>(
  boxes: readonly T[],
  rects: readonly PixelRect[],
  ratio: number,
  margin = 3,
): T[] {
  return boxes.filter((b) =>
    rects.some(
      (r) =>
        (b.x - margin) * ratio < r.x1 &&
        r.x0 < (b.x + b.width + margin) * ratio &&
        (b.y - margin) * ratio < r.y1 &&
        r.y0 < (b.y + b.height + margin) * ratio,
    ),
  );
}

/**
 * The order markers are painted in, as feed indices written to `out`: those on the canvas in feed order,
 * then the selected ones, on top. Hit-testing walks the same order backwards, so the topmost marker wins.
 */
export function paintOrder(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  count: number,
  isSelected: (index: number) => boolean,
  width: number,
  height: number,
  out: Int32Array,
): { drawn: number; firstSelected: number } {
  let drawn = 0;
  let selected = 0;
  for (let i = 0; i < count; i++) {
    if (!onCanvas(xs[i] as number, ys[i] as number, width, height)) continue;
    if (isSelected(i)) selected++;
    else out[drawn++] = i;
  }
  const firstSelected = drawn;
  if (selected > 0) {
    for (let i = 0; i < count; i++) if (onCanvas(xs[i] as number, ys[i] as number, width, height) && isSelected(i)) out[drawn++] = i;
  }
  return { drawn, firstSelected };
}
