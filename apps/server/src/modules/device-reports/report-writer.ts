import type { ReportMessage } from '@lumigrid/protocol';
import { createBatchWriter, createRowWriter, type BatchWriterOptions } from './batch-writer.ts';
import { deviceKey, type ChangesResult, type DeviceReportsRepo, type ReportRow } from './device-reports.repo.ts';
import { selectChanges, type Taken } from './history-filter.ts';

export interface ReportWriterOptions extends BatchWriterOptions {
  repo: Pick<DeviceReportsRepo, 'appendHistory' | 'appendChangedHistory' | 'upsertStates'>;
  /** Told the current states each write stored, once they are committed; must not wait on anything. */
  onStored?: (rows: readonly ReportRow[]) => void;
  /**
   * Current states per write (default 250): small on PGlite on the server's thread, where a write holds that
   * thread and the history's next batch waits behind it; PostgreSQL, or PGlite in its worker thread, runs
   * beside the server and takes larger ones for less.
   */
  stateBatch?: number;
  /**
   * Lets the history go first under load: while it has rows waiting, a round of current-state writes waits
   * up to this long after the previous round began (default: no waiting). A device's newer states replace its
   * older ones meanwhile.
   */
  statesYieldMs?: number;
  /**
   * Change-only history: a state equal to the device's last history row (whichever node wrote it) is left out of
   * the history (it still becomes the current state) unless that row is this old, server clock. Unset: every
   * reported state is kept.
   */
  historyHeartbeatMs?: number;
  /**
   * The database has no other writer (PGlite): change-only history remembers each device's last history row in
   * this process instead of in the database. The decision is the same, without a transaction that would hold the
   * embedded database's one connection from every other query (measured: control calls' p50 x5 at 50/s).
   */
  historyInProcess?: boolean;
}

/** What the history did with the rows the database took (both count in `stats.written`). */
export interface HistoryStats {
  /** Rows appended to device_reports. */
  appended: number;
  /** Rows left out as unchanged (change-only history); they went to the current states only. */
  unchanged: number;
}

/**
 * The ingest path of up/report: each device's state is appended to the history (device_reports) in arrival
 * order through the shared batch writer (bounded queue, batches, retries, backpressure), or, with
 * `historyHeartbeatMs`, only when it changed or the heartbeat is due (decided in the database, against the
 * device's last history row, by `appendChangedHistory`); once written, it becomes the device's
 * current state (device_states) through a second writer that keeps only each device's newest state while it
 * waits, so a device reporting faster than the database writes costs one upsert per write, not one per report.
 */
export function createReportWriter(options: ReportWriterOptions) {
  const heartbeatMs = options.historyHeartbeatMs;
  /** What the history last took of each device, when this process decides (historyInProcess); empty at start. */
  const lastTaken = options.historyInProcess ? new Map<string, Taken>() : undefined;
  async function appendChangedInProcess(
    rows: readonly ReportRow[],
    heartbeatMs: number,
    taken: Map<string, Taken>,
  ): Promise<ChangesResult> {
    const selection = selectChanges(rows, taken, deviceKey, heartbeatMs);
    const result = await options.repo.appendHistory(selection.kept);
    // Remembered once written, and only for gateways the database knew: their rows were taken.
    const unknown = new Set(result.unknownMacs);
    const kept = new Set(selection.kept);
    for (const row of selection.kept) {
      const key = deviceKey(row);
      const last = selection.taken.get(key);
      if (last && !unknown.has(row.mac)) taken.set(key, last);
    }
    // As in the database's decision, a row of an unknown gateway is neither written nor left out as unchanged.
    const unchanged = rows.filter((r) => !kept.has(r) && !unknown.has(r.mac)).length;
    return { reports: result.reports, unchanged, unknownMacs: result.unknownMacs };
  }
  const historyStats: HistoryStats = { appended: 0, unchanged: 0 };
  const states = createRowWriter<ReportRow>(
    {
      noun: 'device state',
      latestBy: (row) => `${row.mac}/${row.addr}`,
      async write(rows) {
        await options.repo.upsertStates(rows);
        options.onStored?.(rows);
        // A state older than the stored one counts as written: it was taken and lost the race.
        return { written: rows.length, unknownMacs: [] };
      },
      ...(options.statesYieldMs ? { yieldTo: { behind: () => history.queued > 0, maxWaitMs: options.statesYieldMs } } : {}),
    },
    { ...options, maxBatch: options.stateBatch ?? 250 },
  );
  const history = createBatchWriter<ReportMessage, ReportRow>(
    {
      noun: 'device report',
      async write(rows) {
        const result: ChangesResult =
          heartbeatMs === undefined
            ? { ...(await options.repo.appendHistory(rows)), unchanged: 0 }
            : lastTaken
              ? await appendChangedInProcess(rows, heartbeatMs, lastTaken)
              : await options.repo.appendChangedHistory(rows, heartbeatMs);
        const { unchanged } = result;
        historyStats.appended += result.reports;
        historyStats.unchanged += unchanged;
        // The current states wait for room like the history does: a slow database slows the link down.
        await states.push(rows);
        if (history.queued === 0) states.wake();
        // A row left out as unchanged was taken: its gateway is known, and it still becomes the current state.
        return { written: result.reports + unchanged, unknownMacs: result.unknownMacs };
      },
      rowsOf: (mac, report, reportedAt, receivedAt) =>
        report.devices.map((d) => ({
          mac,
          addr: d.addr,
          kind: d.kind,
          online: d.online,
          fault: d.fault,
          state: d,
          reportedAt,
          receivedAt,
        })),
      ts: (report) => report.ts,
    },
    options,
  );
  return {
    /** Counts of the history rows (what was reported); `states` counts the current-state upserts. */
    stats: history.stats,
    states: states.stats,
    /** What became of the written rows: appended to the history, or left out as unchanged. */
    history: historyStats,
    get queued(): number {
      return history.queued;
    },
    accept: history.accept,
    /** Resolves when everything accepted so far is in the history and the current states. */
    async flush(): Promise<void> {
      await history.flush();
      await states.flush();
    },
    async close(): Promise<void> {
      await history.close();
      await states.close();
    },
  };
}
export type ReportWriter = ReturnType<typeof createReportWriter>;
