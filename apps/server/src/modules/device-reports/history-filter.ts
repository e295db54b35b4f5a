import type { ReportRow } from './device-reports.repo.ts';

/** What the history last took of a device: a digest of its state, and when it was received (server clock, epoch ms). */
export interface Taken {
  digest: number;
  at: number;
}

const DIGEST_RANGE = 2 ** 48;

/**
 * A 53-bit hash of a text (cyrb53, public domain): two multiplicative 32-bit lanes mixed at the end. Not a
 * cryptographic hash; a gateway that wanted its changes left out of the history could as well not report them.
 */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 2097152 * (h2 >>> 0) + (h1 >>> 0);
}

/**
 * 48 bits that tell a device's states apart (it fits a bigint column and a JavaScript number): the sum of a hash of
 * each field, name and value, so the gateway's key order does not matter and no keys are sorted. Two different
 * states share it with a chance of about 2^-48. The ingest computes one per reported state (10,500 a second at
 * 5,000 gateways): a SHA-1 of the sorted fields cost three times as much.
 */
export function digestOf(row: ReportRow): number {
  const state = row.state as unknown as Record<string, unknown>;
  let sum = 0;
  for (const key in state) {
    const value = state[key];
    // Each term under 2^48, so the sum stays below 2^53, where a double adds exactly, in any order.
    if (value !== undefined) sum = (sum + (hash53(`${key}\u0000${JSON.stringify(value)}`) % DIGEST_RANGE)) % DIGEST_RANGE;
  }
  return sum;
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
