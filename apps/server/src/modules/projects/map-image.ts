import { randomBytes } from 'node:crypto';
import { crc32, createInflate } from 'node:zlib';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROJECT_LIMITS } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';

export type SourceType = 'image/png' | 'image/jpeg' | 'application/pdf';

/** A floor plan ready to store: png or jpeg bytes and the picture's size. */
export interface PreparedImage {
  data: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  sourceType: SourceType;
  width: number;
  height: number;
}

/** Pictures larger than this are refused: a browser could not show them, and a tiny file must not claim gigabytes. */
const MAX_SIDE = 16_384;
const MAX_PIXELS = 64_000_000;
/** A pdf that takes longer than this to draw is refused (its worker thread is terminated). */
/** A first page that takes longer than this to draw is not a floor plan anyone can wait for. */
const PDF_RENDER_TIMEOUT_MS = 10_000;

/** What the bytes are, by their magic numbers; the file name and the declared type are never trusted. */
export function sniffType(data: Buffer): SourceType | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 5 && data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return undefined;
}

/** Bits per pixel for a PNG bit depth and colour type; undefined for a combination PNG does not allow. */
function pngBitsPerPixel(bitDepth: number, colourType: number): number | undefined {
  const channels: Record<number, { n: number; depths: number[] }> = {
    0: { n: 1, depths: [1, 2, 4, 8, 16] },
    2: { n: 3, depths: [8, 16] },
    3: { n: 1, depths: [1, 2, 4, 8] },
    4: { n: 2, depths: [8, 16] },
    6: { n: 4, depths: [8, 16] },
  };
  const c = channels[colourType];
  return c && c.depths.includes(bitDepth) ? c.n * bitDepth : undefined;
}

/** The size of a PNG's decompressed image data: rows of filter byte + pixels, per Adam7 pass if interlaced. */
function pngRawLength(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8)));
  if (!interlaced) return rows(width, height);
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ] as const;
  return passes.reduce((sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)), 0);
}

/** Counts the bytes a zlib stream inflates to, without keeping them; undefined when the stream is broken. */
function inflatedLength(data: Buffer, limit: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const inflater = createInflate();
    let total = 0;
    inflater.on('data', (piece: Buffer) => {
      total += piece.length;
      if (total > limit) {
        inflater.destroy();
        resolve(undefined);
      }
    });
    inflater.on('error', () => resolve(undefined));
    inflater.on('end', () => resolve(total));
    inflater.end(data);
  });
}

/**
 * Checks a PNG completely without a native decoder (a truncated file crashed @napi-rs/canvas's decoder,
 * taking the process with it): chunk structure and CRCs, a valid IHDR first, IEND last, and image data
 * that inflates to exactly the size the header promises. Answers the picture's size.
 */
export async function checkPng(data: Buffer): Promise<{ width: number; height: number } | undefined> {
  let at = 8;
  let header: { width: number; height: number; raw: number } | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (at + 12 <= data.length && !ended) {
    const length = data.readUInt32BE(at);
    const type = data.subarray(at + 4, at + 8).toString('latin1');
    if (at + 12 + length > data.length) return undefined;
    const body = data.subarray(at + 8, at + 8 + length);
    if (crc32(data.subarray(at + 4, at + 8 + length)) !== data.readUInt32BE(at + 8 + length)) return undefined;
    if (!header && type !== 'IHDR') return undefined;
    if (type === 'IHDR') {
      if (header || length !== 13) return undefined;
      const [width, height] = [body.readUInt32BE(0), body.readUInt32BE(4)];
      const bits = pngBitsPerPixel(body[8]!, body[9]!);
      if (!bits || body[10] !== 0 || body[11] !== 0 || body[12]! > 1) return undefined;
      if (!isSaneSize({ width, height })) return undefined;
      header = { width, height, raw: pngRawLength(width, height, bits, body[12] === 1) };
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      ended = true;
    }
    at += 12 + length;
  }
  if (!header || !ended || idat.length === 0) return undefined;
  const inflated = await inflatedLength(Buffer.concat(idat), header.raw);
  return inflated === header.raw ? { width: header.width, height: header.height } : undefined;
}

/**
 * Checks a JPEG's marker structure: start of image, a frame header (its size), a scan, and an end-of-image
 * marker after the entropy-coded data. Answers the picture's size.
 */
export function checkJpeg(data: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  let size: { width: number; height: number } | undefined;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd9 || marker === 0xd8) return undefined; // an end or a second start before any scan
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = data.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > data.length) return undefined;
    // SOF0-SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8) return undefined;
      size = { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    if (marker === 0xda) {
      if (!size || !isSaneSize(size)) return undefined;
      // The scan runs to the end-of-image marker; progressive files have more scans before it.
      for (let i = at + 2 + length; i + 1 < data.length; i++) {
        if (data[i] === 0xff && data[i + 1] === 0xd9) return size;
      }
      return undefined;
    }
    at += 2 + length;
  }
  return undefined;
}

