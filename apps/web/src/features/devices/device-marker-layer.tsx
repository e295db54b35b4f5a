import { useEffect, useMemo, useRef } from 'react';
import L from 'leaflet';
import { useTranslation } from 'react-i18next';
import type { DeviceMarker, Gateway } from '@lumigrid/contract/browser';
import { markerKind, planToFraction } from '../../components/device-markers/marker-model.ts';
import { planMarkers, type MarkerHints } from './plan-markers.ts';
import { presenceOf } from '../gateways/status.ts';
import type { FloorPlan } from '../../components/floor-plan-map.tsx';
import { CanvasMarkerLayer } from '../../components/device-markers/canvas-marker-layer.ts';
import { usePlanLasso } from './plan-lasso.ts';
import { usePlanMarkerLayer } from '../../components/device-markers/use-plan-marker-layer.ts';

const NONE_MARKED: ReadonlySet<string> = new Set();

export interface DeviceMarkerLayerProps {
  plan: FloorPlan;
  markers: readonly DeviceMarker[];
  gateways: readonly Gateway[];
  selectedId: string | undefined;
  /** An editor: devices may be dragged. */
  editable: boolean;
  /** A marker was clicked or tapped; `additive` with the shift key held. */
  onSelect: (id: string, additive: boolean) => void;
  /** Devices selected together: drawn as selected. */
  marked?: ReadonlySet<string>;
  /** Select mode: taps add to the selection and drags draw a rectangle instead of panning. */
  selecting?: boolean;
  /** The devices inside a rectangle drawn on the plan (select mode, or shift-drag). */
  onLasso?: (ids: string[]) => void;
  /** A click on the plan away from every marker. */
  onDeselect?: () => void;
  onMove: (id: string, position: { x: number; y: number }) => void;
  /** Centre the view on this device; each new object is one request. */
  focus?: { id: string };
  /** Names under every marker at any zoom (touch screens, which have no hover to show them). */
  namesAlways?: boolean;
  /** Receives the layer, for the page's test hooks and the draw benchmark. */
  onLayer?: (layer: CanvasMarkerLayer | undefined) => void;
}

/** The devices and gateways of a map on the floor plan's canvas layer; React feeds it, Leaflet owns it. */
export function DeviceMarkerLayer({
  plan,
  markers,
  gateways,
  selectedId,
  editable,
  onSelect,
  onDeselect,
  onMove,
  focus,
  namesAlways = false,
  onLayer,
  marked = NONE_MARKED,
  selecting = false,
  onLasso,
}: DeviceMarkerLayerProps) {
  const { t } = useTranslation();
  const hints = useMemo<MarkerHints>(
    () => ({
      device: (m) =>
        [
          t(`deviceControl.kinds.${markerKind(m.type)}`),
          t(`deviceControl.display.${m.display}`),
          ...(m.manual ? [t('automation.auto.byHand')] : []),
        ].join(' · '),
      gateway: (g) => `${t('deviceControl.kinds.gateway')} · ${t(presenceOf(g).key)}`,
    }),
    [t],
  );
  const items = useMemo(() => planMarkers(markers, gateways, plan.size, hints), [markers, gateways, plan.size, hints]);
  const latest = useRef({ onSelect, onDeselect, onMove, size: plan.size, editable });
  useEffect(() => {
    latest.current = { onSelect, onDeselect, onMove, size: plan.size, editable };
  });

  const layerRef = usePlanMarkerLayer(
    plan,
    items,
    selectedId,
    () => {
      const layer = new CanvasMarkerLayer({
        onClick: (id, additive) => latest.current.onSelect(id, additive),
        onBackgroundClick: () => latest.current.onDeselect?.(),
        onDragEnd: (id, latLng: L.LatLng) => latest.current.onMove(id, planToFraction(latLng, latest.current.size)),
      });
      layer.setEditable(latest.current.editable);
      return layer;
    },
    onLayer,
  );
  // In select mode a press on a marker selects it; nothing is dragged away by accident.
  useEffect(() => {
    layerRef.current?.setEditable(editable && !selecting);
  }, [editable, selecting]);
  useEffect(() => {
    layerRef.current?.setMarked(marked);
  }, [marked]);
  usePlanLasso(plan, {
    selecting,
    markers,
    hitAt: (x, y) => layerRef.current?.hitAt(x, y),
    onLasso: (ids) => onLasso?.(ids),
  });
  useEffect(() => {
    layerRef.current?.setNamesAlways(namesAlways);
  }, [namesAlways]);
  // After the markers: a device the legend had hidden is drawn again before the view centres on it.
  const focused = useRef<{ id: string }>(undefined);
  useEffect(() => {
    if (focus && focused.current !== focus && layerRef.current?.focus(focus.id)) focused.current = focus;
  }, [focus, items]);
  return null;
}
