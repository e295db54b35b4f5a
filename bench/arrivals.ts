import type { SqlClient } from './bulk-load.ts';

/** What the poller saw: rows and, per row, the ms from its report timestamp to the poll that saw it. */
export interface Arrivals {
  rows: number;
  lastSeenAt: number;
  /** Latency samples as [ms, rows] pairs (one pair per report time per poll). */
  latencies: Array<[number, number]>;
  stop(): Promise<void>;
}

/**
 * Polls device_reports for rows after a known id, as a reader of the history would, and records when each
 * report time first became visible. Rows commit in id order (one writer), so "id > last seen" misses none.
 */
export function pollArrivals(sql: SqlClient, afterId: string): Arrivals {
  let last = afterId;
  let stopped = false;
  const state: Arrivals = {
    rows: 0,
    lastSeenAt: Date.now(),
    latencies: [],
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await sql.query<{ max_id: string; ts: number; n: number }>(
        `select max(id)::text as max_id, (extract(epoch from reported_at) * 1000)::float8 as ts, count(*)::int as n
         from device_reports where id > $1 group by reported_at`,
        [last],
      );
      const seenAt = Date.now();
      for (const r of rows) {
        state.rows += r.n;
        state.latencies.push([seenAt - Number(r.ts), r.n]);
        if (BigInt(r.max_id) > BigInt(last)) last = r.max_id;
      }
      if (rows.length) state.lastSeenAt = seenAt;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return state;
}

/** The latency below which a share q of the rows arrived (q = 1: the maximum), ms. */
export function percentile(samples: Array<[number, number]>, q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  let seen = 0;
  for (const [ms, n] of sorted) {
    seen += n;
    if (seen >= q * total) return Math.round(ms);
  }
  return Math.round(sorted[sorted.length - 1]![0]);
}
