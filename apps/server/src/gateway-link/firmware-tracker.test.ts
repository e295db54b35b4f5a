import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandBus, CommandOutcome } from './command-bus.ts';
import { createFirmwareTracker, type FirmwareProgress } from './firmware-tracker.ts';
import { memoryLogger } from './test-support.ts';

const MAC = 'A4C138000001';
const PARAMS = { target: 'gateway' as const, version: '4.0.0', url: 'https://updates.example/gw.bin' };

/** A bus that accepts every update with ids u1, u2, ... and records the other commands it is asked for. */
function fakeBus(accept = true) {
  let n = 0;
  const sent: string[] = [];
  const bus = {
    send: vi.fn(async (mac: string, name: string) => {
      sent.push(name);
      const id = `u${++n}`;
      if (name !== 'firmware.update' || accept) return { id, mac, name, state: 'succeeded', result: name === 'firmware.update' ? { accepted: true } : {} } as CommandOutcome;
      return { id, mac, name, state: 'timed_out', error: { code: 'timeout' }, errorCode: 100103 } as CommandOutcome;
    }),
  } as unknown as CommandBus;
  return { bus, sent };
}

describe('firmware tracker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('follows progress to success and ignores events of other updates', async () => {
    const { bus, sent } = fakeBus();
    const results: FirmwareProgress[] = [];
    const tracker = createFirmwareTracker({ bus, logger: memoryLogger().logger, onResult: (p) => results.push(p), timeoutMs: 60_000 });
    expect((await tracker.start(MAC, PARAMS)).state).toBe('succeeded');
    tracker.handleEvent(MAC, { type: 'firmware', ts: 1, update: 'other', target: 'gateway', stage: 'downloading', progress: 90 });
    expect(tracker.progress(MAC)).toMatchObject({ stage: 'requested', progress: 0 });
    tracker.handleEvent(MAC, { type: 'firmware', ts: 1, update: 'u1', target: 'gateway', stage: 'installing', progress: 70 });
    expect(tracker.progress(MAC)).toMatchObject({ stage: 'installing', progress: 70, result: undefined });
    tracker.handleEvent(MAC, { type: 'firmware', ts: 2, update: 'u1', target: 'gateway', stage: 'done', progress: 100, result: 1, version: '4.0.0' });
    expect(results).toMatchObject([{ mac: MAC, update: 'u1', result: 1, progress: 100 }]);
    expect(sent).toEqual(['firmware.update']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('allows one update per gateway at a time', async () => {
    const { bus } = fakeBus();
    const tracker = createFirmwareTracker({ bus, logger: memoryLogger().logger, onResult: () => undefined });
    await tracker.start(MAC, PARAMS);
    expect(await tracker.start(MAC, PARAMS)).toMatchObject({ state: 'failed', error: { code: 'busy' }, errorCode: 100102 });
    tracker.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('decides timeout (3) after its limit and restarts the gateway; a failure (2) restarts it too', async () => {
    const { bus, sent } = fakeBus();
    const results: number[] = [];
    const tracker = createFirmwareTracker({ bus, logger: memoryLogger().logger, onResult: (p) => results.push(p.result!), timeoutMs: 1000 });
    await tracker.start(MAC, PARAMS);
    await vi.advanceTimersByTimeAsync(1000);
    expect(results).toEqual([3]);
    await tracker.start(MAC, PARAMS);
    tracker.handleEvent(MAC, { type: 'firmware', ts: 1, update: 'u3', target: 'gateway', stage: 'installing', progress: 80, result: 2 });
    expect(results).toEqual([3, 2]);
    expect(sent).toEqual(['firmware.update', 'gateway.restart', 'firmware.update', 'gateway.restart']);
    expect(tracker.activeCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('answers the command outcome when the gateway does not accept the update', async () => {
    const { bus } = fakeBus(false);
    const tracker = createFirmwareTracker({ bus, logger: memoryLogger().logger, onResult: () => undefined });
    expect(await tracker.start(MAC, PARAMS)).toMatchObject({ state: 'timed_out', errorCode: 100103 });
    expect(tracker.progress(MAC)).toBeUndefined();
  });
});
