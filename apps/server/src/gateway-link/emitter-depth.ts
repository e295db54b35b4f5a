/** The part of Aedes's message emitter (mqemitter) that hands a queued message on. */
interface QueueingEmitter {
  /** Messages being delivered now; at the emitter's concurrency, new ones wait in its queue. */
  current: number;
  _do(message: unknown, callback: unknown): unknown;
}

/** Queued messages handed on within one call stack before the next one waits for the event loop. */
export const MAX_NESTED_DELIVERIES = 200;

/**
 * Keeps Aedes's emitter from overflowing the stack. When its concurrency is reached, mqemitter queues messages and
 * starts the next one from inside the completion of the one before; a message that completes at once (no
 * subscriber, or subscribers that answer synchronously) thus starts the next a few frames deeper, and a backlog of
 * some thousands ends in "Maximum call stack size exceeded", which takes the server down with its broker (seen when
 * 5,000 gateways left together; mcollina/mqemitter#204). Every `maxNested`-th nested hand-on waits for the event
 * loop instead, keeping its delivery slot meanwhile, so that messages emitted in between still queue behind it and
 * the order stays the emitter's.
 */
export function boundEmitterRecursion(emitter: unknown, maxNested = MAX_NESTED_DELIVERIES): void {
  const mq = emitter as QueueingEmitter;
  if (typeof mq._do !== 'function' || typeof mq.current !== 'number') {
    throw new Error("the MQTT broker's emitter is not the mqemitter this server knows");
  }
  const handOn = mq._do.bind(mq);
  let depth = 0;
  mq._do = (message, callback) => {
    if (depth >= maxNested) {
      mq.current++;
      setImmediate(() => {
        mq.current--;
        handOn(message, callback);
      });
      return mq;
    }
    depth++;
    try {
      return handOn(message, callback);
    } finally {
      depth--;
    }
  };
}
