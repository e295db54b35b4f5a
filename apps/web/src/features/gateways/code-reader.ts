import { LABEL_CODE_FORMATS } from './gateway-code.ts';

/** Reads the codes in view in one frame of the camera's video. */
export interface CodeReader {
  read(video: HTMLVideoElement): Promise<string[]>;
}

/** The browser's Shape Detection API, where it exists (Chrome on Android, macOS and ChromeOS; Safari 17+). */
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): { detect(source: CanvasImageSource): Promise<Array<{ rawValue: string }>> };
  getSupportedFormats(): Promise<string[]>;
}

async function nativeReader(): Promise<CodeReader | undefined> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return undefined;
  const supported = await Detector.getSupportedFormats().catch(() => [] as string[]);
  const formats = LABEL_CODE_FORMATS.filter((format) => supported.includes(format));
  // A detector that cannot read QR codes is no use here (some platforms ship the API with no formats).
  if (!formats.includes('qr_code')) return undefined;
  const detector = new Detector({ formats });
  return { read: async (video) => (await detector.detect(video)).map((code) => code.rawValue) };
}

/**
 * The browser's own barcode detector where it reads QR codes, else ZXing in JavaScript. ZXing is loaded only
 * here, when a camera is opened, so no other page carries it.
 */
export async function createCodeReader(): Promise<CodeReader> {
  const native = await nativeReader();
  if (native) return native;
  const { zxingReader } = await import('./zxing-reader.ts');
  return zxingReader();
}
