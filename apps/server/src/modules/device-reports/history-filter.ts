import { createHash } from 'node:crypto';
import type { ReportRow } from './device-reports.repo.ts';

/** What the history last took of a device: a digest of its state, and when it was received (server clock, epoch ms). */
export interface Taken {
  digest: number;
  at: number;
}

/**
 * 48 bits of the SHA-1 of the state, taken in a key order that does not depend on the gateway's: it fits a
 * bigint column and a JavaScript number, and two different states of one device share it with a chance of 2^-48.
 */
export function digestOf(row: ReportRow): number {
  const state = row.state as unknown as Record<string, unknown>;
  const canonical = JSON.stringify(
    Object.keys(state)
      .sort()
      .map((key) => [key, state[key]]),
  );
  return createHash('sha1').update(canonical).digest().readUIntBE(0, 6);
}

/** The decision for one batch: the rows the history takes, and what it then last took of each device. */
export interface HistorySelection {
  /** The rows the history takes, in their order. */
  kept: ReportRow[];
  /** The rows left out: the same state as the device's last history row, within the heartbeat. */
  unchanged: number;
  /** Per device key, the last row taken, for the devices whose last row changed. */
  taken: Map<string, Taken>;
}

/**
 * Change-only history: a reported state goes into the history when it differs from the device's last history
 * row, or when that row is `heartbeatMs` old (so a device that went silent shows as a gap). `last` is what the
 * history last took of each device, read from the database under the devices' locks, so the nodes sharing the
 * database decide one after another. A row received before the last history row (it waited on another node) is
 * kept, as it cannot be judged, and leaves the last one as it is.
 */
export function selectChanges(
  rows: readonly ReportRow[],
  last: ReadonlyMap<string, Taken>,
  keyOf: (row: ReportRow) => string,
  heartbeatMs: number,
): HistorySelection {
  const kept: ReportRow[] = [];
  const taken = new Map<string, Taken>();
  for (const row of rows) {
    const key = keyOf(row);
    const digest = digestOf(row);
    const at = Date.parse(row.receivedAt);
    const before = taken.get(key) ?? last.get(key);
    if (before && at < before.at) {
      kept.push(row);
      continue;
    }
    if (before && before.digest === digest && at - before.at < heartbeatMs) continue;
    kept.push(row);
    taken.set(key, { digest, at });
  }
  return { kept, unchanged: rows.length - kept.length, taken };
}
