import { useEffect, useMemo, useRef } from 'react';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EmergencyMapCategory, EmergencyMapLight } from '@lumigrid/contract/browser';
import { CanvasMarkerLayer } from '../../components/device-markers/canvas-marker-layer.ts';
import { MarkerSwatch } from '../../components/device-markers/marker-swatch.tsx';
import { usePlanMarkerLayer } from '../../components/device-markers/use-plan-marker-layer.ts';
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
  const items = useMemo(
    () =>
      emergencyPlanMarkers(lights, plan.size, (light) =>
        [t(`emergency.category.${light.category}`), light.state === null ? undefined : stateText(t, light.state)]
          .filter(Boolean)
          .join(' · '),
      ),
    [lights, plan.size, t],
  );
  const latest = useRef({ onSelect, onDeselect });
  useEffect(() => {
    latest.current = { onSelect, onDeselect };
  });

  usePlanMarkerLayer(
    plan,
    items,
    selectedId,
    () =>
      new CanvasMarkerLayer({
        onClick: (id) => latest.current.onSelect(id),
        onBackgroundClick: () => latest.current.onDeselect(),
      }),
  );
  return null;
}

/** One legend swatch of the emergency map. */
function Swatch({ category }: { category: EmergencyMapCategory }) {
  const style = emergencyMarkerStyle(category);
  return <MarkerSwatch shape={style.shape} style={style} size={24} />;
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
