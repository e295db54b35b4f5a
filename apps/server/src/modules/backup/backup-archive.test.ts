import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKUP } from '@lumigrid/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractVerified, writeArchive, type Manifest } from './backup-archive.ts';

const PLAN = 'uploads/maps/0123456789abcdef0123456789abcdef.png';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A manifest for one uploaded file, made for schema `m1`. */
function manifestFor(file: { path: string; size: number; sha256: string }): Manifest {
  return {
    format: 'lumigrid-backup',
    formatVersion: BACKUP.formatVersion,
    software: 'test',
    database: 'pglite',
    snapshotAt: '2026-11-23T08:00:00.000Z',
    schema: { migration: 'm1', migratedAt: 0 },
    tables: [],
    files: [file],
  };
}

/** Every file below a folder, relative to it. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

describe('reading an archive for a restore', () => {
  let work: string;
  let staging: string;
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'lumigrid-archive-'));
    staging = join(work, 'staging');
  });
  afterEach(async () => rm(work, { recursive: true, force: true }));

  /** An archive holding `content` under PLAN, whose manifest describes `described` instead. */
  async function archive(described: Buffer, content: Buffer): Promise<string> {
    const source = join(work, 'plan.bin');
    await writeFile(source, content);
    const target = join(work, 'lumigrid-backup-20261123-080000.tar.gz');
    await writeArchive({
      target,
      manifest: manifestFor({ path: PLAN, size: described.length, sha256: sha256(described) }),
      sources: [{ name: PLAN, path: source, size: content.length }],
      onBytes: () => undefined,
    });
    return target;
  }

  it('stages an entry its manifest describes', async () => {
    const plan = Buffer.from('a floor plan');
    const file = await archive(plan, plan);
    await extractVerified({ file, staging, schema: { migration: 'm1' }, onBytes: () => undefined });
    expect(await filesBelow(staging)).toEqual([PLAN]);
  });

  it('refuses an entry longer than its manifest says from the tar header, writing nothing of it', async () => {
    const file = await archive(Buffer.from('a floor plan'), Buffer.alloc(4 * 1024 * 1024, 7));
    const refused: unknown = await extractVerified({ file, staging, schema: { migration: 'm1' }, onBytes: () => undefined }).catch(
      (error: unknown) => error,
    );
    expect(await filesBelow(staging).catch(() => [])).toEqual([]);
    // Refused on the header's length, before the copy began.
    expect(refused).toMatchObject({ reason: 100803, message: expect.stringContaining('bytes, the manifest says 12') });
  });

  it('refuses an entry whose bytes differ from the manifest, leaving nothing of it behind', async () => {
    const file = await archive(Buffer.from('a floor plan'), Buffer.from('a floor PLAN'));
    await expect(extractVerified({ file, staging, schema: { migration: 'm1' }, onBytes: () => undefined })).rejects.toMatchObject({
      reason: 100803,
    });
    expect(await filesBelow(staging).catch(() => [])).toEqual([]);
  });
});
