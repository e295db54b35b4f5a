import { randomBytes } from 'node:crypto';
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

/** A one-page PDF written by hand (200 x 100 points): a red box and a blue diagonal line. */
export function makePdf(): Buffer {
  const content = 'q 1 0 0 rg 20 20 160 60 re f Q 0 0 1 RG 4 w 10 10 m 190 90 l S';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
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
