import { describe, expect, it } from 'vitest';
import { imageBounds, opacityPercent } from './floor-plan-bounds.ts';

describe('floor plan geometry', () => {
  it('spans the image in natural pixels, y upwards from the bottom-left corner', () => {
    expect(imageBounds({ width: 1600, height: 900 })).toEqual([
      [0, 0],
      [900, 1600],
    ]);
  });

  it('shows opacity in whole percent', () => {
    expect(opacityPercent(0.456)).toBe(46);
    expect(opacityPercent(2)).toBe(100);
    expect(opacityPercent(undefined)).toBe(100);
  });
});
