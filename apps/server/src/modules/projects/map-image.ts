import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROJECT_LIMITS } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import { createImageStore, type ImageStore } from '../../lib/image-store.ts';
import { checkJpeg, checkPng, sniffType, type SourceType } from '../../lib/picture.ts';

export type { SourceType };

/** A floor plan ready to store: png or jpeg bytes and the picture's size. */
export interface PreparedImage {
  data: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  sourceType: SourceType;
  width: number;
  height: number;
}

/** A first page that takes longer than this to draw is not a floor plan anyone can wait for (its worker is terminated). */
const PDF_RENDER_TIMEOUT_MS = 10_000;

/**
 * What a render may add to the server's memory, and the largest picture inside a pdf it decodes (40 megapixels: an
 * A1 scan at 200 dpi is 31). The worker's heap limit bounds only JavaScript objects; decoded pictures and the canvas
 * live outside it, so the process's resident memory is watched while a render runs.
 */
const PDF_RENDER_MEMORY_BYTES = 384 * 1024 * 1024;
const PDF_MAX_IMAGE_PIXELS = 40_000_000;
const MEMORY_CHECK_MS = 20;

/** A pdf that needs more time or memory to draw than a floor plan may take, or holds a picture too large to decode. */
export class PdfTooHeavyError extends Error {}

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
export function renderPdfFirstPage(
  data: Buffer,
  limits: { memoryBytes: number; maxImagePixels: number } = { memoryBytes: PDF_RENDER_MEMORY_BYTES, maxImagePixels: PDF_MAX_IMAGE_PIXELS },
): Promise<{ png: Buffer; width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pdf-render.worker.mjs', import.meta.url), {
      workerData: {
        data: new Uint8Array(data),
        maxSide: PROJECT_LIMITS.pdfRenderMaxSide,
        maxImagePixels: limits.maxImagePixels,
        standardFontDataUrl: `${join(pdfjsRoot, 'standard_fonts')}/`,
        cMapUrl: `${join(pdfjsRoot, 'cmaps')}/`,
      },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const startRss = process.memoryUsage.rss();
    const stop = (error: Error) => {
      finish();
      reject(error);
    };
    const timer = setTimeout(() => stop(new PdfTooHeavyError('pdf render timed out')), PDF_RENDER_TIMEOUT_MS);
    const memory = setInterval(() => {
      const grown = process.memoryUsage.rss() - startRss;
      if (grown > limits.memoryBytes) stop(new PdfTooHeavyError(`pdf render grew the server by ${Math.round(grown / 2 ** 20)} MB`));
    }, MEMORY_CHECK_MS);
    const finish = () => {
      clearTimeout(timer);
      clearInterval(memory);
      void worker.terminate();
    };
    worker.once(
      'message',
      (answer: { ok: true; png: Uint8Array; width: number; height: number } | { ok: false; error: string; tooHeavy: boolean }) => {
        finish();
        if (answer.ok) resolve({ png: Buffer.from(answer.png), width: answer.width, height: answer.height });
        else reject(answer.tooHeavy ? new PdfTooHeavyError(answer.error) : new Error(answer.error));
      },
    );
    worker.once('error', (error: Error & { code?: string }) =>
      // Past its heap limit, the worker is stopped by Node.
      stop(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new PdfTooHeavyError(error.message) : error),
    );
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
      // The uploader hears "not a valid picture" or "too heavy to draw"; why the renderer gave up goes to the log.
      options.onRenderError?.(error);
      throw new AppError(error instanceof PdfTooHeavyError ? 100022 : 100013);
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

/** Floor plans on disk under DATA_DIR/uploads/maps. */
export function createMapImageStore(dataDir: string) {
  return createImageStore(dataDir, 'maps');
}

export type MapImageStore = ImageStore;
