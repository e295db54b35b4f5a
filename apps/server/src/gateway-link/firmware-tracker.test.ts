import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandBus, CommandOutcome } from './command-bus.ts';
import { createFirmwareTracker, type FirmwareProgress, type FirmwareStore } from './firmware-tracker.ts';
import { memoryLogger } from '../test/gateway-link.fixtures.ts';

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
      if (name !== 'firmware.update' || accept)
        return { id, mac, name, state: 'succeeded', result: name === 'firmware.update' ? { accepted: true } : {} } as CommandOutcome;
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
    await tracker.handleEvent(MAC, { type: 'firmware', ts: 1, update: 'other', target: 'gateway', stage: 'downloading', progress: 90 });
    expect(tracker.progress(MAC)).toMatchObject({ stage: 'requested', progress: 0 });
    await tracker.handleEvent(MAC, { type: 'firmware', ts: 1, update: 'u1', target: 'gateway', stage: 'installing', progress: 70 });
    expect(tracker.progress(MAC)).toMatchObject({ stage: 'installing', progress: 70, result: undefined });
    await tracker.handleEvent(MAC, {
      type: 'firmware',
      ts: 2,
      update: 'u1',
      target: 'gateway',
      stage: 'done',
      progress: 100,
      result: 1,
      version: '4.0.0',
    });
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
    const tracker = createFirmwareTracker({
      bus,
      logger: memoryLogger().logger,
      onResult: (p) => results.push(p.result!),
      timeoutMs: 1000,
    });
    await tracker.start(MAC, PARAMS);
    await vi.advanceTimersByTimeAsync(1000);
    expect(results).toEqual([3]);
    await tracker.start(MAC, PARAMS);
    await tracker.handleEvent(MAC, {
      type: 'firmware',
      ts: 1,
      update: 'u3',
      target: 'gateway',
      stage: 'installing',
      progress: 80,
      result: 2,
    });
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

/** A store shared by several trackers, as the gateways table is shared by several server nodes. */
function sharedStore() {
  const rows = new Map<string, FirmwareProgress & { deadline: number }>();
  const store: FirmwareStore = {
    async running(mac) {
      const row = rows.get(mac);
      return row && row.result === undefined ? row : undefined;
    },
    async begin(p, deadline) {
      rows.set(p.mac, { ...p, deadline });
    },
    async advance(mac, update, change) {
      const row = rows.get(mac);
      if (!row || row.update !== update || row.result !== undefined) return undefined;
      row.stage = change.stage;
      row.progress = Math.max(row.progress, change.progress);
      if (change.result !== undefined) row.result = change.result;
      return { ...row, concluded: change.result !== undefined };
    },
    async expire(now) {
      const expired = [...rows.values()].filter((r) => r.result === undefined && r.deadline < now);
      for (const r of expired) r.result = 3;
      return expired.map((r) => ({ ...r }));
    },
  };
  return { store, rows };
}

/** Two trackers on one bus and one shared store, as two server nodes are; each records the results it concludes. */
function twoNodes(options: { timeoutMs: number; sweepMs?: number }) {
  const { store } = sharedStore();
  const { bus, sent } = fakeBus();
  const node = () => {
    const results: number[] = [];
    const tracker = createFirmwareTracker({
      bus,
      store,
      logger: memoryLogger().logger,
      onResult: (p) => results.push(p.result!),
      ...options,
    });
    return { tracker, results };
  };
  return { a: node(), b: node(), sent };
}

describe('firmware tracker with a shared store (several server nodes)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lets the node that did not start the update conclude it, once', async () => {
    const { a, b } = twoNodes({ timeoutMs: 60_000 });
    await a.tracker.start(MAC, PARAMS);
    // One update per gateway holds across nodes.
    expect(await b.tracker.start(MAC, PARAMS)).toMatchObject({ state: 'failed', errorCode: 100102 });
    const done = {
      type: 'firmware' as const,
      ts: 2,
      update: 'u1',
      target: 'gateway' as const,
      stage: 'done' as const,
      progress: 100,
      result: 1 as const,
    };
    await b.tracker.handleEvent(MAC, done);
    await b.tracker.handleEvent(MAC, done); // a QoS 1 redelivery
    await a.tracker.handleEvent(MAC, done); // the same event at the other node
    expect(b.results).toEqual([1]);
    expect(a.results).toEqual([]);
    a.tracker.close();
    b.tracker.close();
  });

  it('decides a timeout once when both nodes sweep, and restarts the gateway once', async () => {
    const { a, b, sent } = twoNodes({ timeoutMs: 1000, sweepMs: 100 });
    await a.tracker.start(MAC, PARAMS);
    await vi.advanceTimersByTimeAsync(1500);
    expect([...a.results, ...b.results]).toEqual([3]);
    expect(sent).toEqual(['firmware.update', 'gateway.restart']);
    a.tracker.close();
    b.tracker.close();
    expect(vi.getTimerCount()).toBe(0);
  });
});
