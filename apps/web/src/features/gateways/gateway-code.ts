import { parseGatewayQr, type GatewayQr } from '@lumigrid/contract/browser';

/**
 * The codes a gateway's label carries (docs/protocol.md, "The gateway's QR code"): the QR code, and on labels
 * without one the MAC as a line barcode or a Data Matrix. Names as the browser's BarcodeDetector spells them.
 */
export const LABEL_CODE_FORMATS = ['qr_code', 'code_128', 'code_39', 'data_matrix'] as const;
export type LabelCodeFormat = (typeof LABEL_CODE_FORMATS)[number];

/** A label's MAC barcode may carry its printed caption ("MAC: A4C1380B229F"); the caption is not the MAC. */
const MAC_CAPTION = /^\s*MAC\s*[:=#]?\s*/i;

/** What a scanned code names: a gateway's QR payload, or its MAC (bare or captioned); undefined for anything else. */
export function readGatewayCode(text: string): GatewayQr | undefined {
  return parseGatewayQr(text) ?? parseGatewayQr(text.replace(MAC_CAPTION, ''));
}

/**
 * The first of the codes read in one camera frame that names a gateway, and whether another code was read
 * (the installer aims at the wrong label: the scanner says so instead of staying silent).
 */
export function gatewayCodeAmong(texts: readonly string[]): { code?: GatewayQr; foreign: boolean } {
  for (const text of texts) {
    const code = readGatewayCode(text);
    if (code) return { code, foreign: false };
  }
  return { foreign: texts.some((text) => text.trim() !== '') };
}

/** The largest side a camera frame is scaled to before decoding: a label fills much of it, and less is faster. */
export const MAX_FRAME_PX = 800;

/** A camera frame's size scaled so its longer side is at most `max` (never enlarged); 0 x 0 before the video has one. */
export function frameSize(width: number, height: number, max = MAX_FRAME_PX): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** One grey byte per pixel of an RGBA frame (ITU-R BT.601 weights), as the ZXing decoder reads images. */
export function greyscale(rgba: Uint8ClampedArray, width: number, height: number): Uint8ClampedArray {
  const grey = new Uint8ClampedArray(width * height);
  for (let pixel = 0, byte = 0; pixel < grey.length; pixel++, byte += 4) {
    grey[pixel] = (rgba[byte]! * 299 + rgba[byte + 1]! * 587 + rgba[byte + 2]! * 114) / 1000;
  }
  return grey;
}
