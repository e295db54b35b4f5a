import { useEffect, useRef, useState, type ReactNode } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './floor-plan-map.css';
import { imageBounds } from './floor-plan-bounds.ts';

export interface FloorPlanMapProps {
  /** The floor plan image; without one the map shows an empty canvas. */
  imageUrl: string | undefined;
  /** 0 (invisible) to 1 (opaque). */
  opacity: number;
  /** Text shown over the canvas while the image loads or when it fails. */
  loadingText?: string;
  errorText?: string;
  /** Label of the button that fits the whole plan into view again. */
  fitText?: string;
  /** Called with the natural size once the image has loaded. */
  onImageLoad?: (size: { width: number; height: number }) => void;
  style?: React.CSSProperties;
  className?: string;
  /** Layers drawn over the plan once it is in view (device markers); rendered with the map and the plan's size. */
  children?: (plan: FloorPlan) => ReactNode;
  /**
   * Something dragged from outside (an outmap device from a list) and dropped on the plan, with the plan
   * point under the cursor; undefined disables dropping.
   */
  onDropOnPlan?: (latLng: L.LatLng, data: DataTransfer, size: { width: number; height: number }) => void;
}

/** The loaded plan as layers over it see it. */
export interface FloorPlan {
  map: L.Map;
  size: { width: number; height: number };
}

type ImageState = 'idle' | 'loading' | 'ready' | 'failed';

/** Leaflet's flag for a zoom animation in flight (stable since 1.0, not in the type definitions). */
interface ZoomingMap extends L.Map {
  _animatingZoom?: boolean;
}

/**
 * A floor plan in plain Leaflet with CRS.Simple: one map unit is one image pixel, so the overlay is as large
 * as the image's natural size and devices can later be placed at pixel coordinates. Zoom and pan are
 * Leaflet's own. React owns only the container; Leaflet owns everything inside it.
 */
export function FloorPlanMap({
  imageUrl,
  opacity,
  loadingText,
  errorText,
  fitText,
  onImageLoad,
  style,
  className,
  children,
  onDropOnPlan,
}: FloorPlanMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const overlayRef = useRef<L.ImageOverlay | null>(null);
  const opacityRef = useRef(opacity);
  const onLoadRef = useRef(onImageLoad);
  /** The plan's bounds, and whether the view still shows them as fitted (the user has not zoomed or panned). */
  const boundsRef = useRef<L.LatLngBounds | null>(null);
  const fittedRef = useRef(false);
  const fittingRef = useRef(false);
  const [state, setState] = useState<ImageState>('idle');
  const [plan, setPlan] = useState<FloorPlan>();

  useEffect(() => {
    onLoadRef.current = onImageLoad;
  }, [onImageLoad]);

  /** Shows the whole plan; zooming out stops two steps beyond that, where the plan would be a speck. */
  const fit = (map: L.Map, bounds: L.LatLngBounds) => {
    fittingRef.current = true;
    try {
      map.setMinZoom(-20);
      map.fitBounds(bounds, { animate: false });
      map.setMinZoom(map.getZoom() - 2);
    } finally {
      fittingRef.current = false;
    }
    fittedRef.current = true;
  };

  // The map lives as long as the component; StrictMode's double mount gets a fresh one each time.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, {
      crs: L.CRS.Simple,
      minZoom: -6,
      maxZoom: 4,
      zoomSnap: 0.25,
      zoomDelta: 0.5,
      attributionControl: false,
      zoomControl: true,
    });
    map.setView([0, 0], 0);
    mapRef.current = map;
    // Once the user zooms or pans, the view is theirs; until then it follows the container's size.
    const userMoved = () => {
      if (!fittingRef.current) fittedRef.current = false;
    };
    map.on('zoomstart dragstart', userMoved);
    // The page layout (data arriving, the side menu collapsing, the window resizing) changes the size.
    const observer = new ResizeObserver(() => {
      map.invalidateSize({ pan: false });
      if (fittedRef.current && boundsRef.current) fit(map, boundsRef.current);
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      overlayRef.current = null;
      mapRef.current = null;
      setPlan(undefined);
      map.remove();
    };
  }, []);

  // A new image: measure it first, then size the overlay to its natural pixels and fit the view.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    overlayRef.current?.remove();
    overlayRef.current = null;
    boundsRef.current = null;
    fittedRef.current = false;
    setPlan(undefined);
    map.setMaxBounds(undefined);
    if (!imageUrl) {
      setState('idle');
      return;
    }
    let cancelled = false;
    setState('loading');
    const probe = new Image();
    probe.onload = () => {
      if (cancelled || !mapRef.current) return;
      const size = { width: probe.naturalWidth, height: probe.naturalHeight };
      const bounds = L.latLngBounds(imageBounds(size));
      const overlay = L.imageOverlay(imageUrl, bounds, { opacity: opacityRef.current, className: 'lg-floor-plan-image' });
      overlay.addTo(map);
      overlayRef.current = overlay;
      boundsRef.current = bounds;
      map.invalidateSize({ pan: false });
      fit(map, bounds);
      // Only once the plan is in view: bounds set earlier make Leaflet start an animated pan into them
      // from the old view, which lands after the fit and shifts the plan off centre.
      map.setMaxBounds(bounds.pad(0.5));
      setState('ready');
      setPlan({ map, size });
      onLoadRef.current?.(size);
    };
    probe.onerror = () => {
      if (!cancelled) setState('failed');
    };
    probe.src = imageUrl;
    return () => {
      cancelled = true;
      probe.onload = null;
      probe.onerror = null;
    };
  }, [imageUrl]);

  useEffect(() => {
    opacityRef.current = opacity;
    overlayRef.current?.setOpacity(opacity);
  }, [opacity]);

  const notice = state === 'loading' ? loadingText : state === 'failed' ? errorText : undefined;

  return (
    // Its own stacking context: Leaflet's panes and controls (z-index 400-1000) and the tools over the plan then
    // stay under the page's drawers, the phone's menu among them, instead of showing through them.
    <div className={className} style={{ position: 'relative', isolation: 'isolate', ...style }}>
      <div
        ref={containerRef}
        data-testid="floor-plan-map"
        data-state={state}
        style={{ position: 'absolute', inset: 0, background: '#f0f2f5', borderRadius: 8 }}
        onDragOver={
          onDropOnPlan && plan
            ? (event) => {
                event.preventDefault();
                event.dataTransfer.dropEffect = 'move';
              }
            : undefined
        }
        onDrop={
          onDropOnPlan && plan
            ? (event) => {
                event.preventDefault();
                onDropOnPlan(plan.map.mouseEventToLatLng(event.nativeEvent), event.dataTransfer, plan.size);
              }
            : undefined
        }
      />
      {plan && children?.(plan)}
      {fitText && state === 'ready' && (
        <button
          type="button"
          className="lg-floor-plan-fit"
          onClick={() => {
            const map = mapRef.current as ZoomingMap | null;
            const bounds = boundsRef.current;
            if (!map || !bounds) return;
            // A zoom still animating (the end of a pinch) would land after the fit and undo it: fit once it ends.
            if (map._animatingZoom) map.once('zoomend', () => fit(map, bounds));
            else fit(map, bounds);
          }}
          title={fitText}
          data-testid="floor-plan-fit"
        >
          {fitText}
        </button>
      )}
      {notice && (
        <div
          style={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            pointerEvents: 'none',
            color: 'rgba(0,0,0,0.45)',
            zIndex: 500,
          }}
        >
          {notice}
        </div>
      )}
    </div>
  );
}
