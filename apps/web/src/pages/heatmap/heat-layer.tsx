import { useEffect, useRef } from 'react';
import L from 'leaflet';
import simpleheat from 'simpleheat';
import type { HeatLevel, HeatSensor } from '@lumigrid/contract/browser';
import { fractionToPlan } from '../../components/device-markers/marker-model.ts';
import type { FloorPlan } from '../../components/floor-plan-map.tsx';
import { heatGradient } from './heatmap-model.ts';

/** A sensor's warmth spreads this far, as a fraction of the plan's width (about a room on an office floor). */
const REACH = 0.085;

/**
 * The heat of the sensors as a Leaflet layer: a canvas over the map, drawn by simpleheat after every move and
 * zoom with the radius in plan pixels, so the warmth keeps its size on the floor plan at any zoom. Each sensor
 * weighs its percentage of the most active one; the colours are the project's levels.
 */
class HeatCanvasLayer extends L.Layer {
  private canvas: HTMLCanvasElement | undefined;
  private heat: simpleheat.Instance | undefined;

  constructor(
    private readonly size: { width: number; height: number },
    private sensors: readonly HeatSensor[],
    private levels: readonly HeatLevel[],
  ) {
    super({ pane: 'heatPane' });
  }

  override onAdd(map: L.Map): this {
    const pane = map.getPane('heatPane') ?? map.createPane('heatPane');
    pane.style.zIndex = '450';
    pane.style.pointerEvents = 'none';
    this.canvas = L.DomUtil.create('canvas', 'lg-heat-layer leaflet-zoom-hide', pane);
    this.canvas.dataset.testid = 'heat-layer';
    this.heat = simpleheat(this.canvas);
    map.on('moveend zoomend resize', this.redraw, this);
    this.redraw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize', this.redraw, this);
    this.canvas?.remove();
    this.canvas = undefined;
    this.heat = undefined;
    return this;
  }

  update(sensors: readonly HeatSensor[], levels: readonly HeatLevel[]) {
    this.sensors = sensors;
    this.levels = levels;
    this.redraw();
  }

  private redraw() {
    const map = this._map as L.Map | undefined;
    if (!map || !this.canvas || !this.heat) return;
    const viewport = map.getSize();
    this.canvas.width = viewport.x;
    this.canvas.height = viewport.y;
    L.DomUtil.setPosition(this.canvas, map.containerPointToLayerPoint([0, 0]));
    // CRS.Simple: one plan pixel is 2^zoom screen pixels.
    const radius = Math.max(4, REACH * this.size.width * map.getZoomScale(map.getZoom(), 0));
    const points = this.sensors
      .filter((s) => s.count > 0)
      .map((s): [number, number, number] => {
        const at = map.latLngToContainerPoint(fractionToPlan(s, this.size));
        return [at.x, at.y, s.percent];
      });
    this.heat.resize();
    this.heat
      .data(points)
      .max(100)
      .radius(radius * 0.6, radius * 0.5)
      .gradient(heatGradient(this.levels))
      .draw(0.08);
    this.canvas.dataset.points = String(points.length);
  }
}

/** The heat layer of the heatmap page over a loaded floor plan; React feeds it, Leaflet owns it. */
export function HeatLayer({ plan, sensors, levels }: { plan: FloorPlan; sensors: readonly HeatSensor[]; levels: readonly HeatLevel[] }) {
  const layerRef = useRef<HeatCanvasLayer>(undefined);

  useEffect(() => {
    const layer = new HeatCanvasLayer(plan.size, [], []);
    layer.addTo(plan.map);
    layerRef.current = layer;
    return () => {
      layer.remove();
      layerRef.current = undefined;
    };
  }, [plan]);

  useEffect(() => layerRef.current?.update(sensors, levels), [plan, sensors, levels]);

  return null;
}

/**
 * The sensors themselves over the heat: a dot each, coloured by its level, named with its activations in a
 * tooltip; a click picks it for the week grid.
 */
export function SensorDots({
  plan,
  sensors,
  colorOf,
  tooltipOf,
  onPick,
}: {
  plan: FloorPlan;
  sensors: readonly HeatSensor[];
  colorOf: (sensor: HeatSensor) => string;
  tooltipOf: (sensor: HeatSensor) => string;
  onPick?: (sensor: HeatSensor) => void;
}) {
  const pickRef = useRef(onPick);
  useEffect(() => {
    pickRef.current = onPick;
  }, [onPick]);

  useEffect(() => {
    const group = L.layerGroup().addTo(plan.map);
    for (const sensor of sensors) {
      const dot = L.circleMarker(fractionToPlan(sensor, plan.size), {
        pane: 'markerPane',
        radius: 7,
        weight: 2,
        color: '#ffffff',
        fillColor: colorOf(sensor),
        fillOpacity: 1,
      });
      dot.bindTooltip(tooltipOf(sensor), { direction: 'top', offset: [0, -6] });
      dot.on('click', () => pickRef.current?.(sensor));
      dot.addTo(group);
    }
    return () => {
      group.remove();
    };
  }, [plan, sensors, colorOf, tooltipOf]);

  return null;
}
