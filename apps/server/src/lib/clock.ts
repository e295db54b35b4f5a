/** Where services read the time: the wall clock in production, a clock the test moves in tests. */
export interface Clock {
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };
