import { describe, expect, it } from 'vitest';
import { autoOutcome } from './auto.ts';

describe('autoOutcome', () => {
  it('counts the released devices and names the gateways that did not take the hand-back', () => {
    expect(
      autoOutcome({
        released: 3,
        parts: [
          { gatewayId: '1', gatewayName: 'Floor', code: 0 },
          { gatewayId: '2', gatewayName: 'Roof', code: 100101 },
          { gatewayId: '3', gatewayName: 'Cellar', code: 310003 },
        ],
      }),
    ).toEqual({ released: 3, offline: ['Roof'], refused: [{ gatewayName: 'Cellar', code: 310003 }] });
  });
});
