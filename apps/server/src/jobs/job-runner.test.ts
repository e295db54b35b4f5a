import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { DATABASES, TestClock, startApp } from '../test/harness.ts';
import { freshPglite, freshPostgres } from '../test/database-templates.ts';
import { poll } from '../test/poll.ts';
import { createJobRunner, retryDelayMs, type JobHandler, type JobRunnerOptions, type Json } from './job-runner.ts';

const quiet = { info() {}, warn() {}, error() {} };

/** A promise the test settles by hand: a handler that runs until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A job handler that tells when it has started and then runs until the test lets it finish with `result`. */
function heldJob(result?: Json) {
  const started = gate();
  const finish = gate();
  const handler = async () => {
    started.open();
    await finish.opened;
    return result;
  };
  return { handler, started: started.opened, finish: finish.open };
}

/** Two handles on one database: for PostgreSQL two pools, as two server nodes would have; PGlite is one process. */
async function openTwice(kind: 'pglite' | 'postgres'): Promise<{ first: Database; second: Database; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await freshPglite();
    return { first: database, second: database, close: () => database.close() };
  }
  const fresh = await freshPostgres();
  const first = await openDatabase({ url: fresh.url });
  const second = await openDatabase({ url: fresh.url });
  return {
    first,
    second,
    async close() {
      await first.close();
      await second.close();
      await fresh.drop();
    },
  };
}

describe('retryDelayMs', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
});

