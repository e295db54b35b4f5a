import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { BACKUP, LIMITS } from '@lumigrid/contract';
import type { Database } from '../../db/client.ts';
import { digest, isEntryName, writeArchive, type Manifest, type TableEntry } from './backup-archive.ts';
import { countRows, readCatalogue, readSchemaVersion, readTableLines, snapshotTime } from './backup.repo.ts';

/** Share of the progress bar the table rows take; packing the archive takes the rest. */
const ROWS_SHARE = 80;

/** `lumigrid-backup-20261126-073000.tar.gz` (UTC), with `-2`, `-3` ... if that name is taken. */
export async function archiveName(dir: string, at: Date): Promise<string> {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  for (let n = 1; ; n++) {
    const name = `lumigrid-backup-${stamp}${n === 1 ? '' : `-${n}`}.tar.gz`;
    if (!BACKUP.fileName.test(name)) throw new Error(`unexpected archive name ${name}`);
    const taken = await lstat(join(dir, name)).then(
      () => true,
      () => false,
    );
    if (!taken) return name;
  }
}

/** Every regular file below a folder, by path relative to it (links and odd names are not followed). */
async function walk(base: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(base, prefix), { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) found.push(...(await walk(base, rel)));
    else if (e.isFile()) found.push(rel);
  }
  return found;
}

/**
 * Freezes the uploaded files as they are now: each is hard-linked into the staging folder (copied when the
 * backup directory is on another disk), so a picture deleted while the archive is packed is still in it.
 */
async function stageUploads(dataDir: string, staging: string, skipped: (path: string) => void) {
  const uploads = join(dataDir, 'uploads');
  const files: Manifest['files'] = [];
  for (const rel of await walk(uploads)) {
    const name = `uploads/${rel}`;
    if (!isEntryName(name)) {
      skipped(name);
      continue;
    }
    const target = join(staging, name);
    await mkdir(join(target, '..'), { recursive: true });
    try {
      await link(join(uploads, rel), target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // deleted since the listing: not part of this backup
      await copyFile(join(uploads, rel), target);
    }
    files.push({ path: name, ...(await digest(createReadStream(target))) });
  }
  return files;
}

/**
 * Takes a backup of the whole installation into `dir`: one snapshot of every table of the public schema
 * (SERIALIZABLE READ ONLY DEFERRABLE, so what it reads is exactly what was committed at one moment while
 * gateways and users keep writing), the uploaded files, and the manifest with sizes and sha256 of each
 * part, packed as one tar.gz. Answers the archive's file name. The archive appears only when complete.
 */
export async function takeBackup(q: {
  database: Pick<Database, 'db' | 'kind'>;
  dataDir: string;
  dir: string;
  name: string;
  workId: string;
  onPercent: (percent: number) => void;
  onSkippedFile: (path: string) => void;
}): Promise<Manifest> {
  const staging = join(q.dir, `.lumigrid-backup-${q.workId}`);
  const partial = join(q.dir, `.${q.name}.partial`);
  await mkdir(join(staging, 'tables'), { recursive: true });
  try {
    const manifest = await q.database.db.transaction(
      async (tx) => {
        const snapshotAt = await snapshotTime(tx);
        const files = await stageUploads(q.dataDir, staging, q.onSkippedFile);
        const schema = await readSchemaVersion(tx);
        const catalogue = await readCatalogue(tx);
        const counts = new Map<string, number>();
        for (const table of catalogue) counts.set(table.name, await countRows(tx, table.name));
        const total = Math.max(
          1,
          [...counts.values()].reduce((a, b) => a + b, 0),
        );
        let done = 0;
        const tables: TableEntry[] = [];
        for (const table of catalogue) {
          const file = `tables/${table.name}.jsonl`;
          if (!isEntryName(file)) throw new Error(`table name ${JSON.stringify(table.name)} cannot be archived`);
          const out = createWriteStream(join(staging, file));
          const hash = createHash('sha256');
          let size = 0;
          let rows = 0;
          for await (const lines of readTableLines(tx, table)) {
            const chunk = Buffer.from(`${lines.join('\n')}\n`);
            hash.update(chunk);
            size += chunk.length;
            rows += lines.length;
            if (!out.write(chunk)) await once(out, 'drain');
            done += lines.length;
            q.onPercent((done / total) * ROWS_SHARE);
          }
          out.end();
          await once(out, 'close');
          tables.push({ ...table, file, rows, size, sha256: hash.digest('hex') });
        }
        return {
          format: 'lumigrid-backup',
          formatVersion: BACKUP.formatVersion,
          software: LIMITS.version,
          database: q.database.kind,
          snapshotAt: snapshotAt.toISOString(),
          schema,
          tables,
          files,
        } satisfies Manifest;
      },
      { isolationLevel: 'serializable', accessMode: 'read only', deferrable: true },
    );
    const sources = [
      ...manifest.tables.map((t) => ({ name: t.file, path: join(staging, t.file), size: t.size })),
      ...manifest.files.map((f) => ({ name: f.path, path: join(staging, f.path), size: f.size })),
    ];
    const totalBytes = Math.max(
      1,
      sources.reduce((a, s) => a + s.size, 0),
    );
    let packed = 0;
    await writeArchive({
      target: partial,
      manifest,
      sources,
      onBytes: (n) => q.onPercent(ROWS_SHARE + ((packed += n) / totalBytes) * (100 - ROWS_SHARE)),
    });
    await rename(partial, join(q.dir, q.name));
    return manifest;
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}
