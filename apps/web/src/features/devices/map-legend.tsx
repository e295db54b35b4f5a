import { useEffect, useRef } from 'react';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  LEGEND_KINDS,
  LEGEND_STATES,
  KIND_SHAPE,
  gatewayStyle,
  markerStyle,
  traceShape,
  MARKER_RADIUS,
  type MarkerShape,
  type MarkerStyle,
} from '../../components/device-markers/marker-model.ts';
import type { DisplayState } from '@lumigrid/contract';

/** One legend swatch, drawn with the same code as the plan so the legend never disagrees with it. */
function Swatch({ shape, style }: { shape: MarkerShape; style: MarkerStyle }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = 26 * ratio;
    canvas.height = 26 * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, 26, 26);
    traceShape(ctx, shape, 13, 13, MARKER_RADIUS);
    ctx.fillStyle = style.fill;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.setLineDash(style.dashed ? [3, 2] : []);
    ctx.strokeStyle = style.stroke;
    ctx.stroke();
  }, [shape, style]);
  return <canvas ref={ref} style={{ width: 26, height: 26, verticalAlign: 'middle' }} aria-hidden />;
}

/** A light in each display state, then each kind's shape: what the plan's colours and shapes mean. */
export function MapLegend({ count }: { count: number }) {
  const { t } = useTranslation();
  const light = 1;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 20px', marginTop: 10, alignItems: 'center' }} data-testid="map-legend">
      <Typography.Text type="secondary">{t('deviceControl.count', { count })}</Typography.Text>
      {LEGEND_STATES.map((state: DisplayState) => (
        <Space key={state} size={4}>
          <Swatch shape="circle" style={markerStyle(light, state)} />
          <Typography.Text>{t(`deviceControl.display.${state}`)}</Typography.Text>
        </Space>
      ))}
      {LEGEND_KINDS.map((kind) => (
        <Space key={kind} size={4}>
          <Swatch
            shape={KIND_SHAPE[kind]}
            style={kind === 'gateway' ? gatewayStyle(true) : { ...markerStyle(light, 'off'), fill: '#d9d9d9' }}
          />
          <Typography.Text type="secondary">{t(`deviceControl.kinds.${kind}`)}</Typography.Text>
        </Space>
      ))}
    </div>
  );
}
