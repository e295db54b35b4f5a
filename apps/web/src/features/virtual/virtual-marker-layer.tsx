import { useEffect, useRef } from 'react';
import L from 'leaflet';
import type { VirtualDevice } from '@lumigrid/contract/browser';
import { fractionToPlan, markerKind, planToFraction } from '../../components/device-markers/marker-model.ts';
import type { FloorPlan } from '../../components/floor-plan-map.tsx';
import './virtual-markers.css';

/** The ghost a virtual device is drawn as: a dashed outline of its kind's shape with a "V" inside. */
function ghostIcon(device: VirtualDevice, selected: boolean, label: string): L.DivIcon {
  const kind = markerKind(device.type);
  const html = document.createElement('div');
  html.className = `virtual-marker virtual-marker--${kind}${selected ? ' virtual-marker--selected' : ''}`;
  html.setAttribute('data-testid', `virtual-marker-${device.id}`);
  html.setAttribute('title', `${device.name} · ${label}`);
  const glyph = document.createElement('span');
  glyph.className = 'virtual-marker__glyph';
  glyph.textContent = 'V';
  const name = document.createElement('span');
  name.className = 'virtual-marker__name';
  name.textContent = device.name;
  html.append(glyph, name);
  return L.divIcon({ html, className: 'virtual-marker-host', iconSize: [22, 22], iconAnchor: [11, 11] });
}

/**
 * The virtual devices of a map over its plan, distinct from real devices: dashed ghost outlines with a "V",
 * in DOM markers (a map holds few, so Leaflet's own dragging serves). A click selects, editors drag.
 */
export function VirtualMarkerLayer({
  plan,
  devices,
  selectedId,
  editable,
  label,
  onSelect,
  onMove,
}: {
  plan: FloorPlan;
  devices: readonly VirtualDevice[];
  selectedId: string | undefined;
  editable: boolean;
  /** The word shown on hover after the name ("Virtual"). */
  label: string;
  onSelect: (id: string) => void;
  onMove: (id: string, position: { x: number; y: number }) => void;
}) {
  const latest = useRef({ onSelect, onMove });
  useEffect(() => {
    latest.current = { onSelect, onMove };
  });

  useEffect(() => {
    const layer = L.layerGroup().addTo(plan.map);
    for (const device of devices) {
      if (device.x === null || device.y === null) continue;
      const marker = L.marker(fractionToPlan({ x: device.x, y: device.y }, plan.size), {
        icon: ghostIcon(device, device.id === selectedId, label),
        draggable: editable,
        keyboard: true,
        zIndexOffset: 1000,
      });
      marker.on('click', (e) => {
        L.DomEvent.stopPropagation(e);
        latest.current.onSelect(device.id);
      });
      marker.on('dragend', () => latest.current.onMove(device.id, planToFraction(marker.getLatLng(), plan.size)));
      marker.addTo(layer);
    }
    return () => {
      layer.remove();
    };
  }, [plan, devices, selectedId, editable, label]);

  return null;
}
