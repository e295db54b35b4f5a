import type { FastifyBaseLogger } from 'fastify';

export interface BatchWriterOptions {
  logger: FastifyBaseLogger;
  /** Rows per database write (default 2000): large enough to amortise a round trip, small enough to stay quick. */
  maxBatch?: number;
  /**
   * Rows waiting to be written before accept() asks its caller to wait (default 50,000). The link then holds
   * the PUBACK and stops reading from the broker, so a slow database slows the gateways down instead of
   * growing memory or dropping messages.
   */
  maxQueue?: number;
  /** Wait between attempts while the database refuses writes (default 100 ms doubling up to 5 s). */
  retryMs?: { min: number; max: number };
  /** How long close() keeps trying to write what is queued (default 10 s). */
  closeTimeoutMs?: number;
  /** Server clock, epoch ms. */
  now?: () => number;
}

/** Counters for tests, the benchmark and metrics; a row is one device's part of a message. */
export interface BatchWriterStats {
  /** Rows taken from messages. */
  accepted: number;
  /** Rows the database took. */
  written: number;
  /** Rows given up on: unknown gateway, a row the database refused, or unwritten at close. */
  dropped: number;
  /** Database writes that succeeded. */
  batches: number;
  /** Failed attempts that were tried again. */
  retries: number;
  /** Times accept() asked its caller to wait. */
  waits: number;
}

// The earliest and latest message time taken as is; outside, the gateway's clock is not set or is wrong.
const MIN_TS = Date.parse('2000-01-01T00:00:00Z');
const MAX_AHEAD_MS = 366 * 24 * 3600 * 1000;

/** SQLSTATE classes 22 (data exception) and 23 (integrity): retrying the same rows cannot succeed. */
function isRowError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a batch writer writes: its rows, and how one statement writes a batch of them. */
export interface RowKind<Row extends { mac: string; addr: string }> {
  /** What the log lines call the rows: "device report", "telemetry". */
  noun: string;
  /** Writes rows in one statement; rows of a MAC no gateway has are not written and named. */
  write(rows: Row[]): Promise<{ written: number; unknownMacs: string[] }>;
  /**
   * For a table of current values: only the newest row of each key waits to be written (an older one would
   * be overwritten at once), so a burst of reports costs one row per device, not one per report.
   */
  latestBy?: (row: Row) => string;
  /**
   * Lets another writer go first: once the rows queued when a round of writes began are written, the next
   * round waits, while `behind()` answers true, until `wake()` is called or `maxWaitMs` have passed since the
   * previous round began. With `latestBy`, rows that wait merge into fewer.
   */
  yieldTo?: { behind: () => boolean; maxWaitMs: number };
}

/** What differs between the messages a batch writer ingests (up/report, up/telemetry). */
export interface BatchWriterKind<Message, Row extends { mac: string; addr: string }> extends RowKind<Row> {
  /** The message's rows; `reportedAt` is its time, or the arrival time when the gateway clock is wrong. */
  rowsOf(mac: string, message: Message, reportedAt: string, receivedAt: string): Row[];
  /** The message's time (gateway clock, epoch ms). */
  ts(message: Message): number;
}

/**
 * Writes rows in batches, one write at a time and in the order they came (bounded queue). Nothing queued is
 * lost while the database comes back: a failed write is retried; only a row the database refuses as data is
 * dropped (after splitting the batch to find it), and that is logged.
 */
