/**
 * The simulator's clock. Simulated time runs `factor` times faster than the wall clock, so a 15-minute
 * firmware update takes 9 s at factor 100. `time.set` moves it; timers are in simulated milliseconds.
 */
export class SimClock {
  private base: number;
  private realBase: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly setListeners: Array<() => void> = [];

  constructor(
    readonly factor = 1,
    start = Date.now(),
  ) {
    if (!(factor > 0)) throw new Error('time factor must be above 0');
    this.base = start;
    this.realBase = Date.now();
  }

  /** Simulated now, epoch ms. */
  now(): number {
    return Math.round(this.base + (Date.now() - this.realBase) * this.factor);
  }

  set(time: number) {
    this.base = time;
    this.realBase = Date.now();
    for (const listener of this.setListeners) listener();
  }

  /** Calls listener after every set(), so whoever measures intervals on this clock can start again. */
  onSet(listener: () => void) {
    this.setListeners.push(listener);
  }

  /** Wall-clock milliseconds that a simulated duration takes. */
  real(simMs: number): number {
    return Math.max(0, simMs / this.factor);
  }

  /** Runs fn after a simulated delay; cancelled by clear() or stop(). */
  after(simMs: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, this.real(simMs));
    this.timers.add(timer);
    return timer;
  }

  /** Runs fn every simulated period. */
  every(simMs: number, fn: () => void): NodeJS.Timeout {
    const timer = setInterval(fn, Math.max(1, this.real(simMs)));
    this.timers.add(timer);
    return timer;
  }

  clear(timer: NodeJS.Timeout | undefined) {
    if (!timer) return;
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  sleep(simMs: number): Promise<void> {
    return new Promise((resolve) => this.after(simMs, resolve));
  }

  /** Cancels every timer; sleeps still pending never resolve, so callers must check their own state. */
  stop() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
