import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES } from '@lumigrid/contract/browser';
import {
  PointGrid,
  SPRITE_HALF,
  boxesTouching,
  drawnExtent,
  markerRect,
  onCanvas,
  paintOrder,
  restyled,
  touching,
  type MarkerLook,
} from './draw-regions.ts';
import { MARKER_RADIUS, markerStyle } from './marker-model.ts';

const light = DEVICE_TYPE_CODES['light-single'];
const look = (id: string, display: 'onFull' | 'off' = 'off', extra: Partial<MarkerLook> = {}): MarkerLook => ({
  id,
  latLng: [Number(id), Number(id)],
  style: markerStyle(light, display),
  label: `Light ${id}`,
  ...extra,
});

describe('draw regions: what a report batch changed', () => {
  const feed = ['1', '2', '3', '4'].map((id) => look(id));

  it('answers the markers whose look or hand badge changed, and none for the same objects', () => {
    expect(restyled(feed, feed, false)).toEqual([]);
    const next = feed.slice();
    next[1] = look('2', 'onFull');
    next[3] = look('4', 'off', { manual: true });
    expect(restyled(feed, next, false)).toEqual([1, 3]);
  });

  it('ignores a new object that draws the same (a hint or a name while names are not written)', () => {
    const next = feed.slice();
    next[0] = { ...look('1'), label: 'renamed' };
    next[2] = look('3');
    expect(restyled(feed, next, false)).toEqual([]);
  });

  it('takes a full redraw when markers came, went, moved or were reordered, or a written name changed', () => {
    expect(restyled(feed, feed.slice(0, 3), false)).toBeUndefined();
    expect(restyled(feed, [feed[1]!, feed[0]!, feed[2]!, feed[3]!], false)).toBeUndefined();
    const moved = feed.slice();
    moved[2] = { ...look('3'), latLng: [3, 4] };
    expect(restyled(feed, moved, false)).toBeUndefined();
    const renamed = feed.slice();
    renamed[0] = { ...look('1'), label: 'renamed' };
    expect(restyled(feed, renamed, true)).toBeUndefined();
  });
});

describe('draw regions: culling and painting order', () => {
  it('skips markers beyond the canvas by more than a marker, and paints the selected ones last', () => {
    const margin = 2 * MARKER_RADIUS;
    expect(onCanvas(-margin, 0, 100, 100)).toBe(true);
    expect(onCanvas(-margin - 1, 0, 100, 100)).toBe(false);
    expect(onCanvas(50, 100 + margin + 1, 100, 100)).toBe(false);
    const xs = [10, 5000, 50, 20, 30];
    const ys = [10, 10, 60, 20, 30];
    const out = new Int32Array(5);
    const { drawn, firstSelected } = paintOrder(xs, ys, 5, (i) => i === 2 || i === 1, 200, 100, out);
    // 1 is far away (selected or not), 2 is selected: on top of 0, 3 and 4.
    expect([...out.slice(0, drawn)]).toEqual([0, 3, 4, 2]);
    expect(firstSelected).toBe(3);
  });
});

describe('draw regions: the part of the view the canvas covers', () => {
  it('covers every marker pixel, in steps of 64 from the view corner, and stays inside the view', () => {
    const xs = [300, 500];
    const ys = [200, 260];
    const extent = drawnExtent(xs, ys, 2, 1800, 1200);
    expect(extent).toEqual({ x0: 256, y0: 128, x1: 576, y1: 320 });
    for (let i = 0; i < 2; i++) {
      expect(xs[i]! - SPRITE_HALF).toBeGreaterThanOrEqual(extent.x0);
      expect(xs[i]! + SPRITE_HALF).toBeLessThanOrEqual(extent.x1);
      expect(ys[i]! - SPRITE_HALF).toBeGreaterThanOrEqual(extent.y0);
      expect(ys[i]! + SPRITE_HALF).toBeLessThanOrEqual(extent.y1);
    }
    // Markers at and beyond the edges: clipped to the view, as the canvas was.
    expect(drawnExtent([-10, 1805], [5, 1210], 2, 1800, 1200)).toEqual({ x0: 0, y0: 0, x1: 1800, y1: 1200 });
  });

  it('is empty when nothing is drawn, and reads only the first `count` points', () => {
    expect(drawnExtent([], [], 0, 1800, 1200)).toEqual({ x0: 0, y0: 0, x1: 0, y1: 0 });
    expect(drawnExtent([100, 1000], [100, 1000], 1, 1800, 1200)).toEqual({ x0: 64, y0: 64, x1: 128, y1: 128 });
  });
});