export function createRowWriter<Row extends { mac: string; addr: string }>(kind: RowKind<Row>, options: BatchWriterOptions) {
  const { logger } = options;
  const noun = kind.noun;
  const maxBatch = options.maxBatch ?? 2000;
  const maxQueue = options.maxQueue ?? 50_000;
  const retry = options.retryMs ?? { min: 100, max: 5000 };
  const now = options.now ?? Date.now;
  const stats: BatchWriterStats = { accepted: 0, written: 0, dropped: 0, batches: 0, retries: 0, waits: 0 };

  // Rows in the order they came, a message's rows together (`queued` counts the rows); or, for a table of
  // current values, the newest row of each key.
  const queue: Row[][] = [];
  const latest = new Map<string, Row>();
  let queued = 0;
  let writing = false;
  let scheduled = false;
  let roundStartedAt = -Infinity;
  let yielding: NodeJS.Timeout | undefined;
  let closing = false;
  let giveUpAt = Infinity;
  let wakeRetry: (() => void) | undefined;
  const roomWaiters: Array<() => void> = [];
  const idleWaiters: Array<() => void> = [];
  const unknownLogged = new Set<string>();
  const hasQueued = () => queue.length > 0 || latest.size > 0;

  function schedule() {
    if (writing || scheduled || yielding) return;
    scheduled = true;
    // setImmediate lets the messages already read from the socket join the batch.
    setImmediate(() => {
      scheduled = false;
      void pump();
    });
  }

  function takeBatch(): Row[] {
    const batch: Row[] = [];
    for (const [key, row] of latest) {
      if (batch.length >= maxBatch) break;
      batch.push(row);
      latest.delete(key);
    }
    while (queue.length > 0 && batch.length < maxBatch) {
      const head = queue[0]!;
      const room = maxBatch - batch.length;
      if (head.length <= room) {
        batch.push(...head);
        queue.shift();
      } else {
        batch.push(...head.splice(0, room));
      }
    }
    queued -= batch.length;
    return batch;
  }

  function releaseRoom() {
    while (roomWaiters.length > 0 && queued < maxQueue) roomWaiters.shift()!();
  }

  async function pump() {
    if (writing) return;
    writing = true;
    try {
      // Rows of the current round still to write before yielding is considered again.
      let round = 0;
      while (hasQueued()) {
        if (round <= 0) {
          const waitMs = roundStartedAt + (kind.yieldTo?.maxWaitMs ?? 0) - performance.now();
          if (kind.yieldTo && !closing && waitMs > 0 && kind.yieldTo.behind()) {
            yielding = setTimeout(wake, waitMs);
            return;
          }
          roundStartedAt = performance.now();
          round = queued;
        }
        const batch = takeBatch();
        round -= batch.length;
        releaseRoom();
        await writeBatch(batch);
      }
    } finally {
      writing = false;
      if (hasQueued()) schedule();
      else while (idleWaiters.length > 0) idleWaiters.shift()!();
    }
  }

  /** Ends a wait for the writer `yieldTo` names. */
  function wake() {
    if (yielding) {
      clearTimeout(yielding);
      yielding = undefined;
      schedule();
    }
  }

  async function writeBatch(rows: Row[]): Promise<void> {
    let wait = retry.min;
    for (;;) {
      try {
        const result = await kind.write(rows);
        stats.batches++;
        stats.written += result.written;
        const unknown = rows.length - result.written;
        if (unknown > 0) {
          stats.dropped += unknown;
          for (const mac of result.unknownMacs) {
            // Once per MAC and process: an unprovisioned gateway on an external broker reports all day.
            if (unknownLogged.has(mac)) continue;
            unknownLogged.add(mac);
            logger.warn({ mac }, `${noun} dropped: no gateway with this MAC`);
          }
        }
        return;
      } catch (error) {
        if (isRowError(error)) {
          if (rows.length === 1) {
            stats.dropped++;
            logger.error({ err: error, mac: rows[0]!.mac, addr: rows[0]!.addr }, `${noun} dropped: the database refused it`);
            return;
          }
          // One bad row must not cost the others: split until it is alone.
          const half = Math.ceil(rows.length / 2);
          await writeBatch(rows.slice(0, half));
          await writeBatch(rows.slice(half));
          return;
        }
        if (closing && now() >= giveUpAt) {
          stats.dropped += rows.length;
          logger.error({ err: error, rows: rows.length }, `${noun} lost: the database did not take it before shutdown`);
          return;
        }
        stats.retries++;
        logger.warn({ err: error, rows: rows.length, retryInMs: wait }, `${noun} not written yet, retrying`);
        await new Promise<void>((resolve) => {
          wakeRetry = resolve;
          void sleep(wait).then(resolve);
        });
        wakeRetry = undefined;
        wait = Math.min(wait * 2, retry.max);
      }
    }
  }

  return {
    stats,
    now,

    /** Rows waiting for the database. */
    get queued(): number {
      return queued;
    },

    /**
     * Queues rows. Answers undefined when the caller may go on, or a promise to await before giving more
     * while the queue is full (backpressure).
     */
    push(rows: readonly Row[]): Promise<void> | undefined {
      if (closing) {
        stats.dropped += rows.length;
        logger.warn({ mac: rows[0]?.mac, rows: rows.length }, `${noun} dropped: the writer is closed`);
        return undefined;
      }
      stats.accepted += rows.length;
      if (kind.latestBy) {
        for (const row of rows) {
          const key = kind.latestBy(row);
          // Taken out and put back, so the row waits as the newest.
          latest.delete(key);
          latest.set(key, row);
        }
        queued = latest.size;
      } else {
        queue.push([...rows]);
        queued += rows.length;
      }
      schedule();
      if (queued < maxQueue) return undefined;
      stats.waits++;
      return new Promise<void>((resolve) => roomWaiters.push(resolve));
    },

    wake,

    /** Resolves when everything queued so far is in the database (or given up on). */
    flush(): Promise<void> {
      if (!writing && !scheduled && !yielding && !hasQueued()) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },

    /** Stops taking rows, writes what is queued (trying for closeTimeoutMs), then resolves. */
    async close(): Promise<void> {
      closing = true;
      giveUpAt = now() + (options.closeTimeoutMs ?? 10_000);
      wake();
      const deadline = setTimeout(() => wakeRetry?.(), Math.max(0, giveUpAt - now()) + 10);
      try {
        await this.flush();
      } finally {
        clearTimeout(deadline);
        // Nobody waits for room after close.
        while (roomWaiters.length > 0) roomWaiters.shift()!();
      }
    },
  };
}
export type RowWriter<Row extends { mac: string; addr: string }> = ReturnType<typeof createRowWriter<Row>>;

