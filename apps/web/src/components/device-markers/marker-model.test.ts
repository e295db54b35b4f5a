import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES, DEVICE_TYPE_CODE_LIST, DISPLAY_STATES, type DisplayState } from '@lumigrid/contract/browser';
import {
  DISPLAY_FILL,
  HIT_RADIUS,
  fractionToPlan,
  HAND_BADGE_FILL,
  paintBadge,
  paintMarker,
  gatewayStyle,
  hitTest,
  LEGEND_KINDS,
  LEGEND_STATES,
  SHOW_ALL,
  markerKind,
  markerLabel,
  passesFilter,
  toggleFilter,
  markerStyle,
  placeLabels,
  planToFraction,
  type DrawnPoint,
  type MarkerKind,
} from './marker-model.ts';

describe('marker model: display state to colour, kind to shape', () => {
  it('gives each display state of spec section 4 its own fill, and only offline a dashed outline', () => {
    const fills = DISPLAY_STATES.map((state) => markerStyle(DEVICE_TYPE_CODES['light-dimmer'], state).fill);
    expect(new Set(fills).size).toBe(DISPLAY_STATES.length);
    expect(markerStyle(DEVICE_TYPE_CODES['light-dimmer'], 'failure').fill).toBe(DISPLAY_FILL.failure);
    expect(DISPLAY_STATES.filter((state) => markerStyle(DEVICE_TYPE_CODES['light-cct'], state).dashed)).toEqual(['offline']);
  });

  it('draws each family with the shape of its kind', () => {
    const shape = (kind: keyof typeof DEVICE_TYPE_CODES) => markerStyle(DEVICE_TYPE_CODES[kind], 'off').shape;
    expect(shape('light-rgb')).toBe('circle');
    expect(shape('switch-4')).toBe('square');
    expect(shape('curtain')).toBe('triangle');
    expect(shape('sensor-motion')).toBe('diamond');
    expect(shape('bridge-wisun')).toBe('hexagon');
    expect(shape('super-gateway')).toBe('hexagon');
    expect(shape('emergency-dimmable')).toBe('cross');
    expect(markerKind(DEVICE_TYPE_CODES['panel-smart'])).toBe('panel');
    // Every known code has a kind; an unknown one still draws (as a light) rather than vanish.
    for (const code of DEVICE_TYPE_CODE_LIST) expect(markerKind(code)).toBeTruthy();
    expect(markerKind(9999)).toBe('light');
  });

  it('shows an offline gateway hollow and dashed, an online one filled', () => {
    expect(gatewayStyle(true)).toMatchObject({ shape: 'gateway', dashed: false });
    expect(gatewayStyle(false)).toMatchObject({ fill: '#ffffff', dashed: true });
  });
});

describe('marker model: positions on the plan', () => {
  const size = { width: 2000, height: 1000 };

  it('turns stored fractions (from the top-left) into CRS.Simple [lat, lng] and back', () => {
    expect(fractionToPlan({ x: 0, y: 0 }, size)).toEqual([1000, 0]);
    expect(fractionToPlan({ x: 1, y: 1 }, size)).toEqual([0, 2000]);
    expect(fractionToPlan({ x: 0.25, y: 0.5 }, size)).toEqual([500, 500]);
    expect(planToFraction({ lat: 500, lng: 500 }, size)).toEqual({ x: 0.25, y: 0.5 });
    const back = planToFraction({ lat: fractionToPlan({ x: 0.123457, y: 0.654321 }, size)[0], lng: 246.914 }, size);
    expect(back).toEqual({ x: 0.123457, y: 0.654321 });
  });

  it('clamps a drop beyond the plan to its edge', () => {
    expect(planToFraction({ lat: -40, lng: 2500 }, size)).toEqual({ x: 1, y: 1 });
    expect(planToFraction({ lat: 1200, lng: -3 }, size)).toEqual({ x: 0, y: 0 });
  });
});

describe('marker model: hit-testing', () => {
  const points = [
    { id: 'a', x: 100, y: 100 },
    { id: 'b', x: 105, y: 100 },
    { id: 'c', x: 300, y: 200 },
  ];

  it('finds the topmost (last drawn) marker under the pointer', () => {
    expect(hitTest(points, 102, 101)?.id).toBe('b');
    expect(hitTest(points, 300, 200)?.id).toBe('c');
  });

  it('hits within the hit radius and misses beyond it', () => {
    expect(hitTest(points, 300 + HIT_RADIUS, 200)?.id).toBe('c');
    expect(hitTest(points, 300 + HIT_RADIUS + 1, 200)).toBeUndefined();
    expect(hitTest([], 0, 0)).toBeUndefined();
  });
});

/** A 2D context that records what was filled with which colour. */
function recordingContext() {
  const fills: string[] = [];
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    beginPath() {},
    closePath() {},
    arc() {},
    rect() {},
    roundRect() {},
    moveTo() {},
    lineTo() {},
    setLineDash() {},
    stroke() {},
    fill() {
      fills.push(String(this.fillStyle));
    },
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, fills };
}

