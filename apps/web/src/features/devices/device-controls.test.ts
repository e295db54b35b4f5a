import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES } from '@lumigrid/contract/browser';
import { channelNames, hasAnyControl, panelControls, reportedValues, switchesOnly } from './device-controls.ts';
import { gatewayMarkerId, gatewayOfMarker, planMarkers } from './plan-markers.ts';

const code = (kind: keyof typeof DEVICE_TYPE_CODES) => DEVICE_TYPE_CODES[kind];

describe('the device panel offers only what the type can do', () => {
  it('gives each family its controls', () => {
    expect(panelControls(code('light-single'))).toEqual({
      onOff: true,
      brightness: false,
      cct: false,
      rgb: false,
      curtain: false,
      channels: 0,
    });
    expect(panelControls(code('light-cct'))).toMatchObject({ onOff: true, brightness: true, cct: true, rgb: false });
    expect(panelControls(code('light-rgb'))).toMatchObject({ brightness: true, cct: false, rgb: true });
    expect(panelControls(code('curtain'))).toMatchObject({ onOff: false, curtain: true, brightness: false });
    expect(panelControls(code('switch-3'))).toMatchObject({ onOff: false, channels: 3 });
    expect(panelControls(code('emergency-dimmable'))).toMatchObject({ onOff: true, brightness: true });
    for (const kind of ['sensor-temperature', 'panel-scene6', 'bridge', 'super-gateway'] as const) {
      expect(hasAnyControl(panelControls(code(kind))), kind).toBe(false);
    }
    expect(hasAnyControl(panelControls(12345))).toBe(false);
  });

  it('reads the reported values from the status string (0-254 as percent, inverted CCT as kelvin)', () => {
    expect(reportedValues(code('light-cct'), '0:1:254:0')).toEqual({ on: true, brightness: 100, kelvin: 6500, color: undefined });
    expect(reportedValues(code('light-cct'), '0:1:127:254')).toMatchObject({ brightness: 50, kelvin: 2700 });
    expect(reportedValues(code('light-rgb'), '0:1:1:0:255:128:0')).toMatchObject({ brightness: 1, color: '#ff8000' });
    expect(reportedValues(code('curtain'), '0:0:0:0:40:1')).toEqual({ position: 40, motion: 'opening' });
    expect(reportedValues(code('switch-2'), '0:0:0:0:0:1')).toEqual({ channels: [false, true] });
    // Never reported, or unreadable: nothing is claimed.
    expect(reportedValues(code('light-cct'), '')).toEqual({});
    expect(reportedValues(code('light-cct'), 'x:y')).toEqual({});
  });

  it('says which lights switch only: single colour, and no light that dims, switch or emergency light', () => {
    expect(switchesOnly(code('light-single'))).toBe(true);
    for (const kind of ['light-dimmer', 'light-cct', 'light-rgb', 'dali', 'switch-1', 'emergency', 'curtain'] as const) {
      expect(switchesOnly(code(kind)), kind).toBe(false);
    }
  });

  it('names switch channels from the joined name', () => {
    expect(channelNames('Left|Right', 2)).toEqual(['Left', 'Right']);
    expect(channelNames('Hall', 3)).toEqual(['Hall', 'Hall', 'Hall']);
  });
});

describe('what the canvas draws for a map', () => {
  it('draws placed gateways and devices where they were put, with their names, and leaves unplaced ones off', () => {
    const size = { width: 1000, height: 500 };
    const gateway = (id: string, x: number | null, y: number | null) =>
      ({ id, name: `Gateway ${id}`, online: false, x, y }) as Parameters<typeof planMarkers>[1][number];
    const markers = planMarkers(
      [
        { id: '1', name: 'Left|Right', type: code('switch-2'), status: '', display: 'offline', manual: true, x: 0.5, y: 0.5 },
        { id: '2', name: 'B', type: code('curtain'), status: '', display: 'off', manual: false, x: null, y: null },
      ],
      [gateway('7', 0.1, 0.2), gateway('8', null, null)],
      size,
      { device: (m) => `device ${m.id}`, gateway: (g) => `gateway ${g.id}` },
    );
    expect(markers.map((m) => [m.id, m.draggable, m.label, m.hint?.()])).toEqual([
      [gatewayMarkerId('7'), true, 'Gateway 7', 'gateway 7'],
      ['1', true, 'Left / Right', 'device 1'],
    ]);
    // Switched by hand: the canvas badges it.
    expect(markers.map((m) => m.manual)).toEqual([undefined, true]);
    expect(markers[0]?.latLng).toEqual([400, 100]);
    expect(markers[1]?.latLng).toEqual([250, 500]);
    expect(gatewayOfMarker(markers[0]!.id)).toBe('7');
    expect(gatewayOfMarker('1')).toBeUndefined();
  });
});
