import {
  BarcodeFormat,
  BinaryBitmap,
  ChecksumException,
  DecodeHintType,
  FormatException,
  HybridBinarizer,
  MultiFormatReader,
  NotFoundException,
  RGBLuminanceSource,
} from '@zxing/library';
import type { CodeReader } from './code-reader.ts';
import { frameSize, greyscale } from './gateway-code.ts';

/** ZXing's names of the label's code formats (LABEL_CODE_FORMATS). */
const FORMATS = [BarcodeFormat.QR_CODE, BarcodeFormat.CODE_128, BarcodeFormat.CODE_39, BarcodeFormat.DATA_MATRIX];

export function newZxingReader(): MultiFormatReader {
  const reader = new MultiFormatReader();
  reader.setHints(
    new Map<DecodeHintType, unknown>([
      [DecodeHintType.POSSIBLE_FORMATS, FORMATS],
      [DecodeHintType.TRY_HARDER, true],
    ]),
  );
  return reader;
}

/**
 * The code in one RGBA frame, or undefined when none is found in it (or only part of one). `upsideDown` turns
 * the frame half a turn first: ZXing's detector misplaces the finder patterns of a few symbols in one
 * orientation (a few in a hundred labels, whatever the size), and reads them turned.
 */
export function decodeFrame(
  reader: MultiFormatReader,
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
  upsideDown = false,
): string | undefined {
  const grey = greyscale(rgba, width, height);
  // Half a turn of a picture is its pixels in reverse order.
  if (upsideDown) grey.reverse();
  const source = new RGBLuminanceSource(grey, width, height);
  try {
    return reader.decodeWithState(new BinaryBitmap(new HybridBinarizer(source))).getText();
  } catch (error) {
    // No code in this frame, or one half seen: the next frame is tried.
    if (error instanceof NotFoundException || error instanceof ChecksumException || error instanceof FormatException) return undefined;
    throw error;
  } finally {
    reader.reset();
  }
}

/**
 * Decodes camera frames with ZXing: each frame drawn (scaled down) on a canvas and searched for a code, every
 * other frame turned upside down (see decodeFrame).
 */
export function zxingReader(reader: MultiFormatReader = newZxingReader()): CodeReader {
  let frames = 0;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return {
    read: async (video) => {
      const { width, height } = frameSize(video.videoWidth, video.videoHeight);
      if (!context || width === 0) return [];
      canvas.width = width;
      canvas.height = height;
      context.drawImage(video, 0, 0, width, height);
      const text = decodeFrame(reader, context.getImageData(0, 0, width, height).data, width, height, frames++ % 2 === 1);
      return text === undefined ? [] : [text];
    },
  };
}