describe('marker model: painting one marker (what each sprite holds)', () => {
  it("paints a marker with its display state's fill, and a selected one over a halo", () => {
    const { ctx, fills } = recordingContext();
    paintMarker(ctx, markerStyle(DEVICE_TYPE_CODES['light-single'], 'onFull'), 10, 10, false);
    expect(fills).toEqual([DISPLAY_FILL.onFull]);
    const selected = recordingContext();
    paintMarker(selected.ctx, markerStyle(DEVICE_TYPE_CODES.curtain, 'failure'), 50, 60, true);
    expect(selected.fills).toEqual(['rgba(22, 119, 255, 0.25)', DISPLAY_FILL.failure]);
  });

  it('paints the hand badge in its own colour', () => {
    const { ctx, fills } = recordingContext();
    paintBadge(ctx, 10, 10);
    expect(fills).toEqual([HAND_BADGE_FILL]);
  });

  it('gives one style object per kind and state, so sprites are found by the object', () => {
    expect(markerStyle(DEVICE_TYPE_CODES['light-cct'], 'off')).toBe(markerStyle(DEVICE_TYPE_CODES['light-cct'], 'off'));
    expect(markerStyle(DEVICE_TYPE_CODES['light-cct'], 'off')).not.toBe(markerStyle(DEVICE_TYPE_CODES['light-cct'], 'onFull'));
    expect(gatewayStyle(false)).toBe(gatewayStyle(false));
  });
});

describe('marker model: names on the plan', () => {
  it('names a switch by its channels, each once', () => {
    expect(markerLabel('Hall')).toBe('Hall');
    expect(markerLabel('Left|Right')).toBe('Left / Right');
    expect(markerLabel('Hall|Hall|Hall')).toBe('Hall');
  });

  it('writes a name under its marker when it overlaps no marker and no other name', () => {
    const width = () => 60;
    const far = placeLabels(
      [
        { id: 'a', x: 100, y: 100 },
        { id: 'b', x: 300, y: 100 },
      ],
      width,
    );
    expect(far.map((l) => l.id)).toEqual(['a', 'b']);
    expect(far[0]).toMatchObject({ x: 70, width: 60 });
    expect(far[0]!.y).toBeGreaterThan(100);
    const labelled = (points: DrawnPoint[]) => placeLabels(points, width).map((l) => l.id);
    // Close neighbours side by side: the second name would cover the first.
    expect(
      labelled([
        { id: 'a', x: 100, y: 100 },
        { id: 'b', x: 130, y: 100 },
      ]),
    ).toEqual(['a']);
    // A marker right under another: the upper name would sit on the lower marker; the lower one's name fits.
    expect(
      labelled([
        { id: 'a', x: 100, y: 100 },
        { id: 'b', x: 100, y: 118 },
      ]),
    ).toEqual(['b']);
    // No text, no label.
    expect(placeLabels([{ id: 'a', x: 100, y: 100 }], () => 0)).toEqual([]);
  });

  it('places more names as markers spread apart (zooming in), across the cells of its index', () => {
    const grid = (spacing: number) =>
      Array.from({ length: 400 }, (_, i) => ({ id: String(i), x: (i % 20) * spacing, y: Math.floor(i / 20) * spacing }));
    const counts = [20, 40, 80, 160].map((spacing) => placeLabels(grid(spacing), () => 70).length);
    // Packed tight, only some of the bottom row has room below it.
    expect(counts[0]).toBeLessThan(20);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts[3]).toBe(400);
  });
});

describe('marker model: the legend as a filter', () => {
  it('hides and shows an entry with a plain click', () => {
    const hidden = toggleFilter(new Set<DisplayState>(), LEGEND_STATES, 'off', false);
    expect([...hidden]).toEqual(['off']);
    expect([...toggleFilter(hidden, LEGEND_STATES, 'off', false)]).toEqual([]);
  });

  it('shows only one entry with Ctrl, and everything again with a second Ctrl-click', () => {
    const onlyFailures = toggleFilter(new Set<DisplayState>(), LEGEND_STATES, 'failure', true);
    expect(LEGEND_STATES.filter((state) => !onlyFailures.has(state))).toEqual(['failure']);
    expect(toggleFilter(onlyFailures, LEGEND_STATES, 'failure', true).size).toBe(0);
    // From one isolated entry to another.
    const onlyOff = toggleFilter(onlyFailures, LEGEND_STATES, 'off', true);
    expect(LEGEND_STATES.filter((state) => !onlyOff.has(state))).toEqual(['off']);
  });

  it('keeps a device when neither its state nor its kind is hidden', () => {
    const sensor = DEVICE_TYPE_CODES['sensor-motion'];
    const light = DEVICE_TYPE_CODES['light-dimmer'];
    expect(passesFilter(SHOW_ALL, sensor, 'working')).toBe(true);
    const onlySensors = { states: new Set<never>(), kinds: toggleFilter(new Set<MarkerKind>(), LEGEND_KINDS, 'sensor', true) };
    expect(passesFilter(onlySensors, sensor, 'working')).toBe(true);
    expect(passesFilter(onlySensors, light, 'onFull')).toBe(false);
    const noFailures = { states: new Set(['failure'] as const), kinds: new Set<never>() };
    expect(passesFilter(noFailures, light, 'failure')).toBe(false);
    expect(passesFilter(noFailures, light, 'off')).toBe(true);
  });
});
