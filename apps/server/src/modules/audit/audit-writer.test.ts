import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditDraft } from '../../test/audit.fixtures.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import type { AuditInsert } from './audit.repo.ts';
import { createAuditWriter } from './audit-writer.ts';

const draft = (n: number) => auditDraft('quiet', n);

/** A writer over a repo that keeps what it is given, and a `quiet` the test lets go of. */
function writerWithQuiet(options: { quietWaitMs?: number } = {}) {
  const inserted: AuditInsert[][] = [];
  let letGo: () => void = () => {};
  const quiet = vi.fn(() => new Promise<void>((resolve) => (letGo = resolve)));
  const writer = createAuditWriter({
    repo: {
      insert: async (rows) => void inserted.push(rows),
      projectsOf: async (calls) => calls.map(() => null),
      valuesOf: async () => null,
    },
    logger: memoryLogger().logger,
    quiet,
    flushMs: 200,
    ...options,
  });
  const numbers = () => inserted.map((rows) => rows.map((r) => (r.request as { n: number }).n));
  return { writer, quiet, numbers, letGo: () => letGo() };
}

describe('the audit writer waits for a moment without requests', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('inserts a due batch only once no request is being answered', async () => {
    const { writer, quiet, numbers, letGo } = writerWithQuiet();
    writer.sink.record(draft(1));
    writer.sink.record(draft(2));
    await vi.advanceTimersByTimeAsync(200);
    expect(quiet).toHaveBeenCalledTimes(1);
    expect(numbers()).toEqual([]);
    letGo();
    await vi.advanceTimersByTimeAsync(0);
    expect(numbers()).toEqual([[1, 2]]);
  });

  it('inserts it anyway once it has waited quietWaitMs, so a server never quiet still keeps its trail', async () => {
    const { writer, numbers } = writerWithQuiet({ quietWaitMs: 1000 });
    writer.sink.record(draft(1));
    await vi.advanceTimersByTimeAsync(200 + 999);
    expect(numbers()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(numbers()).toEqual([[1]]);
  });

  it('does not wait for quiet on flush() or close()', async () => {
    const { writer, quiet, numbers } = writerWithQuiet();
    writer.sink.record(draft(1));
    await writer.flush();
    writer.sink.record(draft(2));
    await writer.close();
    expect(numbers()).toEqual([[1], [2]]);
    expect(quiet).not.toHaveBeenCalled();
  });
});
