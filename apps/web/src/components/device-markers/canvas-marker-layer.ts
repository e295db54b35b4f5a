import L from 'leaflet';
import {
  LABEL_FONT_PX,
  MARKER_RADIUS,
  drawLabels,
  hitTest,
  placeLabels,
  type DrawnPoint,
  type LabelBox,
  type MarkerStyle,
} from './marker-model.ts';
import { PointGrid, boxesTouching, drawnExtent, markerRect, paintOrder, restyled, touching, type PixelRect } from './draw-regions.ts';
import { MarkerSprites, type SpriteCell } from './marker-sprites.ts';

/** A marker on the plan: CRS.Simple [lat, lng] and how to draw it. */
export interface PlanMarker {
  id: string;
  latLng: [number, number];
  style: MarkerStyle;
  /** Whether an editor may drag it. */
  draggable: boolean;
  /** Its name: on hover, and under it once the plan is zoomed in far enough for names to fit. */
  label: string;
  /** A second line on hover (what it is and its state), written when the hover shows it: a map's thousands of
   * markers need not translate theirs to be drawn. */
  hint?: () => string;
  /** Switched by hand: drawn with a badge. */
  manual?: boolean;
}

export interface CanvasMarkerHandlers {
  /** `additive`: the shift key was held (a desktop adds to a selection that way). */
  onClick?: (id: string, additive: boolean) => void;
  /** A click on the plan where no marker is (not the end of a pan). */
  onBackgroundClick?: () => void;
  /** A drag ended away from where it started; the marker is drawn at the new place until the next setMarkers. */
  onDragEnd?: (id: string, latLng: L.LatLng) => void;
}

/** Leaflet's own zoom-animation helper (stable since 1.0, not in the type definitions). */
interface AnimatedMap extends L.Map {
  _latLngToNewLayerPoint(latlng: L.LatLng, zoom: number, center: L.LatLng): L.Point;
}

/** A press that moves less than this (pixels) is a click, not a drag. */
const DRAG_THRESHOLD = 4;
/** How long a finger holds still on a marker to pick it up: a shorter touch is a tap, a moving one pans the plan. */
export const LONG_PRESS_MS = 500;
/** A finger that moves more than this (pixels) before the long press has passed is panning, not picking up. */
const LONG_PRESS_SLOP = 8;
/** After a finger puts a marker down, the mouse events a browser may still emulate for the touch are not a click. */
const AFTER_LIFT_QUIET_MS = 600;

/** A finger on a marker: waiting for the long press, then (`lifted`) carrying the marker. */
interface Press {
  pointerId: number;
  id: string;
  startX: number;
  startY: number;
  timer: number;
  lifted: boolean;
  /** Map dragging was on when the marker was lifted, and is turned on again when it is put down. */
  panned: boolean;
  latLng?: L.LatLng;
}
/** The canvas covers the view plus this share of it on each side, so panning shows markers before the redraw. */
const PADDING = 0.25;
/** Names are written under markers from this many zoom levels beyond the whole plan's view. */
const LABEL_ZOOM_STEPS = 1;
/** Above this many markers in view, names are left to the hover (measuring them all would slow each redraw). */
const LABEL_MAX_MARKERS = 3000;

/**
 * Every device of a map on ONE canvas (thousands draw in a few milliseconds, where DOM markers take
 * seconds). It lives in its own pane above the floor plan and moves with the map while panning; it is
 * redrawn when a pan or zoom ends and CSS-scaled during the zoom animation, as Leaflet's own renderers are.
 * Clicks and drags are hit-tested here because a canvas has no element per marker.
 */
