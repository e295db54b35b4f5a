import { describe, expect, it } from 'vitest';
import { partZones, runZones } from './zones.ts';

const part = (gatewayId: string, timezone: string) => ({ gatewayId, timezone });

describe('times in the gateways’ zones', () => {
  it('names each zone of a scene once', () => {
    expect(partZones([part('1', 'Asia/Tokyo'), part('2', 'Asia/Tokyo'), part('3', 'UTC')])).toEqual(['Asia/Tokyo', 'UTC']);
  });

  it('shows a run in the zones of the gateways it went to, else the scene’s, else the browser’s', () => {
    const parts = [part('1', 'Asia/Tokyo'), part('2', 'Europe/Paris')];
    expect(runZones({ parts: [{ gatewayId: '2', gatewayName: 'B', code: 0, targets: 1, failed: 0 }] }, parts)).toEqual(['Europe/Paris']);
    expect(runZones({ parts: [{ gatewayId: '9', gatewayName: 'Gone', code: 0, targets: 1, failed: 0 }] }, parts)).toEqual([
      'Asia/Tokyo',
      'Europe/Paris',
    ]);
    expect(runZones({ parts: [] }, [])).toHaveLength(1);
  });
});
