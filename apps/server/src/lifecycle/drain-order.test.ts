import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDrain, DRAIN_DEFAULTS, type DrainTarget } from './drain.ts';

/** A node's parts as the drain sees them, each step written down as it happens. */
function fakeNode(options: { closeNeverEnds?: boolean } = {}) {
  const steps: string[] = [];
  let pending = 1;
  const target: DrainTarget = {
    jobs: {
      handOver: async (waitMs) => {
        steps.push(`handOver ${waitMs}`);
        return 0;
      },
    },
    gatewayLink: {
      pendingCommands: () => pending,
      stopCommands: () => {
        steps.push('stopCommands');
        pending = 0;
      },
    },
    close: () => {
      steps.push('close');
      return options.closeNeverEnds ? new Promise(() => undefined) : Promise.resolve();
    },
    closeIdleConnections: () => undefined,
    closeDatabase: async () => void steps.push('closeDatabase'),
    logger: { info() {}, warn() {}, error() {} },
  };
  return { target, steps };
}

describe('the drain of a node', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is draining at once, serves through the grace, then closes and exits 0', async () => {
    const exits: number[] = [];
    const drain = createDrain({ graceMs: 2_000, exit: (code) => void exits.push(code) });
    const { target, steps } = fakeNode();
    expect(drain.draining()).toBe(false);

    const done = drain.run(target, 'SIGTERM');
    expect(drain.draining()).toBe(true);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(steps).toEqual(['handOver 2000']);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(steps).toEqual(['handOver 2000', 'close', 'closeDatabase']);
    expect(exits).toEqual([0]);
    // A second signal starts nothing again.
    await drain.run(target, 'SIGTERM');
    expect(exits).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('answers waiting gateway commands, then exits 1 at the deadline when the close hangs', async () => {
    const exits: number[] = [];
    const drain = createDrain({ exit: (code) => void exits.push(code) });
    const { target, steps } = fakeNode({ closeNeverEnds: true });

    void drain.run(target, 'SIGTERM');
    await vi.advanceTimersByTimeAsync(DRAIN_DEFAULTS.commandsUntilMs);
    expect(steps).toEqual([`handOver ${DRAIN_DEFAULTS.graceMs}`, 'close', 'stopCommands']);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(DRAIN_DEFAULTS.deadlineMs - DRAIN_DEFAULTS.commandsUntilMs);
    expect(exits).toEqual([1]);
    expect(steps).not.toContain('closeDatabase');
  });
});