describe.each(DATABASES)('job runner on %s', (kind) => {
  let databases: Awaited<ReturnType<typeof openTwice>>;
  let clock: TestClock;
  let kindNo = 0;

  beforeAll(async () => {
    databases = await openTwice(kind);
    clock = new TestClock();
  });
  afterAll(() => databases?.close());

  /** A job kind no other test uses, so tests sharing the database do not claim each other's jobs. */
  const freshKind = () => `test.kind${++kindNo}`;

  /** Two nodes on the same database, each with the same handler. */
  function twoNodes(jobKind: string, handler: JobHandler, options: Partial<JobRunnerOptions> = {}) {
    const nodes = [databases.first, databases.second].map((database, i) => {
      const runner = createJobRunner({ db: database.db, clock, logger: quiet, nodeId: `node-${i + 1}`, ...options });
      runner.register(jobKind, handler);
      return runner;
    });
    return nodes as [(typeof nodes)[0], (typeof nodes)[0]];
  }

  it('runs a due job once and records its result', async () => {
    const jobKind = freshKind();
    const seen: unknown[] = [];
    const [runner] = twoNodes(jobKind, (payload, context) => {
      seen.push({ payload, attempt: context.attempt });
      return { mailed: 3 };
    });
    expect(await runner.schedule({ kind: jobKind, key: 'later', runAt: new Date(clock.now().getTime() + 60_000) })).toBe(true);
    expect(await runner.schedule({ kind: jobKind, key: 'now', runAt: clock.now(), payload: { tenant: 42 } })).toBe(true);

    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(seen).toEqual([{ payload: { tenant: 42 }, attempt: 1 }]);
    expect(await runner.find(jobKind, 'now')).toMatchObject({
      state: 'done',
      attempts: 1,
      result: { mailed: 3 },
      lastError: null,
      leaseOwner: 'node-1',
      finishedAt: clock.now(),
    });
    expect((await runner.find(jobKind, 'later'))?.state).toBe('queued');

    clock.advance(60_000);
    expect(await runner.runDue()).toBe(1);
    expect((await runner.find(jobKind, 'later'))?.state).toBe('done');
    expect(await runner.find(jobKind, 'never scheduled')).toBeUndefined();
  });

  it('answers a call to run due jobs once the jobs a sweep under way claimed have run', async () => {
    const jobKind = freshKind();
    const held = gate();
    let started = false;
    const [runner] = twoNodes(jobKind, async () => {
      started = true;
      await held.opened;
      return { slow: true };
    });
    await runner.schedule({ kind: jobKind, key: 'slow', runAt: clock.now() });
    // The poll timer's sweep, as it were, holds the job.
    const first = runner.runDue();
    await poll(() => started, 'the job started');
    let stateWhenAnswered: string | undefined;
    const second = runner.runDue().then(async (ran) => {
      stateWhenAnswered = (await runner.find(jobKind, 'slow'))?.state;
      return ran;
    });
    // Time for the second call's own claim (two queries) before the job is let go: answering without waiting,
    // it would have answered by then.
    for (let i = 0; i < 3; i++) await runner.find(jobKind, 'slow');
    held.open();
    expect(await Promise.all([first, second])).toEqual([1, 0]);
    expect(stateWhenAnswered).toBe('done');
  });

  it('schedules the same kind and key once, from either node', async () => {
    const jobKind = freshKind();
    const [a, b] = twoNodes(jobKind, () => null);
    const job = { kind: jobKind, key: 'plan:7/2026-12-01', runAt: clock.now() };
    const made = await Promise.all([a.schedule(job), b.schedule(job), a.schedule({ ...job, payload: { other: true } })]);
    expect(made.filter(Boolean)).toHaveLength(1);
    expect(await b.schedule(job)).toBe(false);
    expect(await Promise.all([a.runDue(), b.runDue()])).toSatisfy(([x, y]: number[]) => x! + y! === 1);
  });

  it('runs each of many jobs exactly once with two nodes claiming side by side', async () => {
    const jobKind = freshKind();
    const runs = new Map<string, number>();
    const ranOn = new Map<string, number>();
    const [a, b] = twoNodes(
      jobKind,
      async (payload) => {
        const key = (payload as { key: string }).key;
        runs.set(key, (runs.get(key) ?? 0) + 1);
        // Gives the other node's claims a turn while this one "works".
        await new Promise((resolve) => setImmediate(resolve));
      },
      { concurrency: 5 },
    );
    const keys = Array.from({ length: 200 }, (_, i) => `rollup:${i}`);
    for (const key of keys) await a.schedule({ kind: jobKind, key, runAt: clock.now(), payload: { key } });

    const [ranA, ranB, ranA2] = await Promise.all([a.runDue(), b.runDue(), a.runDue()]);
    ranOn.set('a', ranA + ranA2).set('b', ranB);
    expect(ranA + ranB + ranA2).toBe(keys.length);
    expect([...runs.keys()].sort()).toEqual([...keys].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    for (const key of keys) expect((await b.find(jobKind, key))?.state).toBe('done');
    // Two pools really race on PostgreSQL; PGlite serves one statement at a time, so there one node may take all.
    if (kind === 'postgres') expect(ranOn.get('b')).toBeGreaterThan(0);
  });

  it('retries a failing job later each time and ends failed after max attempts with the last error', async () => {
    const jobKind = freshKind();
    let calls = 0;
    const [runner] = twoNodes(
      jobKind,
      () => {
        calls += 1;
        throw new Error(calls < 4 ? `relay refused (${calls})` : 'x'.repeat(5000));
      },
      { retryBaseMs: 1000, retryMaxMs: 3000 },
    );
    await runner.schedule({ kind: jobKind, key: 'report', runAt: clock.now(), maxAttempts: 4 });

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await runner.runDue()).toBe(1);
      const job = (await runner.find(jobKind, 'report'))!;
      expect(job).toMatchObject({ state: 'queued', attempts: attempt, lastError: `Error: relay refused (${attempt})`, finishedAt: null });
      const delay = job.runAt.getTime() - clock.now().getTime();
      delays.push(delay);
      clock.advance(delay - 1);
      expect(await runner.runDue()).toBe(0);
      clock.advance(1);
    }
    expect(delays).toEqual([1000, 2000, 3000]);

    expect(await runner.runDue()).toBe(1);
    const failed = (await runner.find(jobKind, 'report'))!;
    expect(failed).toMatchObject({ state: 'failed', attempts: 4, finishedAt: clock.now() });
    expect(failed.lastError!.length).toBeLessThanOrEqual(1000);
    expect(failed.lastError).toMatch(/^Error: x+…$/);
    clock.advance(3_600_000);
    expect(await runner.runDue()).toBe(0);
    expect(calls).toBe(4);
  });

  it('gives a job whose node died to another node once the lease ends, and ignores the late finish', async () => {
    const jobKind = freshKind();
    const started = gate();
    const stuck = gate();
    let attempts = 0;
    const [dying, healthy] = twoNodes(
      jobKind,
      async (_payload, context) => {
        attempts += 1;
        if (context.attempt === 1) {
          started.open();
          await stuck.opened;
          return { by: 'the dead node' };
        }
        return { by: 'the healthy node' };
      },
      { leaseMs: 60_000 },
    );
    await dying.schedule({ kind: jobKind, key: 'energy:2026-11', runAt: clock.now() });
    const dyingRun = dying.runDue();
    await started.opened;
    expect(await healthy.runDue()).toBe(0);
    expect(await healthy.find(jobKind, 'energy:2026-11')).toMatchObject({ state: 'running', leaseOwner: 'node-1' });

    clock.advance(60_000);
    expect(await healthy.runDue()).toBe(0);
    clock.advance(1);
    expect(await healthy.runDue()).toBe(1);

    stuck.open();
    expect(await dyingRun).toBe(1);
    expect(attempts).toBe(2);
    expect(await healthy.find(jobKind, 'energy:2026-11')).toMatchObject({
      state: 'done',
      attempts: 2,
      leaseOwner: 'node-2',
      result: { by: 'the healthy node' },
    });
  });

  it('fails a job whose node died on its last attempt instead of running it again', async () => {
    const jobKind = freshKind();
    const { handler, started, finish } = heldJob();
    const [dying, healthy] = twoNodes(jobKind, handler, { leaseMs: 60_000 });
    await dying.schedule({ kind: jobKind, key: 'once', runAt: clock.now(), maxAttempts: 1 });
    const dyingRun = dying.runDue();
    await started;
    clock.advance(60_001);
    expect(await healthy.runDue()).toBe(0);
    expect(await healthy.find(jobKind, 'once')).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/lease expired/),
    });
    finish();
    await dyingRun;
    expect((await healthy.find(jobKind, 'once'))?.state).toBe('failed');
  });

  it('renews the lease of a job that is still running, so no other node takes it', async () => {
    const jobKind = freshKind();
    const { handler, started, finish } = heldJob('long report');
    // A lease short in real time, so the renewal timer fires while the test waits for it.
    const [busy, other] = twoNodes(jobKind, handler, { leaseMs: 30 });
    await busy.schedule({ kind: jobKind, key: 'long', runAt: clock.now() });
    const busyRun = busy.runDue();
    await started;
    clock.advance(10_000);
    const renewedUntil = clock.now().getTime() + 30;
    await poll(async () => (await other.find(jobKind, 'long'))?.lockedUntil?.getTime() === renewedUntil, 'the lease renewed');
    expect(await other.runDue()).toBe(0);
    finish();
    expect(await busyRun).toBe(1);
    expect(await other.find(jobKind, 'long')).toMatchObject({ state: 'done', attempts: 1, result: 'long report', lockedUntil: null });
  });

  it('close waits for a running job to record its outcome, then claims nothing', async () => {
    const jobKind = freshKind();
    const { handler, started, finish } = heldJob('sent');
    const [runner] = twoNodes(jobKind, handler);
    await runner.schedule({ kind: jobKind, key: 'closing', runAt: clock.now() });
    await runner.schedule({ kind: jobKind, key: 'after close', runAt: new Date(clock.now().getTime() + 1000) });
    const running = runner.runDue();
    await started;

    let closed = false;
    const closing = runner.close().then(() => (closed = true));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);

    finish();
    await closing;
    expect(await running).toBe(1);
    expect(await runner.find(jobKind, 'closing')).toMatchObject({ state: 'done', result: 'sent' });
    clock.advance(1000);
    expect(await runner.runDue()).toBe(0);
    expect((await runner.find(jobKind, 'after close'))?.state).toBe('queued');
  });

  it('hands a running job back on handOver: another node takes it at once, the attempt not counted, the late finish ignored', async () => {
    const jobKind = freshKind();
    const started = gate();
    const stuck = gate();
    const aborted: unknown[] = [];
    let handedBack = 0;
    let calls = 0;
    const [leaving, staying] = twoNodes(
      jobKind,
      async (_payload, context) => {
        calls += 1;
        if (calls === 1) {
          started.open();
          context.signal.addEventListener('abort', () => aborted.push(context.signal.reason));
          await stuck.opened;
          return { by: 'the leaving node', attempt: context.attempt };
        }
        return { by: 'the staying node', attempt: context.attempt };
      },
      { leaseMs: 60_000, onHandedBack: () => (handedBack += 1) },
    );
    await leaving.schedule({ kind: jobKind, key: 'rollup', runAt: clock.now() });
    await leaving.schedule({ kind: jobKind, key: 'not yet', runAt: new Date(clock.now().getTime() + 1000) });
    const leavingRun = leaving.runDue();
    await started.opened;

    expect(await leaving.handOver(0)).toBe(1);
    expect(handedBack).toBe(1);
    expect(aborted).toHaveLength(1);
    expect(await staying.find(jobKind, 'rollup')).toMatchObject({ state: 'queued', attempts: 0, leaseOwner: null, lockedUntil: null });
    // No lease to wait for: the clock has not moved.
    expect(await staying.runDue()).toBe(1);
    // close() does not wait for a handler it handed back; its late finish is dropped.
    await leaving.close();
    stuck.open();
    await leavingRun;
    expect(await staying.find(jobKind, 'rollup')).toMatchObject({
      state: 'done',
      attempts: 1,
      leaseOwner: 'node-2',
      result: { by: 'the staying node', attempt: 1 },
    });
    clock.advance(1000);
    expect(await leaving.runDue()).toBe(0);
    expect((await staying.find(jobKind, 'not yet'))?.state).toBe('queued');
  });

  it('handOver lets a job that finishes within the wait record its outcome', async () => {
    const jobKind = freshKind();
    const { handler, started, finish } = heldJob('sent');
    let handedBack = 0;
    const [runner] = twoNodes(jobKind, handler, { onHandedBack: () => (handedBack += 1) });
    await runner.schedule({ kind: jobKind, key: 'quick', runAt: clock.now() });
    const running = runner.runDue();
    await started;
    const handing = runner.handOver(60_000);
    finish();
    expect(await handing).toBe(0);
    expect(handedBack).toBe(0);
    expect(await running).toBe(1);
    expect(await runner.find(jobKind, 'quick')).toMatchObject({ state: 'done', attempts: 1, result: 'sent' });
  });

  it('polls for due jobs after start()', async () => {
    const jobKind = freshKind();
    const ran = gate();
    const [runner] = twoNodes(jobKind, () => ran.open(), { pollMs: 10 });
    await runner.schedule({ kind: jobKind, key: 'polled', runAt: clock.now() });
    runner.start();
    await ran.opened;
    await runner.close();
    expect((await runner.find(jobKind, 'polled'))?.state).toBe('done');
  });
});

describe('the app', () => {
  it('carries a job runner on its database and closes it with the app', async () => {
    const h = await startApp('pglite');
    try {
      const ran = gate();
      h.app.jobs.register('test.app', () => {
        ran.open();
        return 'ok';
      });
      await h.app.jobs.schedule({ kind: 'test.app', key: 'one', runAt: h.clock.now() });
      expect(await h.app.jobs.runDue()).toBe(1);
      await ran.opened;
      expect(await h.app.jobs.find('test.app', 'one')).toMatchObject({ state: 'done', result: 'ok', finishedAt: h.clock.now() });
      await h.app.jobs.schedule({ kind: 'test.app', key: 'two', runAt: h.clock.now() });
    } finally {
      await h.app.close();
    }
    // Closed with the app: nothing more is claimed.
    expect(await h.app.jobs.runDue()).toBe(0);
    await h.database.close();
  });
});
