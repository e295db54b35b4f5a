/**
 * How a gateway waits between attempts (docs/protocol.md section 3): to reach its broker ("Reconnecting"), and
 * for the cloud's answer to its online state.
 */
export interface ReconnectBackoff {
  /** Ceiling of the first wait, ms (default 1,000). */
  initialMs?: number;
  /** Ceiling of every wait, ms (default 30,000). */
  maxMs?: number;
  /** Uniform in [0, 1); a test passes a seeded one. Apart from the simulator's own random, so seeded scenarios keep their sequence. */
  random?: () => number;
}

export const RECONNECT_INITIAL_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * The wait before reconnect attempt `attempt` (0 for the first after a loss): exponential with "equal jitter",
 * a uniform time between half and all of min(max, initial x 2^attempt). The growth keeps a broker that is down
 * from being hammered; the jitter spreads a fleet that lost the broker at the same moment over the window, so
 * it does not come back as one wave; the half floor keeps any one gateway from retrying in a tight loop.
 */
export function reconnectDelay(attempt: number, backoff: ReconnectBackoff = {}): number {
  const initial = backoff.initialMs ?? RECONNECT_INITIAL_MS;
  const max = backoff.maxMs ?? RECONNECT_MAX_MS;
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  const random = backoff.random ?? Math.random;
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The first wait for the cloud's answer to an online state is 5-10 s, then twice as long each time, at most 1-2 minutes. */
export const ONLINE_REPEAT: Required<Pick<ReconnectBackoff, 'initialMs' | 'maxMs'>> = { initialMs: 10_000, maxMs: 120_000 };
