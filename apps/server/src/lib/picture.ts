import { crc32, createInflate } from 'node:zlib';
import { sizeText } from '@lumigrid/contract';
import { AppError } from '../http/app-error.ts';

/** What an uploaded file is by its bytes. */
export type SourceType = 'image/png' | 'image/jpeg' | 'application/pdf';

/** Pictures larger than this are refused: a browser could not show them, and a tiny file must not claim gigabytes. */
const MAX_SIDE = 16_384;
const MAX_PIXELS = 64_000_000;

/**
 * A png or jpeg upload within its size whose structure is whole (100014 too large, 100013 anything else),
 * with its type read from the bytes.
 */
export async function checkedPicture(data: Buffer, maxBytes: number): Promise<{ data: Buffer; contentType: 'image/png' | 'image/jpeg' }> {
  if (data.length > maxBytes) throw new AppError(100014, sizeText(maxBytes));
  const type = sniffType(data);
  if (type !== 'image/png' && type !== 'image/jpeg') throw new AppError(100013);
  const size = type === 'image/png' ? await checkPng(data) : checkJpeg(data);
  if (!size) throw new AppError(100013);
  return { data, contentType: type };
}

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
