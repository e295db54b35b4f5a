import { MARKER_RADIUS, paintBadge, paintMarker, type MarkerStyle } from './marker-model.ts';
import { SPRITE_HALF } from './draw-regions.ts';

/** Half the side of an unselected marker's square: the largest shape (a gateway, 1.2 radii) and its outline. */
const PLAIN_HALF = Math.ceil(MARKER_RADIUS * 1.2 + 1);
/** Cells per row of the atlas. */
const ATLAS_COLUMNS = 8;

/**
 * The painted looks. An ImageBitmap where the browser makes them (OffscreenCanvas): stamping a bitmap copies its
 * pixels, where stamping a canvas first takes a snapshot of it, every time.
 */
type Atlas = ImageBitmap | HTMLCanvasElement;

/** Where a look is in the atlas: the top-left corner of its square and half its side, in device pixels. */
export interface SpriteCell {
  x: number;
  y: number;
  half: number;
}

type Paint = (ctx: CanvasRenderingContext2D, centre: number) => void;

/**
 * Each marker look (shape, colours, outline, selected or not) painted once at the screen's pixel ratio into a
 * cell of one atlas, then stamped with drawImage wherever a marker has it: a stamp copies pixels, where a path
 * is rasterised again for every marker. Markers sit on whole CSS pixels (Leaflet rounds layer points), so a stamp
 * at a whole device pixel gives the same pixels the path would. Looks are painted when first asked for, all the
 * new ones of a redraw into one new atlas (a canvas made per look cost more than painting it).
 */
export class MarkerSprites {
  /** Half a sprite's side in device pixels: a sprite's centre is this far from its top-left corner. */
  readonly half: number;
  /** The same for a marker that is not selected (no halo): a smaller stamp copies fewer pixels. */
  readonly plainHalf: number;
  private readonly looks = new Map<string, SpriteCell>();
  /** The same cells by style object: feeds reuse style objects, so most lookups build no key. */
  private byStyle = new WeakMap<MarkerStyle, [SpriteCell | undefined, SpriteCell | undefined]>();
  private badgeCell?: SpriteCell;
  private cells = 0;
  /** Looks given a cell but not painted yet (by `atlas`). */
  private pending: { cell: SpriteCell; half: number; paint: Paint }[] = [];
  private painted?: Atlas;

  constructor(readonly ratio: number) {
    this.half = Math.ceil(SPRITE_HALF * ratio);
    this.plainHalf = Math.ceil(PLAIN_HALF * ratio);
  }

  marker(style: MarkerStyle, selected: boolean): SpriteCell {
    let pair = this.byStyle.get(style);
    if (!pair) this.byStyle.set(style, (pair = [undefined, undefined]));
    const slot = selected ? 1 : 0;
    return (pair[slot] ??= this.byKey(style, selected));
  }

  /** The hand badge, placed in a square of a selected marker's size so that it stamps at the marker's own corner. */
  badge(): SpriteCell {
    return (this.badgeCell ??= this.add((ctx, c) => paintBadge(ctx, c, c), this.half));
  }

  /** Every look asked for so far, painted: call after asking for a redraw's looks and before stamping them. */
  atlas(): Atlas | undefined {
    if (this.pending.length === 0) return this.painted;
    const side = 2 * this.half;
    const width = ATLAS_COLUMNS * side;
    const height = Math.ceil(this.cells / ATLAS_COLUMNS) * side;
    const atlas = this.canvas(width, height);
    const scratch = this.canvas(side, side);
    if (!atlas || !scratch) return this.painted;
    if (this.painted) atlas.ctx.drawImage(this.painted, 0, 0);
    // Each look is painted at the top left of a canvas of its own size, as a canvas per look had it, and copied
    // into its cell: the same pixels (a path's edges rasterise a little differently elsewhere on a canvas).
    for (const { cell, half, paint } of this.pending) {
      const size = 2 * half;
      scratch.ctx.setTransform(1, 0, 0, 1, 0, 0);
      scratch.ctx.clearRect(0, 0, size, size);
      scratch.ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
      paint(scratch.ctx, half / this.ratio);
      atlas.ctx.drawImage(scratch.canvas, 0, 0, size, size, cell.x, cell.y, size, size);
    }
    this.pending = [];
    const { canvas } = atlas;
    return (this.painted = canvas instanceof HTMLCanvasElement ? canvas : canvas.transferToImageBitmap());
  }

  private canvas(width: number, height: number) {
    if (typeof OffscreenCanvas === 'function') {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      // The painting functions use only what both contexts share.
      if (ctx) return { canvas, ctx: ctx as unknown as CanvasRenderingContext2D };
    }
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    return ctx ? { canvas, ctx } : undefined;
  }

  private byKey(style: MarkerStyle, selected: boolean): SpriteCell {
    const key = `${style.shape}|${style.fill}|${style.stroke}|${style.dashed ? 1 : 0}|${selected ? 1 : 0}`;
    let cell = this.looks.get(key);
    if (!cell)
      this.looks.set(key, (cell = this.add((ctx, c) => paintMarker(ctx, style, c, c, selected), selected ? this.half : this.plainHalf)));
    return cell;
  }

  /** A new cell for a look: the square of `half` around its centre. */
  private add(paint: Paint, half: number): SpriteCell {
    const index = this.cells++;
    const side = 2 * this.half;
    const cell = { x: (index % ATLAS_COLUMNS) * side, y: Math.floor(index / ATLAS_COLUMNS) * side, half };
    this.pending.push({ cell, half, paint });
    return cell;
  }
}
