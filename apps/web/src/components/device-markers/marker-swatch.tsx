import { useEffect, useRef } from 'react';
import { MARKER_RADIUS, traceShape, type MarkerShape, type MarkerStyle } from './marker-model.ts';

/** A legend swatch, drawn with the plan's own shape code so a legend never disagrees with the plan. */
export function MarkerSwatch({ shape, style, size }: { shape: MarkerShape; style: MarkerStyle; size: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = size * ratio;
    canvas.height = size * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, size, size);
    traceShape(ctx, shape, size / 2, size / 2, MARKER_RADIUS);
    ctx.fillStyle = style.fill;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.setLineDash(style.dashed ? [3, 2] : []);
    ctx.strokeStyle = style.stroke;
    ctx.stroke();
  }, [shape, style, size]);
  return <canvas ref={ref} style={{ width: size, height: size, verticalAlign: 'middle' }} aria-hidden />;
}
