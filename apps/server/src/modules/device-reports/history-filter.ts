import { createHash } from 'node:crypto';
import type { ReportRow } from './device-reports.repo.ts';

/** What the history last took of a device: a digest of its state, and when (server clock, epoch ms). */
interface Taken {
  digest: number;
  at: number;
}

/**
 * 48 bits of the SHA-1 of the state, taken in a key order that does not depend on the gateway's: a number keeps
 * the memory small, and two different states of one device share it with a chance of 2^-48.
 */
function digestOf(row: ReportRow): number {
  const state = row.state as unknown as Record<string, unknown>;
  const canonical = JSON.stringify(
    Object.keys(state)
      .sort()
      .map((key) => [key, state[key]]),
  );
  return createHash('sha1').update(canonical).digest().readUIntBE(0, 6);
}

/** The filter's decision for one batch; `commit` applies it once the batch is in the database. */
export interface HistorySelection {
  /** The rows the history takes, in their order. */
  kept: ReportRow[];
  /** The rows left out: the same state as the device's last history row, within the heartbeat. */
  unchanged: number;
  /** Remembers the kept rows of the gateways the database knew. */
  commit(unknownMacs: readonly string[]): void;
}

/**
 * Change-only history: a reported state goes into the history when it differs from the last one this process
 * wrote for the device, or when that one is `heartbeatMs` old (so a device that went silent shows as a gap).
 * The memory is this process's own and starts empty, so a device's first report after a start is written.
 */
export function createHistoryFilter(options: { heartbeatMs: number }) {
  const taken = new Map<string, Taken>();
  return {
    /** Devices remembered. */
    get size(): number {
      return taken.size;
    },

    select(rows: readonly ReportRow[]): HistorySelection {
      const kept: ReportRow[] = [];
      // Decisions of this batch, seen by its later rows and remembered only when the write succeeds.
      const pending = new Map<string, Taken & { mac: string }>();
      for (const row of rows) {
        const key = `${row.mac}/${row.addr}`;
        const digest = digestOf(row);
        const at = Date.parse(row.receivedAt);
        const last = pending.get(key) ?? taken.get(key);
        if (last && last.digest === digest && at - last.at < options.heartbeatMs) continue;
        kept.push(row);
        pending.set(key, { digest, at, mac: row.mac });
      }
      return {
        kept,
        unchanged: rows.length - kept.length,
        commit(unknownMacs) {
          const unknown = new Set(unknownMacs);
          for (const [key, { digest, at, mac }] of pending) if (!unknown.has(mac)) taken.set(key, { digest, at });
        },
      };
    },
  };
}
export type HistoryFilter = ReturnType<typeof createHistoryFilter>;
