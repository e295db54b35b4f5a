import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';

/** Where PGlite's database lives: a data folder, or memory (optionally started from a dumped data folder). */
export type PgliteTarget = { dataDir: string } | { memory: true; image?: Blob };

/** What runs inside a transaction: its statements go to it, and nothing else runs until it ends. */
export interface PgliteThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * The part of PGlite's client that Drizzle's PGlite driver, the migrator and the platform call, answered by
 * PGlite in a worker thread (pglite.worker.mjs).
 */
export interface PgliteThread {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(callback: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
  close(): Promise<void>;
  readonly closed: boolean;
}

type Request =
  | { op: 'query'; sql: string; params?: unknown[]; options?: WireOptions; tx?: number }
  | { op: 'exec'; sql: string; options?: WireOptions; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump'; compression?: 'none' | 'gzip' | 'auto' }
  | { op: 'close' };
type WireOptions = { rowMode?: 'array' | 'object'; rawTypes?: number[]; blob?: Blob; paramTypes?: number[] };
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorFields };
type ErrorFields = { name: string; message: string } & Record<string, unknown>;

/** A database error as the worker saw it: message, name and PostgreSQL fields (code, constraint, detail...). */
function errorFrom(fields: ErrorFields): Error {
  return Object.assign(new Error(fields.message), fields);
}

// A parser is a function and cannot cross to the worker; the only ones Drizzle passes keep the text of a
// type (its dates and intervals). The worker rebuilds those from the types' ids; any other is refused.
const PROBE = '\u0000probe';
function wireOptions(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  const { parsers, serializers, rowMode, blob, paramTypes, ...rest } = options;
  if (serializers || Object.keys(rest).some((key) => (rest as Record<string, unknown>)[key] !== undefined))
    throw new Error(
      `PGlite thread: unsupported query options ${Object.keys({ ...rest, ...(serializers ? { serializers } : {}) }).join(', ')}`,
    );
  const wire: WireOptions = { rowMode, blob, paramTypes };
  if (parsers) {
    const types = Object.keys(parsers).map(Number);
    if (types.some((type) => parsers[type]!(PROBE) !== PROBE))
      throw new Error('PGlite thread: only parsers that keep the text can cross to the worker');
    wire.rawTypes = types;
  }
  return wire;
}

/**
 * PGlite's WebAssembly and file bundle, compiled and read once per process: every worker gets the compiled
 * modules instead of compiling 9 MB of WebAssembly again.
 */
// The server's lib has WebAssembly's types but not its global object.
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly;
let artifacts: Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;
function pgliteArtifacts() {
  artifacts ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasmModule, initdbWasmModule, fsBundle] = await Promise.all([
      readFile(join(dist, 'pglite.wasm')).then((bytes) => wasm.compile(bytes)),
      readFile(join(dist, 'initdb.wasm')).then((bytes) => wasm.compile(bytes)),
      readFile(join(dist, 'pglite.data')).then((bytes) => new Blob([bytes])),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle };
  })();
  // A failed read is tried again by the next start rather than kept.
  artifacts.catch(() => (artifacts = undefined));
  return artifacts;
}

const threads = new WeakSet<object>();

/** Whether a client is PGlite in a worker thread (rather than on the caller's). */
export const isPgliteThread = (client: unknown) => typeof client === 'object' && client !== null && threads.has(client);

/** Starts PGlite in a worker thread and answers once the database is ready. */
export async function startPgliteThread(target: PgliteTarget): Promise<PgliteThread> {
  const worker = new Worker(new URL('./pglite.worker.mjs', import.meta.url), {
    workerData: {
      ...(await pgliteArtifacts()),
      dataDir: 'dataDir' in target ? target.dataDir : undefined,
      loadDataDir: 'image' in target ? target.image : undefined,
    },
    // Plain JavaScript: the TypeScript loader the server may run under would only slow the start.
    execArgv: [],
  });
  let stopped: Error | undefined;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let closing: Promise<void> | undefined;

  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      void worker.terminate();
      reject(error);
    };
    worker.once('message', (message: { ready: true } | { ready: false; error: ErrorFields }) =>
      message.ready ? resolve() : failed(errorFrom(message.error)),
    );
    worker.once('error', failed);
    worker.once('exit', (code) => reject(new Error(`PGlite's thread stopped while starting (exit code ${code})`)));
  });

  const stop = (error: Error) => {
    stopped ??= error;
    for (const { reject } of waiting.values()) reject(stopped);
    waiting.clear();
  };
  worker.on('message', (answer: Answer) => {
    const request = waiting.get(answer.id);
    if (!request) return;
    waiting.delete(answer.id);
    // An idle thread must not keep the process alive, as PGlite in the process itself does not.
    if (waiting.size === 0) worker.unref();
    if (answer.ok) request.resolve(answer.value);
    else request.reject(errorFrom(answer.error));
  });
  worker.on('error', (error) => stop(error));
  worker.on('exit', (code) => stop(new Error(closing ? 'PGlite is closed' : `PGlite's thread stopped (exit code ${code})`)));
  worker.unref();

  function send<T>(request: Request): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    if (waiting.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, ...request });
    });
  }

  const query = async <T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number) =>
    send<Results<T>>({ op: 'query', sql, params, options: wireOptions(options), tx });
  const exec = async (sql: string, options?: QueryOptions, tx?: number) =>
    send<Results[]>({ op: 'exec', sql, options: wireOptions(options), tx });

  const thread: PgliteThread = {
    query: (sql, params, options) => query(sql, params, options),
    exec: (sql, options) => exec(sql, options),
    async transaction(callback) {
      const tx = await send<number>({ op: 'begin' });
      let ended = false;
      const open = () => {
        if (ended) throw new Error('Transaction is closed');
      };
      const end = (commit: boolean) => {
        ended = true;
        return send<void>({ op: 'end', tx, commit });
      };
      const transaction: PgliteThreadTransaction = {
        query: async (sql, params, options) => (open(), query(sql, params, options, tx)),
        exec: async (sql, options) => (open(), exec(sql, options, tx)),
        rollback: async () => (open(), end(false)),
        get closed() {
          return ended;
        },
      };
      try {
        const result = await callback(transaction);
        if (!ended) await end(true);
        return result;
      } catch (error) {
        if (!ended) await end(false);
        throw error;
      }
    },
    dumpDataDir: (compression) => send<Blob>({ op: 'dump', compression }),
    close() {
      closing ??= send<void>({ op: 'close' }).then(async () => {
        await worker.terminate();
      });
      return closing;
    },
    get closed() {
      return closing !== undefined || stopped !== undefined;
    },
  };
  threads.add(thread);
  return thread;
}
