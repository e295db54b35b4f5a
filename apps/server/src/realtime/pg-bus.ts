import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { RealtimeBus, RealtimeEvent } from './realtime-bus.ts';

/** The NOTIFY channel every server node of one database listens on. */
export const PG_BUS_CHANNEL = 'lumigrid_realtime';
/** The connection's application_name, so an operator sees the bus in pg_stat_activity. */
export const PG_BUS_APPLICATION = 'lumigrid-realtime-bus';
/** NOTIFY payloads must stay under 8000 bytes; a longer event travels in parts of at most this many characters. */
const PART_CHARS = 2000;
/** A single NOTIFY carries an event of up to this many bytes whole. */
const WHOLE_BYTES = 7000;
/** Events waiting while the connection is down; older ones are dropped (real-time notices are best effort). */
const MAX_QUEUED = 10_000;
/** Parts of an unfinished event are forgotten after this long (a node that died halfway). */
const PART_TTL_MS = 30_000;

export interface PgBusOptions {
  /** The PostgreSQL database every node shares (DATABASE_URL). */
  url: string;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  channel?: string;
  /** First reconnect delay, doubling to 5 s. */
  retryMs?: number;
}

/**
 * The cross-node real-time bus on PostgreSQL LISTEN/NOTIFY (ARCHITECTURE.md section 6): every node listens on
 * one channel of the shared database, and an event published on any node reaches the STOMP connections of all
 * of them, this one's included. One dedicated connection both listens and notifies, so a node's events keep
 * their order. Events larger than a NOTIFY payload travel in numbered parts and are put together again.
 * While the connection is down, events wait in a bounded queue and the connection is retried.
 */
export async function createPgBus(options: PgBusOptions): Promise<RealtimeBus> {
  const channel = options.channel ?? PG_BUS_CHANNEL;
  const { logger } = options;
  const handlers = new Set<(event: RealtimeEvent) => void>();
  const queue: string[] = [];
  const partial = new Map<string, { parts: string[]; got: number; at: number }>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry = options.retryMs ?? 200;
  let sending: Promise<void> | undefined;
  let reconnecting: NodeJS.Timeout | undefined;

  function deliver(text: string) {
    let event: RealtimeEvent;
    try {
      event = JSON.parse(text) as RealtimeEvent;
    } catch {
      logger.warn({ channel }, 'dropped a real-time bus message that is not JSON');
      return;
    }
    for (const handler of handlers) {
      try {
        handler(event);
      } catch (error) {
        logger.error({ err: error }, 'real-time bus handler failed');
      }
    }
  }

  /** Payloads: `=<json>` whole, or `<id>:<index>:<count>:<part>`. */
  function receive(payload: string) {
    if (payload.startsWith('=')) return deliver(payload.slice(1));
    const match = /^([0-9a-f]{16}):(\d+):(\d+):/.exec(payload);
    if (!match) return;
    const [head, id = '', index, count] = match;
    const now = Date.now();
    for (const [key, value] of partial) if (now - value.at > PART_TTL_MS) partial.delete(key);
    let entry = partial.get(id);
    if (!entry) partial.set(id, (entry = { parts: new Array<string>(Number(count)), got: 0, at: now }));
    if (entry.parts[Number(index)] === undefined) entry.got += 1;
    entry.parts[Number(index)] = payload.slice(head.length);
    if (entry.got === entry.parts.length) {
      partial.delete(id);
      deliver(entry.parts.join(''));
    }
  }

  function encode(event: RealtimeEvent): string[] {
    const text = JSON.stringify(event);
    if (Buffer.byteLength(text) <= WHOLE_BYTES) return [`=${text}`];
    const id = randomBytes(8).toString('hex');
    const parts: string[] = [];
    for (let start = 0; start < text.length;) {
      let end = Math.min(start + PART_CHARS, text.length);
      // Never cut a surrogate pair: each part must be valid UTF-16 to reach PostgreSQL as UTF-8.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
      parts.push(text.slice(start, end));
      start = end;
    }
    return parts.map((part, i) => `${id}:${i}:${parts.length}:${part}`);
  }

  /** Sends what is queued; one run at a time, and close() waits for it so the last events still go out. */
  function flush(): Promise<void> {
    sending ??= sendQueued().finally(() => (sending = undefined));
    return sending;
  }

  async function sendQueued() {
    try {
      while (client && queue.length > 0) {
        const payload = queue[0]!;
        await client.query('select pg_notify($1, $2)', [channel, payload]);
        queue.shift();
      }
    } catch (error) {
      // The connection's 'error' handler reconnects; what is left in the queue goes out then.
      logger.warn({ err: error }, 'real-time bus could not notify; will retry');
    }
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: options.url, application_name: PG_BUS_APPLICATION });
    c.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) receive(message.payload);
    });
    c.on('error', (error) => {
      logger.warn({ err: error }, 'real-time bus connection lost');
      lost(c);
    });
    c.on('end', () => lost(c));
    await c.connect();
    await c.query(`listen ${pg.escapeIdentifier(channel)}`);
    client = c;
    retry = options.retryMs ?? 200;
    void flush();
  }

  function lost(c: pg.Client) {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => undefined);
    schedule();
  }

  function schedule() {
    if (closed || reconnecting) return;
    reconnecting = setTimeout(() => {
      reconnecting = undefined;
      connect().catch((error: unknown) => {
        logger.warn({ err: error, retryMs: retry }, 'real-time bus could not reconnect');
        retry = Math.min(retry * 2, 5_000);
        schedule();
      });
    }, retry);
  }

  await connect();
  logger.info({ channel }, 'real-time bus on PostgreSQL LISTEN/NOTIFY');

  return {
    publish(event) {
      if (closed) return;
      queue.push(...encode(event));
      if (queue.length > MAX_QUEUED) {
        const dropped = queue.splice(0, queue.length - MAX_QUEUED).length;
        logger.warn({ dropped }, 'real-time bus queue full; dropped the oldest events');
      }
      void flush();
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      closed = true;
      if (reconnecting) clearTimeout(reconnecting);
      handlers.clear();
      await sending;
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
