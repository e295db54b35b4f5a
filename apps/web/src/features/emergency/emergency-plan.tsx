import { useEffect, useMemo, useRef } from 'react';
import L from 'leaflet';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EmergencyMapCategory, EmergencyMapLight } from '@lumigrid/contract/browser';
import { CanvasMarkerLayer } from '../../components/device-markers/canvas-marker-layer.ts';
import { MARKER_RADIUS, traceShape } from '../../components/device-markers/marker-model.ts';
import { imageBounds } from '../../components/floor-plan-bounds.ts';
import type { FloorPlan } from '../../components/floor-plan-map.tsx';
import { stateText } from './texts.ts';
import { EMERGENCY_LEGEND, emergencyMarkerStyle, emergencyPlanMarkers } from './emergency-markers.ts';

/** The emergency lights of a map on the floor plan's canvas, coloured by emergency state; a click selects one. */
export function EmergencyMarkerLayer({
  plan,
  lights,
  selectedId,
  onSelect,
  onDeselect,
}: {
  plan: FloorPlan;
  lights: readonly EmergencyMapLight[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  onDeselect: () => void;
}) {
  const { t } = useTranslation();
  const layerRef = useRef<CanvasMarkerLayer | null>(null);
  const items = useMemo(
    () =>
      emergencyPlanMarkers(lights, plan.size, (light) =>
        [t(`emergency.category.${light.category}`), light.state === null ? undefined : stateText(t, light.state)]
          .filter(Boolean)
          .join(' · '),
      ),
    [lights, plan.size, t],
  );
  const latest = useRef({ onSelect, onDeselect, items, selectedId });
  useEffect(() => {
    latest.current = { onSelect, onDeselect, items, selectedId };
  });

  useEffect(() => {
    const layer = new CanvasMarkerLayer({
      onClick: (id) => latest.current.onSelect(id),
      onBackgroundClick: () => latest.current.onDeselect(),
    });
    layer.setSelected(latest.current.selectedId);
    layer.setMarkers(latest.current.items);
    layer.addTo(plan.map);
    layer.setPlanBounds(L.latLngBounds(imageBounds(plan.size)));
    layerRef.current = layer;
    return () => {
      layer.remove();
      layerRef.current = null;
    };
    // The layer belongs to this map.
  }, [plan.map]);

  useEffect(() => {
    layerRef.current?.setMarkers(items);
  }, [items]);
  useEffect(() => {
    layerRef.current?.setSelected(selectedId);
  }, [selectedId]);
  return null;
}

/** One legend swatch, drawn by the plan's own shape code so the two never disagree. */
function Swatch({ category }: { category: EmergencyMapCategory }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const style = emergencyMarkerStyle(category);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = 24 * ratio;
    canvas.height = 24 * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, 24, 24);
    traceShape(ctx, style.shape, 12, 12, MARKER_RADIUS);
    ctx.fillStyle = style.fill;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.setLineDash(style.dashed ? [3, 2] : []);
    ctx.strokeStyle = style.stroke;
    ctx.stroke();
  }, [category]);
  return <canvas ref={ref} style={{ width: 24, height: 24, verticalAlign: 'middle' }} aria-hidden />;
}

/** What the emergency map's colours mean, with how many lights of the map show each. */
export function EmergencyLegend({ counts }: { counts: Record<EmergencyMapCategory, number> }) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 16px', marginTop: 10, alignItems: 'center' }} data-testid="emergency-legend">
      {EMERGENCY_LEGEND.map((category) => (
        <span key={category} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }} data-testid={`emergency-legend-${category}`}>
          <Swatch category={category} />
          <Typography.Text>{t(`emergency.category.${category}`)}</Typography.Text>
          <Typography.Text type="secondary" data-testid={`emergency-count-${category}`}>
            ({counts[category]})
          </Typography.Text>
        </span>
      ))}
    </div>
  );
}
