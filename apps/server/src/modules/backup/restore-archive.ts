import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Database } from '../../db/client.ts';
import { isTransactionConflict } from '../../db/errors.ts';
import { ArchiveRejected, extractVerified, type Manifest } from './backup-archive.ts';
import { readCatalogue, readSchemaVersion, tableLoader, type TableInfo } from './backup.repo.ts';

/** Share of the progress bar reading and checking the archive takes; loading the rows takes the rest. */
const VERIFY_SHARE = 30;
/** Rows a single insert carries; bounded in bytes too, so a table of large rows never builds a huge statement. */
const BATCH_ROWS = 1000;
const BATCH_BYTES = 4 * 1024 * 1024;

/** The running tables in the archive's column order; an archive of another shape is refused (100804). */
function matchTables(manifest: Manifest, running: TableInfo[]): TableInfo[] {
  const byName = new Map(running.map((t) => [t.name, t]));
  if (manifest.tables.length !== running.length) throw new ArchiveRejected(100804, 'the archive holds other tables');
  return manifest.tables.map((t) => {
    const here = byName.get(t.name);
    const same =
      here &&
      here.columns.length === t.columns.length &&
      t.columns.every((c) => here.columns.some((h) => h.name === c.name && h.type === c.type));
    if (!same) throw new ArchiveRejected(100804, `table ${t.name} differs`);
    return { name: t.name, columns: t.columns, orderBy: t.orderBy, partitions: t.partitions };
  });
}

async function* batches(file: string): AsyncGenerator<string[]> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let batch: string[] = [];
  let bytes = 0;
  for await (const line of lines) {
    batch.push(line);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Replaces the uploaded files with the archive's: the new folder is moved in and the old one removed, so a
 * reader sees one or the other.
 */
async function swapUploads(dataDir: string, staged: string, workId: string) {
  const current = join(dataDir, 'uploads');
  const old = join(dataDir, `.uploads-replaced-${workId}`);
  await mkdir(staged, { recursive: true });
  const hadUploads = await stat(current).then(
    () => true,
    () => false,
  );
  if (hadUploads) await rename(current, old);
  await rename(staged, current);
  await rm(old, { recursive: true, force: true });
}

/**
 * Restores an archive: reads and checks all of it first (every checksum, the schema version, the tables),
 * and only then, in one transaction, empties every table and loads the archive's rows, then swaps the
 * uploaded files. A refused or failed restore leaves the data as it was.
 */
export async function restoreArchive(q: {
  database: Pick<Database, 'db' | 'kind'>;
  dataDir: string;
  file: string;
  workId: string;
  onPercent: (percent: number) => void;
  /** Runs after the archive was verified, before anything changes (what the restore must undo elsewhere). */
  beforeChange: () => Promise<void>;
}): Promise<Manifest> {
  const { db } = q.database;
  const staging = join(q.dataDir, `.lumigrid-restore-${q.workId}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const size = Math.max(1, (await stat(q.file)).size);
    let read = 0;
    const manifest = await extractVerified({
      file: q.file,
      staging,
      schema: await readSchemaVersion(db),
      onBytes: (n) => q.onPercent(((read += n) / size) * VERIFY_SHARE),
    });
    const tables = matchTables(manifest, await readCatalogue(db));
    const total = Math.max(
      1,
      manifest.tables.reduce((a, t) => a + t.rows, 0),
    );
    await q.beforeChange();
    for (let attempt = 1; ; attempt++) {
      try {
        await db.transaction(async (tx) => {
          const loader = tableLoader(tx, tables);
          await loader.begin();
          let done = 0;
          for (const [i, table] of tables.entries()) {
            const entry = manifest.tables[i]!;
            let rows = 0;
            for await (const batch of batches(join(staging, entry.file))) {
              await loader.insert(table, batch);
              rows += batch.length;
              done += batch.length;
              q.onPercent(VERIFY_SHARE + (done / total) * (98 - VERIFY_SHARE));
            }
            if (rows !== entry.rows)
              throw new ArchiveRejected(100803, `table ${table.name}: ${rows} rows, the manifest says ${entry.rows}`);
          }
          await loader.finish();
        });
        break;
      } catch (error) {
        // A writer holding a table the restore needs may deadlock with it: PostgreSQL ends one, the restore tries again.
        if (attempt >= 3 || !isTransactionConflict(error)) throw error;
      }
    }
    await swapUploads(q.dataDir, join(staging, 'uploads'), q.workId);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