describe('draw regions: what a dirty rectangle touches', () => {
  it("covers a marker's halo and badge in device pixels, rounded outwards", () => {
    expect(markerRect(100, 50, 1)).toEqual({ x0: 100 - SPRITE_HALF, y0: 50 - SPRITE_HALF, x1: 100 + SPRITE_HALF, y1: 50 + SPRITE_HALF });
    expect(markerRect(10.5, 10, 2)).toEqual({
      x0: 2 * (10.5 - SPRITE_HALF),
      y0: 2 * (10 - SPRITE_HALF),
      x1: 2 * (10.5 + SPRITE_HALF),
      y1: 2 * (10 + SPRITE_HALF),
    });
    expect(markerRect(10.3, 10, 1.5).x0).toBe(Math.floor((10.3 - SPRITE_HALF) * 1.5));
  });

  it('finds every point in a rectangle through the grid, the same as a scan of them all', () => {
    const xs: number[] = [];
    const ys: number[] = [];
    // Points on and beyond the edges too: the grid keeps those in its outer ring.
    for (let i = 0; i < 2000; i++) {
      xs.push(((i * 7919) % 1400) - 100);
      ys.push(((i * 104729) % 900) - 50);
    }
    const grid = new PointGrid(xs, ys, xs.length, 1200, 800);
    for (const [x0, y0, x1, y1] of [
      [0, 0, 1200, 800],
      [100, 100, 164, 140],
      [-200, -200, 10, 10],
      [1150, 700, 1400, 1000],
    ] as const) {
      const found: number[] = [];
      grid.each(x0, y0, x1, y1, (i) => found.push(i));
      const scanned = xs.map((_, i) => i).filter((i) => xs[i]! >= x0 && xs[i]! <= x1 && ys[i]! >= y0 && ys[i]! <= y1);
      expect(found.sort((a, b) => a - b)).toEqual(scanned);
    }
  });

  it('repaints each marker touching any rectangle once, in painting order, and no other', () => {
    // Painting order: 0..4; 1 and 2 overlap 0's square, 3 overlaps 2's, 4 is far away.
    const xs = [100, 120, 80, 60, 600];
    const ys = [100, 100, 110, 125, 300];
    const grid = new PointGrid(xs, ys, 5, 800, 600);
    expect(touching(grid, [markerRect(100, 100, 1)], 1, 5)).toEqual([0, 1, 2]);
    expect(touching(grid, [markerRect(100, 100, 1), markerRect(80, 110, 1)], 1, 5)).toEqual([0, 1, 2, 3]);
    expect(touching(grid, [markerRect(600, 300, 2)], 2, 5)).toEqual([4]);
  });

  it('finds the names whose box (with its halo) overlaps a rectangle', () => {
    const boxes = [
      { id: 'a', x: 90, y: 112, width: 40, height: 13 },
      { id: 'b', x: 300, y: 300, width: 40, height: 13 },
      { id: 'c', x: 100 + SPRITE_HALF + 2, y: 95, width: 30, height: 13 },
    ];
    expect(boxesTouching(boxes, [markerRect(100, 100, 1)], 1).map((b) => b.id)).toEqual(['a', 'c']);
    expect(boxesTouching(boxes, [markerRect(100, 100, 1)], 1, 0).map((b) => b.id)).toEqual(['a']);
  });
});
