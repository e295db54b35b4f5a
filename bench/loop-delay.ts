import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** The event loop's delay over a stretch of a benchmark, in milliseconds. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  /** Share of the stretch the thread was busy running code rather than waiting for I/O (0-1). */
  busy: number;
}

const RESOLUTION_MS = 1;

/** Starts sampling this thread's event loop delay; `stop` answers the figures since. */
export function watchLoopDelay(): { stop(): LoopDelay } {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const start = performance.eventLoopUtilization();
  // The histogram holds the time between two ticks of its timer: the delay is what exceeds the timer's period.
  const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 10) / 10);
  return {
    stop() {
      histogram.disable();
      const busy = Math.round(performance.eventLoopUtilization(start).utilization * 100) / 100;
      return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), busy };
    },
  };
}
