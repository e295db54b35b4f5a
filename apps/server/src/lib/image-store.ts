import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The only file names an image store makes: nothing else can reach the disk through a request. */
export const IMAGE_FILE = /^[0-9a-f]{32}\.(png|jpg)$/;

export type StoredImageType = 'image/png' | 'image/jpeg';

/** The type of a stored picture, from the name the store gave it. */
export function storedImageType(file: string): StoredImageType {
  return file.endsWith('.png') ? 'image/png' : 'image/jpeg';
}

/** Pictures on disk under DATA_DIR/uploads/<folder>, named by 128 random bits. */
export function createImageStore(dataDir: string, folder: string) {
  const dir = join(dataDir, 'uploads', folder);
  return {
    dir,
    /** A new name for a picture of this type, to write now or once it is drawn. */
    name(contentType: StoredImageType): string {
      return `${randomBytes(16).toString('hex')}.${contentType === 'image/png' ? 'png' : 'jpg'}`;
    },
    async write(file: string, data: Buffer): Promise<void> {
      if (!IMAGE_FILE.test(file)) throw new Error(`not a stored picture's name: ${file}`);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, file), data, { flag: 'wx' });
    },
    async save(image: { data: Buffer; contentType: StoredImageType }): Promise<string> {
      const file = this.name(image.contentType);
      await this.write(file, image.data);
      return file;
    },
    async read(file: string): Promise<Buffer | undefined> {
      if (!IMAGE_FILE.test(file)) return undefined;
      return readFile(join(dir, file)).catch(() => undefined);
    },
    async remove(file: string): Promise<void> {
      if (IMAGE_FILE.test(file)) await rm(join(dir, file), { force: true });
    },
  };
}

export type ImageStore = ReturnType<typeof createImageStore>;
