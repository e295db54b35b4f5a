import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { encodePng, type Rgb } from './png.ts';
import type { EndpointAnswer, EndpointSpec } from '@lumigrid/contract';
import type { App } from '../http/types.ts';

/** A real PNG of one colour. */
export function makePng(width: number, height: number, rgb: Rgb = [0, 128, 255]): Buffer {
  return encodePng(width, height, () => rgb);
}

/** A real JPEG, encoded by @napi-rs/canvas. */
export async function makeJpeg(width: number, height: number): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#2a9d8f';
  ctx.fillRect(0, 0, width, height);
  return canvas.encode('jpeg', 90);
}

/**
 * A one-page pdf that draws a red box and a blue line; with `image`, the page draws instead one grey picture of that
 * many pixels, all black, deflated: a few hundred kilobytes that inflate to as many megabytes as it has pixels.
 */
export function makePdf(options: { image?: { width: number; height: number } } = {}): Buffer {
  const { image } = options;
  const content = image ? 'q 200 0 0 100 0 0 cm /Im0 Do Q' : 'q 1 0 0 rg 20 20 160 60 re f Q 0 0 1 RG 4 w 10 10 m 190 90 l S';
  const resources = image ? '<< /XObject << /Im0 5 0 R >> >>' : '<< >>';
  const objects: Buffer[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources ${resources} >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ].map((o) => Buffer.from(o, 'latin1'));
  if (image) {
    const pixels = deflateSync(Buffer.alloc(image.width * image.height), { level: 9 });
    const dict = `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${pixels.length} >>`;
    objects.push(Buffer.concat([Buffer.from(`${dict}\nstream\n`, 'latin1'), pixels, Buffer.from('\nendstream', 'latin1')]));
  }
  const parts = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), o, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(object);
    length += object.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref + trailer, 'latin1'));
  return Buffer.concat(parts);
}

/** A file with a PNG signature and random bytes after it, of the given size. */
export function bigFakePng(bytes: number): Buffer {
  return Buffer.concat([makePng(8, 8).subarray(0, 33), randomBytes(bytes - 33)]);
}

/** A multipart/form-data body with optional text fields before one file part. */
export function multipart(file: { name: string; type: string; data: Buffer; field?: string }, fields: Record<string, string> = {}) {
  const boundary = `----lumigrid${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
  );
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Sends one file to an upload endpoint of the table, as a browser's form would. */
export async function sendUpload<E extends EndpointSpec>(
  app: App,
  spec: E,
  file: { name: string; type: string; data: Buffer; field?: string },
  options: { token?: string; lang?: string; fields?: Record<string, string> } = {},
) {
  const { payload, headers } = multipart(file, options.fields);
  const res = await app.inject({
    method: spec.method,
    url: spec.path,
    payload,
    headers: {
      ...headers,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.lang ? { 'accept-language': options.lang } : {}),
    },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() as { code: number; msg: string; data: EndpointAnswer<E> } };
}
