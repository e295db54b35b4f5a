/** Radio limits of one Zigbee network (ARCHITECTURE.md section 5): about 10 unicasts and 1 group command a second. */
export interface RadioLimits {
  /** Unicast frames a second; 0 means no limit (tests). */
  unicastPerSecond: number;
  /** Group (multicast) frames a second; 0 means no limit. */
  groupPerSecond: number;
}

export const DEFAULT_RADIO_LIMITS: RadioLimits = { unicastPerSecond: 10, groupPerSecond: 1 };
export const NO_RADIO_LIMITS: RadioLimits = { unicastPerSecond: 0, groupPerSecond: 0 };

/**
 * Spaces frames on the air in wall-clock time (the radio does not speed up with the simulated clock):
 * each caller waits for its slot, so a burst of 50 unicasts takes about 5 s.
 */
export class RadioLimiter {
  private nextUnicast = 0;
  private nextGroup = 0;

  constructor(private readonly limits: RadioLimits) {}

  /** Resolves when the frame may go out. */
  async acquire(kind: 'unicast' | 'group'): Promise<void> {
    const perSecond = kind === 'unicast' ? this.limits.unicastPerSecond : this.limits.groupPerSecond;
    if (perSecond <= 0) return;
    const now = Date.now();
    const next = kind === 'unicast' ? this.nextUnicast : this.nextGroup;
    const at = Math.max(now, next);
    const following = at + 1000 / perSecond;
    if (kind === 'unicast') this.nextUnicast = following;
    else this.nextGroup = following;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}