export class CanvasMarkerLayer extends L.Layer {
  private map?: L.Map;
  private canvas?: HTMLCanvasElement;
  private markers: PlanMarker[] = [];
  /** Each marker's label by id, built when names are next written (undefined: the feed changed since). */
  private labels?: Map<string, string>;
  private selected?: string;
  /** Devices selected together (plan selection): drawn as the selected one is. */
  private marked: ReadonlySet<string> = new Set();
  /** Each feed marker's centre in canvas pixels at the last redraw (by feed index). */
  private xs = new Float64Array(0);
  private ys = new Float64Array(0);
  /** The painting order: feed indices of the markers on the canvas, the selected ones last. */
  private order = new Int32Array(0);
  /** Where each feed marker is in the painting order, or -1 when it is off the canvas. */
  private slotOf = new Int32Array(0);
  /** Centres by painting order (what the grid and hit-testing read). */
  private slotX = new Float64Array(0);
  private slotY = new Float64Array(0);
  private drawnCount = 0;
  private firstSelected = 0;
  /** Painted markers by cell, built at the first partial redraw after a full one. */
  private grid?: PointGrid;
  /** The painted markers as points, built when hit-testing or labelling asks for them. */
  private drawnPoints?: DrawnPoint[];
  private labelBoxes: LabelBox[] = [];
  /** Whether the last full redraw wrote names (then a renamed marker may move every name after it). */
  private labelsShown = false;
  private sprites?: MarkerSprites;
  /** Each painting slot's look, by the position the slot is stamped in (kept between redraws). */
  private slotCells: SpriteCell[] = [];
  /** The canvas's size in CSS pixels and the device pixel ratio at the last redraw. */
  private width = 0;
  private height = 0;
  private ratio = 1;
  /** Layer point of the canvas's top-left corner at the last redraw. */
  private origin = L.point(0, 0);
  private handlers: CanvasMarkerHandlers;
  private editable = false;
  private drag?: { id: string; startX: number; startY: number; moved: boolean; additive: boolean; latLng?: L.LatLng };
  /** Touch and pen move markers by long-press: there is no hover, and a plain drag pans the plan. */
  private press?: Press;
  /** Until then (performance.now()), emulated mouse presses are the end of a long-press move. */
  private quietUntil = 0;
  /** A redraw scheduled for the next frame while dragging. */
  private frame?: number;
  /** The plan's bounds: the zoom that shows all of it is where labelling is measured from. */
  private planBounds?: L.LatLngBounds;
  private labelWidths = new Map<string, number>();
  /** Names under every marker whatever the zoom (the "show names" switch of touch screens, which have no hover). */
  private namesAlways = false;
  private tooltip = L.tooltip({ direction: 'top', offset: [0, -MARKER_RADIUS], className: 'lg-marker-tooltip', opacity: 1 });
  private hovered?: string;
  /** Milliseconds the last redraw took (read by the draw benchmark and the page's data attribute). */
  lastDrawMs = 0;

  constructor(handlers: CanvasMarkerHandlers = {}) {
    super();
    this.handlers = handlers;
  }

  setHandlers(handlers: CanvasMarkerHandlers): void {
    this.handlers = handlers;
  }

  /** Whether markers marked draggable may be dragged now (an editor). */
  setEditable(editable: boolean): void {
    this.editable = editable;
  }

  /**
   * A feed that only restyles some markers (a report batch: states, hand badges) repaints just the pixels
   * around them; anything else (markers added, removed or moved, names changed while written) redraws all.
   */
  setMarkers(markers: PlanMarker[]): void {
    const prev = this.markers;
    this.markers = markers;
    this.labels = undefined;
    if (this.hovered && !markers.some((m) => m.id === this.hovered)) this.hideTooltip();
    if (this.drag) return;
    const changed = this.canvas && !this.press?.lifted ? restyled(prev, markers, this.labelsShown) : undefined;
    // Past a quarter of what is drawn, clearing and stamping everything costs no more than the rectangles.
    if (changed && changed.length <= Math.max(64, this.drawnCount / 4)) this.repaint(changed);
    else this.redraw();
  }

  /** The floor plan's extent; names appear under markers once the view is zoomed in beyond showing all of it. */
  setPlanBounds(bounds: L.LatLngBounds): void {
    this.planBounds = bounds;
    this.redraw();
  }

  /** Centres the view on a marker, zoomed in far enough for names to show; false if it is not drawn. */
  focus(id: string): boolean {
    const marker = this.markers.find((m) => m.id === id);
    if (!this.map || !marker) return false;
    const zoom = this.planBounds ? this.map.getBoundsZoom(this.planBounds) + LABEL_ZOOM_STEPS : this.map.getZoom();
    this.map.setView(marker.latLng, Math.max(this.map.getZoom(), zoom), { animate: false });
    return true;
  }

