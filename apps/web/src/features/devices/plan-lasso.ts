import { useEffect, useRef } from 'react';
import type L from 'leaflet';
import { planToFraction } from '../../components/device-markers/marker-model.ts';
import type { FloorPlan } from '../../components/floor-plan-map.tsx';
import { LASSO_MIN_PX, markersIn, rectBetween } from './plan-selection.ts';

export interface PlanLassoOptions {
  /** Select mode: any drag on the plan draws the rectangle (and does not pan). Without it, shift-drag does. */
  selecting: boolean;
  markers: ReadonlyArray<{ id: string; x: number | null; y: number | null }>;
  /** The marker under a page point: a press there belongs to the marker (a tap selects it). */
  hitAt: (clientX: number, clientY: number) => string | undefined;
  onLasso: (ids: string[]) => void;
}

/**
 * Draws a rectangle with a drag on the plan (a finger in select mode, the mouse with shift or in select mode)
 * and answers the markers inside it. Pointer events cover mouse, pen and touch alike; while a rectangle is
 * drawn the plan does not pan. Leaflet's own shift-drag (box zoom) gives way to it.
 */
export function usePlanLasso(plan: FloorPlan, options: PlanLassoOptions): void {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    const map = plan.map;
    map.boxZoom.disable();
    const container = map.getContainer();
    let lasso: { pointerId: number; start: L.Point; box: HTMLDivElement; dragging: boolean } | undefined;

    const pointOf = (event: PointerEvent) => map.mouseEventToContainerPoint(event as unknown as MouseEvent);
    const draw = (box: HTMLDivElement, a: L.Point, b: L.Point) => {
      box.style.left = `${Math.min(a.x, b.x)}px`;
      box.style.top = `${Math.min(a.y, b.y)}px`;
      box.style.width = `${Math.abs(a.x - b.x)}px`;
      box.style.height = `${Math.abs(a.y - b.y)}px`;
    };
    const end = () => {
      if (!lasso) return;
      lasso.box.remove();
      if (lasso.dragging) map.dragging.enable();
      lasso = undefined;
    };

    const onDown = (event: PointerEvent) => {
      const { selecting, hitAt } = latest.current;
      if (lasso || !event.isPrimary || event.button !== 0 || !(selecting || event.shiftKey)) return;
      if (event.target instanceof Element && event.target.closest('.leaflet-control, .lg-plan-tools, button, a, input')) return;
      if (hitAt(event.clientX, event.clientY)) return;
      // The press is the rectangle's: neither Leaflet's pan nor the page's scroll may take it.
      event.preventDefault();
      event.stopPropagation();
      const box = document.createElement('div');
      box.className = 'lg-plan-lasso';
      box.dataset.testid = 'plan-lasso';
      container.appendChild(box);
      const dragging = map.dragging.enabled();
      if (dragging) map.dragging.disable();
      const start = pointOf(event);
      draw(box, start, start);
      lasso = { pointerId: event.pointerId, start, box, dragging };
      container.setPointerCapture?.(event.pointerId);
    };
    const onMove = (event: PointerEvent) => {
      if (!lasso || event.pointerId !== lasso.pointerId) return;
      event.preventDefault();
      draw(lasso.box, lasso.start, pointOf(event));
    };
    const onUp = (event: PointerEvent) => {
      if (!lasso || event.pointerId !== lasso.pointerId) return;
      const { start } = lasso;
      const stop = pointOf(event);
      end();
      if (Math.hypot(stop.x - start.x, stop.y - start.y) < LASSO_MIN_PX) return;
      const size = plan.size;
      const rect = rectBetween(
        planToFraction(map.containerPointToLatLng(start), size),
        planToFraction(map.containerPointToLatLng(stop), size),
      );
      latest.current.onLasso(markersIn(latest.current.markers, rect));
    };
    const onCancel = (event: PointerEvent) => {
      if (lasso && event.pointerId === lasso.pointerId) end();
    };

    container.addEventListener('pointerdown', onDown, true);
    container.addEventListener('pointermove', onMove);
    container.addEventListener('pointerup', onUp);
    container.addEventListener('pointercancel', onCancel);
    return () => {
      end();
      container.removeEventListener('pointerdown', onDown, true);
      container.removeEventListener('pointermove', onMove);
      container.removeEventListener('pointerup', onUp);
      container.removeEventListener('pointercancel', onCancel);
      map.boxZoom.enable();
    };
  }, [plan.map, plan.size]);

  // In select mode a finger draws rectangles: the plan stands still under it (pinch zoom waits for the mode's end).
  useEffect(() => {
    const map = plan.map;
    const container = map.getContainer();
    if (!options.selecting) return;
    const dragging = map.dragging.enabled();
    if (dragging) map.dragging.disable();
    const touchAction = container.style.touchAction;
    container.style.touchAction = 'none';
    return () => {
      container.style.touchAction = touchAction;
      if (dragging) map.dragging.enable();
    };
  }, [plan.map, options.selecting]);
}
