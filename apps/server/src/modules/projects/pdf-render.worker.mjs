// @ts-check
/**
 * Renders the first page of a pdf to a png inside a worker thread, so that a heavy drawing (a CAD export
 * with a hundred thousand paths takes tens of seconds) never blocks the server's event loop and can be
 * stopped by terminating the thread. Plain JavaScript on purpose: worker threads start without the
 * TypeScript loader the server runs under. The caller is map-image.ts (`renderPdfFirstPage`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** @type {{ data: Uint8Array; maxSide: number; maxImagePixels: number; standardFontDataUrl: string; cMapUrl: string }} */
const input = workerData;

// pdf.js drops a picture of more than `maxImageSize` pixels with a warning, and draws the rest of the page: a plan
// without its scan. The warning is how this thread learns of it (its only output; pdf.js runs in this thread).
const IMAGE_DROPPED = 'Image exceeded maximum allowed size';
let imageDropped = false;
globalThis.console.warn = (/** @type {unknown} */ message) => {
  if (String(message).includes(IMAGE_DROPPED)) imageDropped = true;
};

async function render() {
  const task = getDocument({
    data: input.data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    // Warnings, for the dropped picture above.
    verbosity: 1,
    maxImageSize: input.maxImagePixels,
    standardFontDataUrl: input.standardFontDataUrl,
    cMapUrl: input.cMapUrl,
    cMapPacked: true,
  });
  const pdf = await task.promise;
  const page = await pdf.getPage(1);
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: input.maxSide / Math.max(base.width, base.height) });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  // pdf.js draws Path2D objects of the canvas module it loaded itself, so its own factory makes the canvas.
  /** @type {{ create(w: number, h: number): { canvas: { encode(type: 'png'): Promise<Buffer> }; context: any } }} */
  const factory = /** @type {any} */ (pdf).canvasFactory;
  const { canvas, context } = factory.create(width, height);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({ canvas: /** @type {any} */ (canvas), canvasContext: context, viewport }).promise;
  if (imageDropped) throw new TooHeavy(`a picture of the first page has more than ${input.maxImagePixels} pixels`);
  const png = await canvas.encode('png');
  await task.destroy();
  return { png, width, height };
}

class TooHeavy extends Error {}

render().then(
  ({ png, width, height }) => parentPort?.postMessage({ ok: true, png, width, height }),
  (error) => parentPort?.postMessage({ ok: false, error: String(error), tooHeavy: error instanceof TooHeavy }),
);
