// @ts-check
/**
 * PGlite in a worker thread: the database's WebAssembly runs here, so a long write never holds the server's
 * event loop. It answers the messages of pglite-thread.ts (the server's side, which Drizzle takes as its
 * PGlite client). PGlite serves one statement at a time and runs a standalone query only when no
 * transaction is open, so ordering and isolation are PGlite's own. Plain JavaScript on purpose: worker
 * threads start without the TypeScript loader the server runs under.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * @typedef {{ rowMode?: 'array' | 'object'; rawTypes?: number[]; blob?: Blob; paramTypes?: number[] }} QueryOptions
 * @typedef {{ id: number; op: 'query'; sql: string; params?: unknown[]; options?: QueryOptions; tx?: number }
 *   | { id: number; op: 'exec'; sql: string; options?: QueryOptions; tx?: number }
 *   | { id: number; op: 'begin' }
 *   | { id: number; op: 'end'; tx: number; commit: boolean }
 *   | { id: number; op: 'dump'; compression?: 'none' | 'gzip' | 'auto' }
 *   | { id: number; op: 'close' }} Request
 */

/** @type {{ dataDir?: string; loadDataDir?: Blob; pgliteWasmModule?: WebAssembly.Module; initdbWasmModule?: WebAssembly.Module; fsBundle?: Blob }} */
const input = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** Thrown inside a transaction's callback to make PGlite roll it back; never leaves this thread. */
const ROLLBACK = Symbol('rollback');

/** @type {Map<number, { tx: import('@electric-sql/pglite').Transaction; end(commit: boolean): void; done: Promise<void> }>} */
const transactions = new Map();
let nextTransaction = 1;

/** Parsers that keep the text of some types (Drizzle's dates and intervals), made once per set of types. */
/** @type {Map<string, Record<number, (value: string) => string>>} */
const rawParsers = new Map();
/** @param {number[]} types */
function parsersKeeping(types) {
  const key = types.join(',');
  let parsers = rawParsers.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, (/** @type {string} */ value) => value]));
    rawParsers.set(key, parsers);
  }
  return parsers;
}

/** @param {QueryOptions | undefined} options */
function pgliteOptions(options) {
  if (!options) return undefined;
  const { rawTypes, ...rest } = options;
  return rawTypes ? { ...rest, parsers: parsersKeeping(rawTypes) } : rest;
}

/**
 * The error's PostgreSQL fields (code, constraint, detail...) and name, which a structured clone of an Error
 * drops; functions (PGlite attaches the query's parsers) cannot cross at all.
 * @param {unknown} error
 */
function plainError(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  /** @type {Record<string, unknown>} */
  const fields = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

/**
 * @param {PGlite} pg
 * @param {number} id
 */
function begin(pg, id) {
  const txId = nextTransaction++;
  /** @type {(commit: boolean) => void} */
  let end = () => {};
  const ended = new Promise((resolve) => (end = resolve));
  let begun = false;
  const done = pg
    .transaction(async (tx) => {
      begun = true;
      transactions.set(txId, { tx, end, done });
      port.postMessage({ id, ok: true, value: txId });
      if (!(await ended)) throw ROLLBACK;
    })
    .then(
      () => {},
      (error) => {
        if (error === ROLLBACK) return;
        // A failed BEGIN answers the begin; a failed COMMIT answers the end.
        if (!begun) port.postMessage({ id, ok: false, error: plainError(error) });
        else throw error;
      },
    )
    .finally(() => transactions.delete(txId));
}

/**
 * @param {PGlite} pg
 * @param {number | undefined} txId
 */
function target(pg, txId) {
  if (txId === undefined) return pg;
  const open = transactions.get(txId);
  if (!open) throw new Error('Transaction is closed');
  return open.tx;
}

/**
 * @param {PGlite} pg
 * @param {Request} request
 */
async function answer(pg, request) {
  switch (request.op) {
    case 'query':
      return await target(pg, request.tx).query(request.sql, request.params, pgliteOptions(request.options));
    case 'exec':
      return await target(pg, request.tx).exec(request.sql, pgliteOptions(request.options));
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error('Transaction is closed');
      open.end(request.commit);
      await open.done;
      return undefined;
    }
    case 'dump':
      return await pg.dumpDataDir(request.compression);
    case 'close':
      await pg.close();
      return undefined;
    default:
      throw new Error(`unknown request ${/** @type {{ op: string }} */ (request).op}`);
  }
}

async function start() {
  const pg = new PGlite({
    dataDir: input.dataDir,
    loadDataDir: input.loadDataDir,
    pgliteWasmModule: input.pgliteWasmModule,
    initdbWasmModule: input.initdbWasmModule,
    fsBundle: input.fsBundle,
  });
  try {
    await pg.waitReady;
  } catch (error) {
    port.postMessage({ ready: false, error: plainError(error) });
    return;
  }
  port.on('message', (/** @type {Request} */ request) => {
    if (request.op === 'begin') return begin(pg, request.id);
    answer(pg, request).then(
      (value) => port.postMessage({ id: request.id, ok: true, value }),
      (error) => port.postMessage({ id: request.id, ok: false, error: plainError(error) }),
    );
  });
  port.postMessage({ ready: true });
}

void start();
