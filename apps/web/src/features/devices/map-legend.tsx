import type { ReactNode } from 'react';
import { Button } from 'antd';
import { Text } from '../../components/text.tsx';
import { useTranslation } from 'react-i18next';
import {
  LEGEND_KINDS,
  LEGEND_STATES,
  KIND_SHAPE,
  SHOW_ALL,
  filtersAnything,
  toggleFilter,
  type PlanFilter,
  gatewayStyle,
  markerStyle,
  HAND_BADGE_FILL,
} from '../../components/device-markers/marker-model.ts';
import type { DisplayState } from '@lumigrid/contract/browser';
import { usePhone } from '../../components/use-phone.ts';
import { MarkerSwatch } from '../../components/device-markers/marker-swatch.tsx';

export interface MapLegendProps {
  /** Devices placed on the plan, and how many of them the filter lets through. */
  count: number;
  shown: number;
  filter: PlanFilter;
  onFilter: (filter: PlanFilter) => void;
}

/**
 * A light in each display state, then each kind's shape: what the plan's colours and shapes mean. Each entry
 * is also a switch: a click hides or shows those markers, Ctrl+click shows only them.
 */
export function MapLegend({ count, shown, filter, onFilter }: MapLegendProps) {
  const { t } = useTranslation();
  const phone = usePhone();
  const light = 1;
  const entry = (key: string, hidden: boolean, swatch: ReactNode, label: string, toggle: (only: boolean) => void) => (
    <Button
      key={key}
      type="text"
      size="small"
      aria-pressed={!hidden}
      title={t('deviceControl.legendHint')}
      onClick={(event) => toggle(event.ctrlKey || event.metaKey)}
      // A phone: tall enough, and far enough from the next row, for a finger.
      style={{ opacity: hidden ? 0.4 : 1, paddingInline: 4, height: phone ? 40 : 28 }}
      data-testid={`legend-${key}`}
    >
      {swatch}
      <span style={{ textDecoration: hidden ? 'line-through' : undefined }}>{label}</span>
    </Button>
  );
  return (
    <div
      style={{ display: 'flex', flexWrap: 'wrap', gap: phone ? 8 : '2px 8px', marginTop: 10, alignItems: 'center' }}
      data-testid="map-legend"
    >
      <Text type="secondary" style={{ marginRight: 8 }}>
        {filtersAnything(filter) ? t('deviceControl.countFiltered', { shown, count }) : t('deviceControl.count', { count })}
      </Text>
      {LEGEND_STATES.map((state: DisplayState) =>
        entry(
          state,
          filter.states.has(state),
          <MarkerSwatch shape="circle" style={markerStyle(light, state)} size={26} />,
          t(`deviceControl.display.${state}`),
          (only) => onFilter({ ...filter, states: toggleFilter(filter.states, LEGEND_STATES, state, only) }),
        ),
      )}
      {LEGEND_KINDS.map((kind) =>
        entry(
          kind,
          filter.kinds.has(kind),
          <MarkerSwatch
            shape={KIND_SHAPE[kind]}
            style={kind === 'gateway' ? gatewayStyle(true) : { ...markerStyle(light, 'off'), fill: '#d9d9d9' }}
            size={26}
          />,
          t(`deviceControl.kinds.${kind}`),
          (only) => onFilter({ ...filter, kinds: toggleFilter(filter.kinds, LEGEND_KINDS, kind, only) }),
        ),
      )}
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, paddingInline: 4 }} data-testid="legend-manual">
        <span
          aria-hidden
          style={{ width: 9, height: 9, borderRadius: 5, background: HAND_BADGE_FILL, boxShadow: '0 0 0 1.5px #fff, 0 0 0 2.5px #d9d9d9' }}
        />
        <Text>{t('automation.auto.byHand')}</Text>
      </span>
      {filtersAnything(filter) && (
        <Button type="link" size="small" onClick={() => onFilter(SHOW_ALL)} data-testid="legend-show-all">
          {t('deviceControl.showAll')}
        </Button>
      )}
    </div>
  );
}