function isSaneSize(size: { width: number; height: number }): boolean {
  return size.width >= 1 && size.height >= 1 && size.width <= MAX_SIDE && size.height <= MAX_SIDE && size.width * size.height <= MAX_PIXELS;
}

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * Pdf renders run one at a time (a page canvas can take tens of megabytes), in arrival order, with at most
 * one waiting or running per account and MAX_RENDERS_WAITING in all: a full queue answers 429 with the
 * time one render may take, so one account's heavy files cannot hold another's plan for minutes.
 */
export function createRenderQueue(options: { maxWaiting: number; retryAfterS: number }) {
  let tail: Promise<unknown> = Promise.resolve();
  const waiting = new Set<string>();
  return {
    run<T>(account: string, job: () => Promise<T>): Promise<T> {
      if (waiting.has(account) || waiting.size >= options.maxWaiting) throw new AppError(100003, 'pdf renders', options.retryAfterS);
      waiting.add(account);
      const result = tail.then(job).finally(() => waiting.delete(account));
      tail = result.catch(() => undefined);
      return result;
    },
    get waiting(): number {
      return waiting.size;
    },
  };
}
export type RenderQueue = ReturnType<typeof createRenderQueue>;
const MAX_RENDERS_WAITING = 4;

/**
 * Renders a pdf's first page to png with pdf.js (legacy build for Node) on @napi-rs/canvas, scaled so the
 * longer side is PROJECT_LIMITS.pdfRenderMaxSide pixels. It runs in a worker thread (pdf-render.worker.mjs):
 * a heavy drawing cannot block the server, and one that takes too long is stopped for real.
 */
function renderPdfFirstPage(data: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pdf-render.worker.mjs', import.meta.url), {
      workerData: {
        data: new Uint8Array(data),
        maxSide: PROJECT_LIMITS.pdfRenderMaxSide,
        standardFontDataUrl: `${join(pdfjsRoot, 'standard_fonts')}/`,
        cMapUrl: `${join(pdfjsRoot, 'cmaps')}/`,
      },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('pdf render timed out'));
    }, PDF_RENDER_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once('message', (answer: { ok: true; png: Uint8Array; width: number; height: number } | { ok: false; error: string }) => {
      finish();
      if (answer.ok) resolve({ png: Buffer.from(answer.png), width: answer.width, height: answer.height });
      else reject(new Error(answer.error));
    });
    worker.once('error', (error) => {
      finish();
      reject(error);
    });
    worker.once('exit', () => {
      finish();
      reject(new Error('pdf renderer stopped'));
    });
  });
}

/**
 * Checks an upload and turns it into a storable picture: jpg and png are kept byte for byte once their
 * structure is proven whole; a pdf's first page becomes a png. Anything else answers 100013.
 */
export async function prepareMapImage(
  data: Buffer,
  options: { account: string; queue: RenderQueue; onRenderError?: (error: unknown) => void },
): Promise<PreparedImage> {
  if (data.length > PROJECT_LIMITS.mapImage.maxBytes) throw new AppError(100014, '5 MB');
  const type = sniffType(data);
  if (!type) throw new AppError(100013);
  if (type === 'application/pdf') {
    const run = options.queue.run(options.account, () => renderPdfFirstPage(data));
    try {
      const { png, width, height } = await run;
      return { data: png, contentType: 'image/png', sourceType: type, width, height };
    } catch (error) {
      // The uploader hears "not a valid picture"; why the renderer gave up goes to the log.
      options.onRenderError?.(error);
      throw new AppError(100013);
    }
  }
  const size = type === 'image/png' ? await checkPng(data) : checkJpeg(data);
  if (!size) throw new AppError(100013);
  return { data, contentType: type, sourceType: type, ...size };
}

/** The server's one render queue. */
export function defaultRenderQueue(): RenderQueue {
  return createRenderQueue({ maxWaiting: MAX_RENDERS_WAITING, retryAfterS: Math.ceil(PDF_RENDER_TIMEOUT_MS / 1000) });
}

/** Floor plans on disk under DATA_DIR/uploads/maps, named by 128 random bits. */
export function createMapImageStore(dataDir: string) {
  const dir = join(dataDir, 'uploads', 'maps');
  return {
    dir,
    async save(image: PreparedImage): Promise<string> {
      await mkdir(dir, { recursive: true });
      const file = `${randomBytes(16).toString('hex')}.${image.contentType === 'image/png' ? 'png' : 'jpg'}`;
      await writeFile(join(dir, file), image.data, { flag: 'wx' });
      return file;
    },
    async read(file: string): Promise<Buffer | undefined> {
      if (!MAP_IMAGE_FILE.test(file)) return undefined;
      return readFile(join(dir, file)).catch(() => undefined);
    },
    async remove(file: string): Promise<void> {
      if (MAP_IMAGE_FILE.test(file)) await rm(join(dir, file), { force: true });
    },
  };
}

export type MapImageStore = ReturnType<typeof createMapImageStore>;

/** The only file names the store makes: nothing else can reach the disk through a request. */
export const MAP_IMAGE_FILE = /^[0-9a-f]{32}\.(png|jpg)$/;
