import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { BACKUP, type ErrorCode } from '@lumigrid/contract';
import * as tar from 'tar-stream';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

const MANIFEST = 'manifest.json';
/** Far above any real manifest (a line per table and per uploaded file); an archive claiming more is refused. */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;
/** Entry names an archive may hold: its manifest, a table file, an uploaded file, each part a plain name. */
const ENTRY_NAME = /^(tables\/[A-Za-z0-9_]{1,63}\.jsonl|uploads(\/[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}){1,8})$/;

const FileEntrySchema = Type.Object({
  path: Type.String({ pattern: ENTRY_NAME.source }),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

const TableEntrySchema = Type.Object({
  name: Type.String({ pattern: '^[A-Za-z0-9_]{1,63}$' }),
  file: Type.String({ pattern: ENTRY_NAME.source }),
  rows: Type.Integer({ minimum: 0 }),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  columns: Type.Array(
    Type.Object({ name: Type.String({ minLength: 1, maxLength: 63 }), type: Type.String({ minLength: 1, maxLength: 200 }) }),
  ),
  orderBy: Type.Array(Type.String()),
  partitions: Type.Array(Type.Object({ name: Type.String({ pattern: '^[A-Za-z0-9_]{1,63}$' }), bound: Type.String({ maxLength: 2000 }) })),
});

/** What an archive holds, written as its first entry so a listing reads only that. */
export const ManifestSchema = Type.Object({
  format: Type.Literal('lumigrid-backup'),
  formatVersion: Type.Integer(),
  software: Type.String(),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  /** When the database snapshot was taken: every row committed before it is in, none after. */
  snapshotAt: Type.String(),
  schema: Type.Object({ migration: Type.String(), migratedAt: Type.Number() }),
  tables: Type.Array(TableEntrySchema),
  files: Type.Array(FileEntrySchema),
});
export type Manifest = Static<typeof ManifestSchema>;
export type TableEntry = Static<typeof TableEntrySchema>;

/** An archive refused by a restore, with the reason the progress reports (nothing was changed). */
export class ArchiveRejected extends Error {
  constructor(
    readonly reason: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A tar entry's bytes: streamx streams are async-iterable, though its type declarations do not say so. */
const chunksOf = (entry: unknown) => entry as AsyncIterable<Uint8Array>;

/** Counts the bytes flowing through, for progress. */
function byteCounter(onBytes: (n: number) => void) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/** Whether an archive entry name is one a restore may write (no absolute path, no `..`, no odd characters). */
export function isEntryName(name: string): boolean {
  return ENTRY_NAME.test(name) && !name.split('/').some((part) => part === '.' || part === '..');
}

/**
 * Writes the archive: the manifest first, then each staged file under its entry name, gzip-compressed, into
 * `target`. Answers the archive's size.
 */
export async function writeArchive(q: {
  target: string;
  manifest: Manifest;
  /** Entry name -> file on disk. */
  sources: Array<{ name: string; path: string; size: number }>;
  onBytes: (n: number) => void;
}): Promise<number> {
  const pack = tar.pack();
  let written = 0;
  const out = pipeline(
    pack,
    createGzip(),
    byteCounter((n) => (written += n)),
    createWriteStream(q.target, { flags: 'wx' }),
  );
  const fill = (async () => {
    const manifest = Buffer.from(JSON.stringify(q.manifest, null, 1));
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: MANIFEST, size: manifest.length }, manifest, (e) => (e ? reject(e) : resolve())),
    );
    for (const source of q.sources) {
      const entry = pack.entry({ name: source.name, size: source.size, mtime: new Date(0) });
      await pipeline(createReadStream(source.path), byteCounter(q.onBytes), entry);
    }
    pack.finalize();
  })();
  // Either side failing stops both: a pack left open would keep the write waiting for ever.
  await Promise.all([fill.catch((error) => (pack.destroy(error), Promise.reject(error))), out]);
  return written;
}

/**
 * The sha256 and size of a stream, copied into `sink` (closed at the end) when one is given. With `maxBytes`,
 * a stream longer than that is refused (100803) before the chunk that would pass the limit is written.
 */
export async function digest(
  stream: AsyncIterable<Uint8Array>,
  sink?: Writable,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > maxBytes) throw new ArchiveRejected(100803, `an entry is longer than the ${maxBytes} bytes the manifest gives it`);
      hash.update(chunk);
      if (sink && !sink.write(chunk)) await once(sink, 'drain');
    }
  } finally {
    if (sink) {
      sink.end();
      await once(sink, 'close');
    }
  }
  return { sha256: hash.digest('hex'), size };
}

