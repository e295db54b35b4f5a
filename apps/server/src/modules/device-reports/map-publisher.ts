import type { FastifyBaseLogger } from 'fastify';

/**
 * Tells the map topics about reported devices once their reports are in the database. Reports arriving while
 * a write is under way are gathered per gateway and published together after one flush, so a burst of
 * reports costs one query per gateway, not one per report.
 */
export function createMapPublisher(deps: {
  /** Resolves when every report accepted so far is written (the report writer's flush). */
  flush: () => Promise<void>;
  publishReported: (mac: string, addrs: string[]) => Promise<void>;
  logger: FastifyBaseLogger;
}) {
  const pending = new Map<string, Set<string>>();
  let waiting = false;

  async function drain() {
    await deps.flush();
    waiting = false;
    const batch = [...pending];
    pending.clear();
    for (const [mac, addrs] of batch) {
      await deps
        .publishReported(mac, [...addrs])
        .catch((err: unknown) => deps.logger.warn({ err, mac }, 'map topics not told about a report'));
    }
  }

  return {
    /** A report the writer has accepted: its devices go to their maps' topics after the write. */
    noteReport(mac: string, addrs: readonly string[]) {
      let set = pending.get(mac);
      if (!set) pending.set(mac, (set = new Set()));
      for (const addr of addrs) set.add(addr);
      if (waiting) return;
      waiting = true;
      void drain();
    },
  };
}
