import { lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { BACKUP, type BackupDirectory } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';

const PATH = new RegExp(BACKUP.pathPattern);
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * The directories under the backup root, and nothing outside it: a path is relative, made of plain names,
 * and resolved through symbolic links before it is trusted, so neither `..` nor a link leads elsewhere.
 * Anything else (missing, a file, outside) answers 300006.
 */
export function backupFolders(root: string) {
  async function rootReal(): Promise<string> {
    await mkdir(root, { recursive: true });
    return realpath(root);
  }

  /** The absolute, link-free directory of a path below the root; 300006 when it is not one. */
  async function resolveDir(path: string): Promise<string> {
    if (!PATH.test(path)) throw new AppError(300006);
    const base = await rootReal();
    let real: string;
    try {
      real = await realpath(resolve(base, path));
    } catch {
      throw new AppError(300006);
    }
    if (real !== base && !real.startsWith(base + sep)) throw new AppError(300006);
    const info = await lstat(real);
    if (!info.isDirectory()) throw new AppError(300006);
    return real;
  }

  return {
    root,
    resolveDir,

    /** The subdirectories of a directory below the root, by name; hidden ones (work folders) are left out. */
    async list(path: string): Promise<BackupDirectory[]> {
      const dir = await resolveDir(path);
      const base = await rootReal();
      const entries = await readdir(dir, { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory() && NAME.test(e.name) && !e.name.startsWith('.'))
        .map((e) => ({ name: e.name, path: relative(base, join(dir, e.name)).split(sep).join('/') }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },

    /** An archive file in a directory below the root; 300006 when its name is not one the server makes or it is missing. */
    async resolveArchive(path: string, file: string): Promise<string> {
      if (!BACKUP.fileName.test(file)) throw new AppError(300006);
      const dir = await resolveDir(path);
      const target = join(dir, file);
      const info = await lstat(target).catch(() => undefined);
      if (!info?.isFile()) throw new AppError(300006);
      return target;
    },
  };
}

export type BackupFolders = ReturnType<typeof backupFolders>;
