import { describe, expect, it } from 'vitest';
import { NEW_WALK, afterPlaced, afterSkipped, placingStep, placingWalkUrl } from './placing-walk.ts';

const devices = (...ids: string[]) => ids.map((id) => ({ id, name: `Light ${id}` }));

describe('the placing walk', () => {
  it('starts with the first waiting device and counts every device', () => {
    expect(placingStep(devices('a', 'b', 'c'), NEW_WALK)).toEqual({ current: { id: 'a', name: 'Light a' }, number: 1, total: 3 });
  });

  it('moves on at once when a device is placed, before the server list drops it, and keeps counting it', () => {
    const walk = afterPlaced(NEW_WALK, 'a');
    // The outmap list as it was: "a" is still in it until it is read again.
    expect(placingStep(devices('a', 'b', 'c'), walk)).toMatchObject({ current: { id: 'b' }, number: 2, total: 3 });
    // Read again: "a" is on the map now, and the walk is where it was.
    expect(placingStep(devices('b', 'c'), walk)).toMatchObject({ current: { id: 'b' }, number: 2, total: 3 });
  });

  it('skips a device without placing it, and ends when every device is handled', () => {
    let walk = afterSkipped(NEW_WALK, 'a');
    expect(placingStep(devices('a', 'b'), walk)).toMatchObject({ current: { id: 'b' }, number: 2, total: 2 });
    walk = afterPlaced(walk, 'b');
    expect(placingStep(devices('a'), walk)).toEqual({ current: undefined, number: 2, total: 2 });
  });

  it('counts a device that joined the list meanwhile (imported again) at the end', () => {
    const walk = afterPlaced(NEW_WALK, 'a');
    expect(placingStep(devices('b', 'c', 'd'), walk)).toMatchObject({ current: { id: 'b' }, number: 2, total: 4 });
  });

  it('has nothing to place for a gateway without devices', () => {
    expect(placingStep([], NEW_WALK)).toEqual({ current: undefined, number: 0, total: 0 });
  });

  it('opens the plan of the map in the walk of the gateway', () => {
    expect(placingWalkUrl('12', '34')).toBe('/device/control?mapId=12&place=34');
  });
});
