import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Harness } from '../test/harness.ts';
import { IMMUTABLE, isHashedAsset } from './web-client.ts';

/** A built client as Vite and the precompress step leave it: a hashed script with its .br and .gz copies. */
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(2000))};\n`;
const ASSET = 'assets/app-Ab3_x9Zq.js';

describe('the browser client on the wire', () => {
  let h: Harness;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'lumigrid-web-'));
    mkdirSync(join(webDist, 'assets'));
    const html = `<!doctype html><html><head><script type="module" src="/${ASSET}"></script></head><body>${'<!-- -->'.repeat(300)}</body></html>`;
    for (const [name, body] of [
      ['index.html', html],
      [ASSET, SCRIPT],
    ] as const) {
      writeFileSync(join(webDist, name), body);
      writeFileSync(join(webDist, `${name}.br`), brotliCompressSync(body));
      writeFileSync(join(webDist, `${name}.gz`), gzipSync(body));
    }
    h = await startApp('pglite', { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    h.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends brotli to a browser that takes it, else gzip, else the plain file, always saying it varies', async () => {
    const br = await get(`/${ASSET}`, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gz = await get(`/${ASSET}`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get(`/${ASSET}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    for (const res of [br, gz, plain]) {
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['content-type'])).toContain('javascript');
      expect(String(res.headers.vary)).toContain('accept-encoding');
    }
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
  });

  it('lets browsers keep hashed assets for a year and revalidate the page that names them', async () => {
    for (const encoding of ['br', 'gzip', undefined]) expect((await get(`/${ASSET}`, encoding)).headers['cache-control']).toBe(IMMUTABLE);
    for (const url of ['/index.html', '/device/control', '/']) {
      const page = await get(url, 'br');
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers HEAD for a page as GET would, without the body (uptime monitors ask so)', async () => {
    for (const url of ['/device/control', '/user/login']) {
      const head = await h.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(200);
      expect(String(head.headers['content-type']), url).toContain('text/html');
      expect(head.body, url).toBe('');
    }
    expect((await h.app.inject({ method: 'HEAD', url: '/api1/no/such/call' })).statusCode).toBe(404);
  });

  it('answers /metrics with 404, not the page, when METRICS_TOKEN is not set', async () => {
    const res = await get('/metrics');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<!doctype html>');
  });

  it('compresses an API answer above the threshold for a client that takes it, and leaves small ones alone', async () => {
    const large = await get('/api/docs/json', 'br, gzip');
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    const document = JSON.parse(brotliDecompressSync(large.rawPayload).toString()) as { paths: object };
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
    expect(large.rawPayload.length).toBeLessThan(Buffer.byteLength(JSON.stringify(document)) / 4);
    expect((await get('/api/docs/json', 'gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get('/api/docs/json')).headers['content-encoding']).toBeUndefined();
    const small = await get('/api4/nothing/here', 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ code: 100002 });
  });

  it('tells hashed build assets from files that keep their name', () => {
    expect(isHashedAsset('/srv/dist/assets/index-C_scobl_.js')).toBe(true);
    expect(isHashedAsset('/srv/dist/assets/index-C_scobl_.js.br')).toBe(true);
    expect(isHashedAsset('/srv/dist/index.html')).toBe(false);
    expect(isHashedAsset('/srv/dist/branding/logo.svg')).toBe(false);
    expect(isHashedAsset('/srv/dist/assets/logo.svg')).toBe(false);
  });
});