async function readAll(stream: AsyncIterable<Uint8Array>, max: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > max) throw new ArchiveRejected(100803, 'the manifest is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseManifest(data: Buffer): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new ArchiveRejected(100803, 'the manifest is not JSON');
  }
  if (!Value.Check(ManifestSchema, parsed)) throw new ArchiveRejected(100803, 'the manifest does not have the expected shape');
  if (parsed.formatVersion !== BACKUP.formatVersion) throw new ArchiveRejected(100804, `archive format ${parsed.formatVersion}`);
  return parsed;
}

/** Reads only the manifest of an archive (its first entry), for listings. */
export async function readManifest(file: string): Promise<Manifest> {
  const source = createReadStream(file);
  const extract = tar.extract();
  const streams = pipeline(source, createGunzip(), extract).catch(() => undefined);
  try {
    for await (const entry of extract) {
      if (entry.header.name !== MANIFEST) throw new ArchiveRejected(100803, 'the first entry is not the manifest');
      return parseManifest(await readAll(chunksOf(entry), MANIFEST_MAX_BYTES));
    }
    throw new ArchiveRejected(100803, 'the archive is empty');
  } finally {
    source.destroy();
    extract.destroy();
    await streams;
  }
}

/**
 * Reads a whole archive into a staging folder and checks it against its manifest: every entry named by the
 * manifest exactly once, none other, each with its size and sha256, and the manifest made for `schema`.
 * Throws ArchiveRejected (100803 damaged or changed, 100804 another schema); only then may a restore begin.
 * Without `staging` it only checks, writing nothing (a listing saying whether an archive can be restored).
 */
export async function extractVerified(q: {
  file: string;
  staging?: string;
  schema: { migration: string };
  onBytes: (n: number) => void;
}): Promise<Manifest> {
  const extract = tar.extract();
  const streams = pipeline(createReadStream(q.file), byteCounter(q.onBytes), createGunzip(), extract);
  let manifest: Manifest | undefined;
  const expected = new Map<string, { size: number; sha256: string }>();
  const seen = new Set<string>();
  const check = (async () => {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (!manifest) {
        if (name !== MANIFEST) throw new ArchiveRejected(100803, 'the first entry is not the manifest');
        manifest = parseManifest(await readAll(chunksOf(entry), MANIFEST_MAX_BYTES));
        if (manifest.schema.migration !== q.schema.migration)
          throw new ArchiveRejected(100804, `archive schema ${manifest.schema.migration}, running ${q.schema.migration}`);
        for (const t of manifest.tables) expected.set(t.file, t);
        for (const f of manifest.files) expected.set(f.path, f);
        continue;
      }
      const want = expected.get(name);
      if (!want || seen.has(name) || !isEntryName(name) || entry.header.type !== 'file')
        throw new ArchiveRejected(100803, `unexpected entry ${JSON.stringify(name.slice(0, 200))}`);
      // The tar header says how long the entry is: one the manifest does not give that length is refused
      // before a byte of it reaches the disk, and the copy stops at the manifest's length whatever comes.
      if (entry.header.size !== want.size)
        throw new ArchiveRejected(100803, `${name} is ${entry.header.size ?? '?'} bytes, the manifest says ${want.size}`);
      seen.add(name);
      const target = q.staging === undefined ? undefined : join(q.staging, name);
      if (target) await mkdir(dirname(target), { recursive: true });
      try {
        const got = await digest(chunksOf(entry), target ? createWriteStream(target, { flags: 'wx' }) : undefined, want.size);
        if (got.size !== want.size || got.sha256 !== want.sha256) throw new ArchiveRejected(100803, `checksum mismatch in ${name}`);
      } catch (error) {
        if (target) await rm(target, { force: true });
        throw error;
      }
    }
  })();
  try {
    await Promise.all([check.catch((error) => (extract.destroy(error), Promise.reject(error))), streams]);
  } catch (error) {
    if (error instanceof ArchiveRejected) throw error;
    // A file system failure (disk full) is the server's, not the archive's.
    if ((error as NodeJS.ErrnoException).syscall) throw error;
    // A truncated or corrupted file fails in gunzip or the tar parser: the archive, not the server, is at fault.
    throw new ArchiveRejected(100803, error instanceof Error ? error.message : String(error));
  }
  if (!manifest) throw new ArchiveRejected(100803, 'the archive is empty');
  const missing = [...expected.keys()].filter((name) => !seen.has(name));
  if (missing.length > 0) throw new ArchiveRejected(100803, `${missing.length} entries missing, e.g. ${missing[0]}`);
  return manifest;
}