  /** Writes names under markers at any zoom, not only once zoomed in (where they fit without a crowd). */
  setNamesAlways(always: boolean): void {
    if (this.namesAlways === always) return;
    this.namesAlways = always;
    this.redraw();
  }

  setSelected(id: string | undefined): void {
    if (this.selected === id) return;
    this.selected = id;
    this.redraw();
  }

  setMarked(ids: ReadonlySet<string>): void {
    if (this.marked === ids) return;
    this.marked = ids;
    this.redraw();
  }

  /** The marker under a point of the page, if any (a lasso does not start on a marker). */
  hitAt(clientX: number, clientY: number): string | undefined {
    if (!this.canvas) return undefined;
    const box = this.canvas.getBoundingClientRect();
    return hitTest(this.drawnList(), clientX - box.left, clientY - box.top)?.id;
  }

  override onAdd(map: L.Map): this {
    this.map = map;
    const pane = map.getPane('lgDevices') ?? map.createPane('lgDevices');
    pane.style.zIndex = '450';
    const canvas = L.DomUtil.create('canvas', 'lg-device-canvas leaflet-zoom-animated', pane);
    canvas.style.pointerEvents = 'auto';
    canvas.dataset.testid = 'device-canvas';
    canvas.addEventListener('mousedown', this.onMouseDown);
    canvas.addEventListener('pointerdown', this.onPointerDown);
    canvas.addEventListener('contextmenu', this.onContextMenu);
    canvas.addEventListener('mousemove', this.onHover);
    canvas.addEventListener('mouseleave', this.hideTooltip);
    this.canvas = canvas;
    map.on('moveend zoomend viewreset resize', this.redraw, this);
    map.on('zoomanim', this.onZoomAnim, this);
    map.on('click', this.onMapClick, this);
    this.redraw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend viewreset resize', this.redraw, this);
    map.off('zoomanim', this.onZoomAnim, this);
    map.off('click', this.onMapClick, this);
    this.endDrag();
    this.endPress();
    this.canvas?.removeEventListener('mousedown', this.onMouseDown);
    this.canvas?.removeEventListener('pointerdown', this.onPointerDown);
    this.canvas?.removeEventListener('contextmenu', this.onContextMenu);
    this.canvas?.removeEventListener('mousemove', this.onHover);
    this.canvas?.removeEventListener('mouseleave', this.hideTooltip);
    this.hideTooltip();
    this.canvas?.remove();
    this.canvas = undefined;
    this.map = undefined;
    return this;
  }

  /** Where a marker is drawn now, in page pixels (tests and the e2e journey aim with it). */
  screenPoint(id: string): { x: number; y: number } | undefined {
    const p = this.drawnList().find((d) => d.id === id);
    if (!p || !this.canvas) return undefined;
    const box = this.canvas.getBoundingClientRect();
    return { x: box.left + p.x, y: box.top + p.y };
  }

