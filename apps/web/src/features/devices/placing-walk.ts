/**
 * Placing a new gateway's devices, one at a time: the device to place blinks, the installer taps where it is
 * on the plan, and the next one blinks. The devices still waiting are the gateway's outmap list as the server
 * last answered; what was placed or skipped here leaves the walk at once, before that list is read again.
 */
export interface PlacingWalkState {
  placed: ReadonlySet<string>;
  skipped: ReadonlySet<string>;
}

export const NEW_WALK: PlacingWalkState = { placed: new Set(), skipped: new Set() };

export interface PlacingStep<T> {
  /** The device to place now; undefined once every device is placed or skipped. */
  current: T | undefined;
  /** Its number in the walk, from 1. */
  number: number;
  /** Every device of the walk: those placed, skipped and still waiting. */
  total: number;
}

/** Where the walk stands, given the devices still on no map (in the order they are to be placed). */
export function placingStep<T extends { id: string }>(waiting: readonly T[], walk: PlacingWalkState): PlacingStep<T> {
  const handled = (id: string) => walk.placed.has(id) || walk.skipped.has(id);
  const left = waiting.filter((device) => !handled(device.id));
  const done = walk.placed.size + walk.skipped.size;
  return { current: left[0], number: Math.min(done + 1, done + left.length), total: done + left.length };
}

export const afterPlaced = (walk: PlacingWalkState, id: string): PlacingWalkState => ({
  ...walk,
  placed: new Set([...walk.placed, id]),
});

export const afterSkipped = (walk: PlacingWalkState, id: string): PlacingWalkState => ({
  ...walk,
  skipped: new Set([...walk.skipped, id]),
});

/** The plan page in the walk: the map to show and the gateway whose devices are placed. */
export const PLACING_PARAMS = { map: 'mapId', gateway: 'place' } as const;

export function placingWalkUrl(mapId: string, gatewayId: string): string {
  const query = new URLSearchParams({ [PLACING_PARAMS.map]: mapId, [PLACING_PARAMS.gateway]: gatewayId });
  return `/device/control?${query.toString()}`;
}