/**
 * The ingest path of gateway messages: takes decoded messages from the gateway link and queues their rows in
 * a row writer (bounded, batched, retried, in arrival order).
 */
export function createBatchWriter<Message, Row extends { mac: string; addr: string }>(
  kind: BatchWriterKind<Message, Row>,
  options: BatchWriterOptions,
) {
  const writer = createRowWriter(kind, options);
  const { logger } = options;

  /** A gateway whose clock is not set still reports real values: they are kept with the arrival time. */
  function rowsOf(mac: string, message: Message, receivedAt: string): Row[] {
    const ts = kind.ts(message);
    const clockWrong = ts < MIN_TS || ts > writer.now() + MAX_AHEAD_MS;
    if (clockWrong) logger.warn({ mac, ts }, `${kind.noun} timestamp is impossible (gateway clock not set?): the arrival time is used`);
    return kind.rowsOf(mac, message, clockWrong ? receivedAt : new Date(ts).toISOString(), receivedAt);
  }

  return {
    stats: writer.stats,
    get queued(): number {
      return writer.queued;
    },
    flush: () => writer.flush(),
    close: () => writer.close(),

    /**
     * Queues the rows of one decoded message. Answers undefined when the caller may go on, or a promise to
     * await before taking the next message while the queue is full (backpressure).
     */
    accept(mac: string, message: Message): Promise<void> | undefined {
      return writer.push(rowsOf(mac, message, new Date(writer.now()).toISOString()));
    },
  };
}