  /** Draws every marker at the current view; called after each pan, zoom and data change. */
  redraw(): void {
    const { map, canvas } = this;
    if (!map || !canvas) return;
    const started = performance.now();
    const size = map.getSize();
    const pad = size.multiplyBy(PADDING).round();
    const view = map.containerPointToLayerPoint(pad.multiplyBy(-1)).round();
    const viewWidth = size.x + 2 * pad.x;
    const viewHeight = size.y + 2 * pad.y;
    const ratio = window.devicePixelRatio || 1;
    this.project(map, view);
    const n = this.markers.length;
    if (this.order.length < n) {
      this.order = new Int32Array(n);
      this.slotX = new Float64Array(n);
      this.slotY = new Float64Array(n);
    }
    if (this.slotOf.length !== n) this.slotOf = new Int32Array(n);
    const { drawn, firstSelected } = paintOrder(this.xs, this.ys, n, this.isSelected, viewWidth, viewHeight, this.order);
    this.drawnCount = drawn;
    this.firstSelected = firstSelected;
    this.slotOf.fill(-1);
    for (let slot = 0; slot < drawn; slot++) {
      const i = this.order[slot]!;
      this.slotOf[i] = slot;
      this.slotX[slot] = this.xs[i]!;
      this.slotY[slot] = this.ys[i]!;
    }
    this.labelsShown = this.showsLabels();
    // The canvas covers only where markers are (names reach farther: then all of it). Its pixels are allocated,
    // cleared and handed to the compositor every frame, so a plan shown whole costs a third of the padded view.
    const extent = this.labelsShown
      ? { x0: 0, y0: 0, x1: viewWidth, y1: viewHeight }
      : drawnExtent(this.slotX, this.slotY, drawn, viewWidth, viewHeight);
    if (extent.x0 !== 0 || extent.y0 !== 0) {
      for (let i = 0; i < n; i++) {
        this.xs[i]! -= extent.x0;
        this.ys[i]! -= extent.y0;
      }
      for (let slot = 0; slot < drawn; slot++) {
        this.slotX[slot]! -= extent.x0;
        this.slotY[slot]! -= extent.y0;
      }
    }
    const origin = view.add([extent.x0, extent.y0]);
    const width = extent.x1 - extent.x0;
    const height = extent.y1 - extent.y0;
    L.DomUtil.setPosition(canvas, origin);
    const pixelWidth = Math.round(width * ratio);
    const pixelHeight = Math.round(height * ratio);
    // Setting a canvas's size, even to the same, allocates its pixels again: only when its extent's size changed.
    if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
      canvas.width = pixelWidth;
      canvas.height = pixelHeight;
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    this.origin = origin;
    this.width = width;
    this.height = height;
    this.ratio = ratio;
    if (this.sprites?.ratio !== ratio) this.sprites = new MarkerSprites(ratio);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, pixelWidth, pixelHeight);
    this.grid = undefined;
    this.drawnPoints = undefined;
    this.paintSlots(ctx, drawn, (k) => k);
    this.labelBoxes = this.labelsShown ? placeLabels(this.drawnList(), (id) => this.labelWidth(ctx, id)) : [];
    if (this.labelBoxes.length > 0) {
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      drawLabels(ctx, this.labelBoxes, (id) => this.labelOf(id));
    }
    canvas.dataset.labels = String(this.labelBoxes.length);
    this.lastDrawMs = performance.now() - started;
    canvas.dataset.drawn = String(drawn);
    canvas.dataset.selected = String(drawn - firstSelected);
  }

  /**
   * Repaints only around the markers whose look changed (feed indices; positions and order are as drawn): each
   * one's square is cleared, and every marker and name touching any square is painted again in drawing order,
   * clipped to the squares, so the pixels end as a full redraw would leave them.
   */
  private repaint(changed: readonly number[]): void {
    const { canvas, sprites } = this;
    const ctx = canvas?.getContext('2d');
    if (!ctx || !sprites) return;
    const started = performance.now();
    const rects: PixelRect[] = [];
    for (const i of changed) if (this.slotOf[i]! >= 0) rects.push(markerRect(this.xs[i]!, this.ys[i]!, this.ratio));
    if (rects.length === 0) return;
    this.grid ??= new PointGrid(this.slotX, this.slotY, this.drawnCount, this.width, this.height);
    const slots = touching(this.grid, rects, this.ratio, this.drawnCount);
    const labels = boxesTouching(this.labelBoxes, rects, this.ratio);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.beginPath();
    for (const r of rects) ctx.rect(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
    ctx.clip();
    for (const r of rects) ctx.clearRect(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
    this.paintSlots(ctx, slots.length, (k) => slots[k]!);
    if (labels.length > 0) {
      ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
      drawLabels(ctx, labels, (id) => this.labelOf(id));
    }
    ctx.restore();
    this.lastDrawMs = performance.now() - started;
  }

  /** Stamps the sprites of `count` painting slots (given in ascending order by `slotAt`), then their hand badges. */
  private paintSlots(ctx: CanvasRenderingContext2D, count: number, slotAt: (k: number) => number): void {
    const sprites = this.sprites;
    if (!sprites) return;
    const { ratio } = this;
    // Each slot's look first, so that every look new to this redraw is painted into the atlas at once.
    const cells = this.slotCells;
    let badged = false;
    for (let k = 0; k < count; k++) {
      const slot = slotAt(k);
      const m = this.markers[this.order[slot]!]!;
      cells[k] = sprites.marker(m.style, slot >= this.firstSelected);
      badged ||= Boolean(m.manual);
    }
    const badge = badged ? sprites.badge() : undefined;
    const atlas = sprites.atlas();
    if (!atlas) return;
    ctx.imageSmoothingEnabled = false;
    for (let k = 0; k < count; k++) {
      const slot = slotAt(k);
      const { x, y, half } = cells[k]!;
      const side = 2 * half;
      const left = Math.round(this.slotX[slot]! * ratio) - half;
      const top = Math.round(this.slotY[slot]! * ratio) - half;
      ctx.drawImage(atlas, x, y, side, side, left, top, side, side);
    }
    if (!badge) return;
    // Badges after every marker, so no neighbour covers them.
    const side = 2 * badge.half;
    for (let k = 0; k < count; k++) {
      const slot = slotAt(k);
      if (!this.markers[this.order[slot]!]!.manual) continue;
      const left = Math.round(this.slotX[slot]! * ratio) - badge.half;
      const top = Math.round(this.slotY[slot]! * ratio) - badge.half;
      ctx.drawImage(atlas, badge.x, badge.y, side, side, left, top, side, side);
    }
  }

  /**
   * Every marker's centre in canvas pixels into xs/ys, without an object per marker. A plan's CRS is flat
   * (CRS.Simple), where a layer point is an affine function of [lat, lng]; a geographic one is asked per marker.
   */
  private project(map: L.Map, origin: L.Point): void {
    const n = this.markers.length;
    if (this.xs.length < n) {
      this.xs = new Float64Array(n);
      this.ys = new Float64Array(n);
    }
    const lifted = this.press?.lifted ? this.press : undefined;
    const moved = this.drag?.latLng ? this.drag : lifted?.latLng ? { id: lifted.id, latLng: lifted.latLng } : undefined;
    const crs = map.options.crs ?? L.CRS.EPSG3857;
    const zoom = map.getZoom();
    const pixelOrigin = map.getPixelOrigin();
    const ox = pixelOrigin.x + origin.x;
    const oy = pixelOrigin.y + origin.y;
    const p0 = crs.latLngToPoint(L.latLng(0, 0), zoom);
    const pLng = crs.latLngToPoint(L.latLng(0, 1), zoom);
    const pLat = crs.latLngToPoint(L.latLng(1, 0), zoom);
    for (let i = 0; i < n; i++) {
      const m = this.markers[i]!;
      if (moved && moved.id === m.id) {
        const p = map.latLngToLayerPoint(moved.latLng!);
        this.xs[i] = p.x - origin.x;
        this.ys[i] = p.y - origin.y;
      } else if (crs.infinite) {
        const [lat, lng] = m.latLng;
        // Rounded as Leaflet rounds a layer point, so markers sit on whole pixels.
        this.xs[i] = Math.round(p0.x + (pLng.x - p0.x) * lng + (pLat.x - p0.x) * lat) - ox;
        this.ys[i] = Math.round(p0.y + (pLng.y - p0.y) * lng + (pLat.y - p0.y) * lat) - oy;
      } else {
        const p = map.latLngToLayerPoint(m.latLng);
        this.xs[i] = p.x - origin.x;
        this.ys[i] = p.y - origin.y;
      }
    }
  }

  private isSelected = (i: number): boolean => {
    const { id } = this.markers[i]!;
    return id === this.selected || (this.marked.size > 0 && this.marked.has(id)) || id === this.liftedId;
  };

  private get liftedId(): string | undefined {
    return this.press?.lifted ? this.press.id : undefined;
  }

  /** The painted markers in painting order, as hit-testing and labelling read them. */
  private drawnList(): DrawnPoint[] {
    if (!this.drawnPoints) {
      const points: DrawnPoint[] = new Array(this.drawnCount);
      for (let slot = 0; slot < this.drawnCount; slot++) {
        points[slot] = { id: this.markers[this.order[slot]!]!.id, x: this.slotX[slot]!, y: this.slotY[slot]! };
      }
      this.drawnPoints = points;
    }
    return this.drawnPoints;
  }

  private showsLabels(): boolean {
    const { map, planBounds } = this;
    if (!map || this.drawnCount > LABEL_MAX_MARKERS) return false;
    return this.namesAlways || Boolean(planBounds && map.getZoom() >= map.getBoundsZoom(planBounds) + LABEL_ZOOM_STEPS);
  }

  private labelOf(id: string): string {
    this.labels ??= new Map(this.markers.map((m) => [m.id, m.label]));
    return this.labels.get(id) ?? '';
  }

  /** A label's width in pixels, measured once per text. */
  private labelWidth(ctx: CanvasRenderingContext2D, id: string): number {
    const text = this.labelOf(id);
    if (!text) return 0;
    let width = this.labelWidths.get(text);
    if (width === undefined) {
      ctx.font = `${LABEL_FONT_PX}px sans-serif`;
      width = Math.ceil(ctx.measureText(text).width) + 2;
      this.labelWidths.set(text, width);
    }
    return width;
  }

  private showTooltip(marker: PlanMarker): void {
    if (!this.map) return;
    if (this.hovered !== marker.id) {
      // Text nodes, never HTML: names are user input.
      const content = document.createElement('div');
      content.dataset.testid = 'marker-tooltip';
      const name = content.appendChild(document.createElement('strong'));
      name.textContent = marker.label;
      const hintText = marker.hint?.();
      if (hintText) {
        const hint = content.appendChild(document.createElement('div'));
        hint.textContent = hintText;
      }
      this.tooltip.setContent(content);
      this.hovered = marker.id;
    }
    this.tooltip.setLatLng(marker.latLng);
    this.tooltip.openOn(this.map);
  }

  private hideTooltip = () => {
    this.hovered = undefined;
    this.tooltip.close();
  };

  private onZoomAnim(e: L.ZoomAnimEvent): void {
    const { map, canvas } = this;
    if (!map || !canvas) return;
    const scale = map.getZoomScale(e.zoom, map.getZoom());
    const topLeft = map.layerPointToLatLng(this.origin);
    const offset = (map as AnimatedMap)._latLngToNewLayerPoint(topLeft, e.zoom, e.center);
    L.DomUtil.setTransform(canvas, offset, scale);
  }

  /** The marker under a mouse event, in the canvas's pixels. */
  private hit(event: MouseEvent): DrawnPoint | undefined {
    if (!this.canvas) return undefined;
    const box = this.canvas.getBoundingClientRect();
    return hitTest(this.drawnList(), event.clientX - box.left, event.clientY - box.top);
  }

  private canDrag(id: string): boolean {
    return this.editable && this.markers.some((m) => m.id === id && m.draggable);
  }

  /** Leaflet reports a click only when the press did not pan; one on a marker was handled at mousedown. */
  private onMapClick(event: L.LeafletMouseEvent) {
    if (!this.hit(event.originalEvent)) this.handlers.onBackgroundClick?.();
  }

  private onHover = (event: MouseEvent) => {
    if (!this.canvas || this.drag) return;
    const hit = this.hit(event);
    this.canvas.style.cursor = hit ? (this.canDrag(hit.id) ? 'move' : 'pointer') : '';
    const marker = hit && this.markers.find((m) => m.id === hit.id);
    if (marker) this.showTooltip(marker);
    else if (this.hovered) this.hideTooltip();
  };

  private onMouseDown = (event: MouseEvent) => {
    if (event.button !== 0) return;
    if (this.press?.lifted || performance.now() < this.quietUntil) {
      event.stopPropagation();
      event.preventDefault();
      return;
    }
    const hit = this.hit(event);
    // Not on a marker: the press belongs to the map (panning).
    if (!hit) return;
    // On a marker: the map must not start panning, whether this becomes a click or a drag.
    event.stopPropagation();
    event.preventDefault();
    this.hideTooltip();
    this.drag = { id: hit.id, startX: event.clientX, startY: event.clientY, moved: false, additive: event.shiftKey };
    document.addEventListener('mousemove', this.onDragMove);
    document.addEventListener('mouseup', this.onMouseUp);
  };

  private onDragMove = (event: MouseEvent) => {
    const { drag, map } = this;
    if (!drag || !map) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < DRAG_THRESHOLD) return;
    if (!this.canDrag(drag.id)) return;
    drag.moved = true;
    drag.latLng = map.mouseEventToLatLng(event);
    // At most one redraw per frame, however fast the mouse reports.
    if (this.frame === undefined) {
      this.frame = requestAnimationFrame(() => {
        this.frame = undefined;
        this.redraw();
      });
    }
  };

  private onMouseUp = () => {
    const drag = this.drag;
    this.endDrag();
    if (!drag) return;
    if (drag.moved && drag.latLng) this.handlers.onDragEnd?.(drag.id, drag.latLng);
    else this.handlers.onClick?.(drag.id, drag.additive);
    // Until the new data arrives the marker stays where it was dropped.
    if (drag.moved && drag.latLng) {
      const latLng: [number, number] = [drag.latLng.lat, drag.latLng.lng];
      this.markers = this.markers.map((m) => (m.id === drag.id ? { ...m, latLng } : m));
    }
    this.redraw();
  };

  private onPointerDown = (event: PointerEvent) => {
    if (event.pointerType === 'mouse' || !event.isPrimary || this.press) return;
    const hit = this.hit(event);
    if (!hit || !this.canDrag(hit.id)) return;
    this.press = {
      pointerId: event.pointerId,
      id: hit.id,
      startX: event.clientX,
      startY: event.clientY,
      timer: window.setTimeout(this.lift, LONG_PRESS_MS),
      lifted: false,
      panned: false,
    };
    // On the window and first: once lifted, the finger's moves are the marker's, not the plan's pan.
    window.addEventListener('pointermove', this.onPressMove, true);
    window.addEventListener('pointerup', this.onPressEnd, true);
    window.addEventListener('pointercancel', this.onPressCancel, true);
  };

  /** The long press has passed with the finger still: the marker follows the finger until it lifts. */
  private lift = () => {
    const { press, map, canvas } = this;
    if (!press || !map) return;
    press.lifted = true;
    press.panned = map.dragging.enabled();
    if (press.panned) map.dragging.disable();
    this.hideTooltip();
    navigator.vibrate?.(15);
    if (canvas) canvas.dataset.lifted = press.id;
    this.redraw();
  };

  private onPressMove = (event: PointerEvent) => {
    const { press, map } = this;
    if (!press || !map || event.pointerId !== press.pointerId) return;
    if (!press.lifted) {
      if (Math.hypot(event.clientX - press.startX, event.clientY - press.startY) > LONG_PRESS_SLOP) this.endPress();
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    press.latLng = map.mouseEventToLatLng(event as unknown as MouseEvent);
    if (this.frame === undefined) {
      this.frame = requestAnimationFrame(() => {
        this.frame = undefined;
        this.redraw();
      });
    }
  };

  private onPressEnd = (event: PointerEvent) => {
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId) return;
    if (press.lifted) {
      event.preventDefault();
      event.stopPropagation();
      this.quietUntil = performance.now() + AFTER_LIFT_QUIET_MS;
    }
    this.endPress();
    if (!press.lifted || !press.latLng) return;
    const latLng: [number, number] = [press.latLng.lat, press.latLng.lng];
    // Until the new data arrives the marker stays where it was put down.
    this.markers = this.markers.map((m) => (m.id === press.id ? { ...m, latLng } : m));
    this.handlers.onDragEnd?.(press.id, press.latLng);
    this.redraw();
  };

  private onPressCancel = (event: PointerEvent) => {
    if (this.press && event.pointerId === this.press.pointerId) {
      this.endPress();
      this.redraw();
    }
  };

  /** A long press on a marker picks it up; the browser's menu for it would cover the plan. */
  private onContextMenu = (event: MouseEvent) => {
    if (this.press || this.hit(event)) event.preventDefault();
  };

  private endPress(): void {
    const press = this.press;
    if (!press) return;
    window.clearTimeout(press.timer);
    if (press.panned) this.map?.dragging.enable();
    if (this.canvas) delete this.canvas.dataset.lifted;
    this.press = undefined;
    window.removeEventListener('pointermove', this.onPressMove, true);
    window.removeEventListener('pointerup', this.onPressEnd, true);
    window.removeEventListener('pointercancel', this.onPressCancel, true);
  }

  private endDrag(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
    this.drag = undefined;
    document.removeEventListener('mousemove', this.onDragMove);
    document.removeEventListener('mouseup', this.onMouseUp);
  }
}
