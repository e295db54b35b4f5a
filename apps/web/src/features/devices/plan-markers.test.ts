import { describe, expect, it } from 'vitest';
import { DEVICE_TYPE_CODES, type DeviceMarker } from '@lumigrid/contract/browser';
import { planMarkers, type MarkerHints } from './plan-markers.ts';

const device = (id: string, display: DeviceMarker['display'] = 'off'): DeviceMarker => ({
  id,
  name: `Light ${id}`,
  type: DEVICE_TYPE_CODES['light-single'],
  status: '',
  display,
  manual: false,
  x: 0.25,
  y: 0.5,
});

describe('plan markers: a report batch rebuilds only what it carried', () => {
  it('keeps the canvas marker of every device object it has seen, and builds new ones for replaced objects', () => {
    const size = { width: 400, height: 200 };
    let hinted = 0;
    const hints: MarkerHints = { device: (m) => `${++hinted} ${m.display}`, gateway: () => '' };
    const feed = [device('1'), device('2'), device('3')];
    const first = planMarkers(feed, [], size, hints);
    const batch = [feed[0]!, device('2', 'onFull'), feed[2]!];
    const second = planMarkers(batch, [], size, hints);
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
    expect(second[1]).not.toBe(first[1]);
    // The hover's text is written when a hover shows it, not for every marker drawn.
    expect(hinted).toBe(0);
    expect(second[1]?.hint?.()).toBe('1 onFull');
    expect(first[1]?.hint?.()).toBe('2 off');
  });

  it('builds again for another plan size or other hints (a new language)', () => {
    const feed = [device('1')];
    const hints: MarkerHints = { device: () => 'en', gateway: () => '' };
    const a = planMarkers(feed, [], { width: 400, height: 200 }, hints);
    const b = planMarkers(feed, [], { width: 800, height: 200 }, hints);
    expect(b[0]).not.toBe(a[0]);
    expect(b[0]?.latLng).toEqual([100, 200]);
    const c = planMarkers(feed, [], { width: 800, height: 200 }, { device: () => 'ja', gateway: () => '' });
    expect(c[0]?.hint?.()).toBe('ja');
  });
});
