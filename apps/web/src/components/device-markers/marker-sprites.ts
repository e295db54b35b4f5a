import { MARKER_RADIUS, paintBadge, paintMarker, type MarkerStyle } from './marker-model.ts';
import { SPRITE_HALF } from './draw-regions.ts';

/** Half the side of an unselected marker's square: the largest shape (a gateway, 1.2 radii) and its outline. */
const PLAIN_HALF = Math.ceil(MARKER_RADIUS * 1.2 + 1);

/**
 * A painted look. An ImageBitmap where the browser makes them (OffscreenCanvas): stamping a bitmap copies its
 * pixels, where stamping a canvas first takes a snapshot of it, every time.
 */
type Sprite = ImageBitmap | HTMLCanvasElement;

/**
 * Each marker look (shape, colours, outline, selected or not) painted once into a small canvas at the screen's
 * pixel ratio, then stamped with drawImage wherever a marker has it: a stamp copies pixels, where a path is
 * rasterised again for every marker. Markers sit on whole CSS pixels (Leaflet rounds layer points), so a stamp
 * at a whole device pixel gives the same pixels the path would.
 */
export class MarkerSprites {
  /** Half a sprite's side in device pixels: a sprite's centre is this far from its top-left corner. */
  readonly half: number;
  /** The same for a marker that is not selected (no halo): a smaller stamp copies fewer pixels. */
  readonly plainHalf: number;
  private readonly looks = new Map<string, Sprite>();
  /** The same sprites by style object: feeds reuse style objects, so most lookups build no key. */
  private byStyle = new WeakMap<MarkerStyle, [Sprite | undefined, Sprite | undefined]>();
  private badgeSprite?: Sprite;

  constructor(readonly ratio: number) {
    this.half = Math.ceil(SPRITE_HALF * ratio);
    this.plainHalf = Math.ceil(PLAIN_HALF * ratio);
  }

  private sprite(paint: (ctx: CanvasRenderingContext2D, centre: number) => void, half = this.half): Sprite {
    const side = 2 * half;
    if (typeof OffscreenCanvas === 'function') {
      const offscreen = new OffscreenCanvas(side, side);
      const ctx = offscreen.getContext('2d');
      if (ctx) {
        ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
        // The painting functions use only what both contexts share.
        paint(ctx as unknown as CanvasRenderingContext2D, half / this.ratio);
        return offscreen.transferToImageBitmap();
      }
    }
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = side;
    const ctx = canvas.getContext('2d');
    if (ctx) {
      ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
      paint(ctx, half / this.ratio);
    }
    return canvas;
  }

  marker(style: MarkerStyle, selected: boolean): Sprite {
    let pair = this.byStyle.get(style);
    if (!pair) this.byStyle.set(style, (pair = [undefined, undefined]));
    const slot = selected ? 1 : 0;
    return (pair[slot] ??= this.byKey(style, selected));
  }

  private byKey(style: MarkerStyle, selected: boolean): Sprite {
    const key = `${style.shape}|${style.fill}|${style.stroke}|${style.dashed ? 1 : 0}|${selected ? 1 : 0}`;
    let sprite = this.looks.get(key);
    if (!sprite)
      this.looks.set(
        key,
        (sprite = this.sprite((ctx, c) => paintMarker(ctx, style, c, c, selected), selected ? this.half : this.plainHalf)),
      );
    return sprite;
  }

  /** The hand badge, placed in a sprite of a marker's size so that it stamps at the marker's own corner. */
  badge(): Sprite {
    return (this.badgeSprite ??= this.sprite((ctx, c) => paintBadge(ctx, c, c)));
  }
}
