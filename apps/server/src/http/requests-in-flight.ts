import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface RequestsInFlight {
  /** Requests the server has begun and not yet answered (or seen abandoned). */
  readonly count: number;
  /** Resolves at the next moment no request is being answered (at once when none is). */
  idle(): Promise<void>;
}

/**
 * Counts the requests being answered, so that work nobody waits for (the audit trail's inserts) can go to the
 * database between requests rather than in front of their statements: PGlite answers one statement at a time.
 * The real-time sockets are not Fastify's requests and do not count.
 */
export function trackRequestsInFlight(app: FastifyInstance): RequestsInFlight {
  let open = 0;
  let waiting: Array<() => void> = [];
  const counted = new WeakSet<FastifyRequest>();

  const end = async (request: FastifyRequest) => {
    // An abandoned request may still be answered after its abort hook: it ends once.
    if (!counted.delete(request)) return;
    open--;
    if (open > 0) return;
    const wake = waiting;
    waiting = [];
    for (const resolve of wake) resolve();
  };
  app.addHook('onRequest', async (request) => {
    counted.add(request);
    open++;
  });
  app.addHook('onResponse', end);
  app.addHook('onRequestAbort', end);

  return {
    get count() {
      return open;
    },
    idle: () => (open === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
  };
}
