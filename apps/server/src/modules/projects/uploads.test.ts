import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PROJECT_LIMITS, endpointUrl, mapEndpoints, type MapImage, type MapInfo } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_DATABASES, expectError, signUpByMail, startApp, type Harness, api, apiData, refusedInput } from '../../test/harness.ts';
import { OPERATE_AUTH, subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { bigFakePng, makeJpeg, makePdf, makePng, sendUpload } from '../../test/upload.fixtures.ts';
import { poll } from '../../test/poll.ts';

/** An app keeping its uploads in a fresh directory, with one account signed up; `close` removes both. */
async function startUploadsApp(kind: 'pglite' | 'postgres', options: { pdfAnswerWaitMs: string; mail: string }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-uploads-'));
  const h = await startApp(kind, { DATA_DIR: dataDir, PDF_ANSWER_WAIT_MS: options.pdfAnswerWaitMs });
  const token = await signUpByMail(h, options.mail);
  const close = async () => {
    await h.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { h, token, f: treeFactory(h, token), dataDir, close };
}

describe.each(SERVICE_DATABASES)('floor-plan uploads on %s', (kind) => {
  let h: Harness;
  let token: string;
  let f: ReturnType<typeof treeFactory>;
  let dataDir: string;
  let close: (() => Promise<void>) | undefined;
  const mapsDir = () => join(dataDir, 'uploads', 'maps');

  const upload = (
    file: { name: string; type: string; data: Buffer; field?: string },
    fields: Record<string, string> = {},
    t = token,
    lang?: string,
  ) => sendUpload(h.app, mapEndpoints.upload, file, { token: t, lang, fields });
  const fetchImage = (url: string) => h.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    // A render answers within the call however slow the machine; the answer before it ends has its own suite below.
    ({ h, token, f, dataDir, close } = await startUploadsApp(kind, { pdfAnswerWaitMs: '60000', mail: 'planner@example.com' }));
  });
  afterAll(() => close?.());

  it('stores a png, serves it with its type, and puts it on a new map', async () => {
    const png = makePng(40, 20);
    const res = await upload({ name: 'plan.png', type: 'image/png', data: png });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    const image = res.body.data as MapImage;
    expect(image).toMatchObject({ width: 40, height: 20, size: png.length, contentType: 'image/png', sourceType: 'image/png', map: null });
    expect(image.image).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(readdirSync(mapsDir())).toContain(image.image);

    const served = await fetchImage(image.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(png)).toBe(true);

    const map = await f.map({ image: image.image, opacity: 60 });
    expect(map).toMatchObject({ image: image.url, imageWidth: 40, imageHeight: 20, opacity: 60 });
    // One upload serves one map: a second map cannot take the same picture.
    expectError(
      await api(h.app, mapEndpoints.addMap, { body: { buildId: map.buildId, name: 'Copy', image: image.image } }, { token }),
      100013,
    );
  });

  it('puts a jpeg on a map named in the upload, replacing and removing the old plan', async () => {
    const first = await upload({ name: 'first.png', type: 'image/png', data: makePng(10, 10) });
    const map = await f.map({ image: first.body.data.image });
    const jpeg = await makeJpeg(64, 48);
    const res = await upload({ name: 'photo.JPG', type: 'image/jpeg', data: jpeg }, { id: map.id });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.body.data).toMatchObject({ width: 64, height: 48, contentType: 'image/jpeg', sourceType: 'image/jpeg' });
    expect(res.body.data.image).toMatch(/\.jpg$/);
    expect((res.body.data.map as MapInfo).image).toBe(res.body.data.url);
    const served = await fetchImage(res.body.data.url);
    expect(served.headers['content-type']).toBe('image/jpeg');
    // The replaced plan is gone from the disk and from the web.
    expect((await fetchImage(first.body.data.url)).statusCode).toBe(404);
    expect(existsSync(join(mapsDir(), first.body.data.image))).toBe(false);
  });

  it("renders a pdf's first page to a png on the server", async () => {
    const res = await upload({ name: 'plan.pdf', type: 'application/pdf', data: makePdf() });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.body.data).toMatchObject({ contentType: 'image/png', sourceType: 'application/pdf', width: 4096, height: 2048 });
    const served = await fetchImage(res.body.data.url);
    expect(served.headers['content-type']).toBe('image/png');
    // The page was really drawn: red inside the box, white outside it.
    const picture = await loadImage(served.rawPayload);
    const canvas = createCanvas(picture.width, picture.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(picture, 0, 0);
    const scale = 4096 / 200;
    const at = (x: number, y: number) => Array.from(ctx.getImageData(Math.round(x * scale), Math.round((100 - y) * scale), 1, 1).data);
    expect(at(40, 50)).toEqual([255, 0, 0, 255]);
    expect(at(5, 95)).toEqual([255, 255, 255, 255]);
  });

  it('refuses a 6 MB file, a renamed text file, an svg with a script and broken pictures', async () => {
    const before = readdirSync(mapsDir()).length;
    const tooBig = await upload({ name: 'huge.png', type: 'image/png', data: bigFakePng(6 * 1024 * 1024) }, {}, token, 'ja');
    expectError(tooBig, 100014, 'ja');
    expect(tooBig.status).toBe(413);
    const refusals: Array<[string, string, Buffer]> = [
      ['notes.png', 'image/png', Buffer.from('These are not the pixels you are looking for.\n')],
      ['plan.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>')],
      ['plan.png', 'image/png', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
      ['broken.png', 'image/png', Buffer.concat([makePng(30, 30).subarray(0, 40), Buffer.alloc(60, 7)])],
      ['fake.pdf', 'application/pdf', Buffer.from('%PDF-1.4\nnothing that pdf.js can read\n')],
      ['empty.jpg', 'image/jpeg', Buffer.alloc(0)],
    ];
    for (const [name, type, data] of refusals) {
      const res = await upload({ name, type, data }, {}, token, 'cn');
      expectError(res, 100013, 'cn');
    }
    // A multipart body without a file part, and a JSON body, are not valid images either.
    expectError(await upload({ name: 'x.png', type: 'image/png', data: makePng(2, 2), field: 'other' }), 100013);
    expectError(await api(h.app, mapEndpoints.upload, refusedInput({ body: { file: 'x' } }), { token }), 100013);
    expect(readdirSync(mapsDir()).length).toBe(before);
  });

  it('removes a floor plan with delete_map and with the map itself', async () => {
    const up = await upload({ name: 'a.png', type: 'image/png', data: makePng(12, 12) });
    const map = await f.map({ image: up.body.data.image });
    const cleared = await api(h.app, mapEndpoints.removeImage, { query: { id: map.id } }, { token });
    expect(cleared.body.data).toMatchObject({ id: map.id, image: null, imageWidth: null });
    expect((await fetchImage(up.body.data.url)).statusCode).toBe(404);

    const again = await upload({ name: 'b.png', type: 'image/png', data: makePng(12, 12) }, { id: map.id });
    expect((await api(h.app, mapEndpoints.deleteMap, { params: { buildId: map.buildId, mapId: map.id } }, { token })).body.code).toBe(0);
    expect((await fetchImage(again.body.data.url)).statusCode).toBe(404);
    expect(existsSync(join(mapsDir(), again.body.data.image))).toBe(false);
  });

  it('keeps at most ten unused uploads per account, and sweeps unused ones after an hour', async () => {
    const own = await signUpByMail(h, `quota-${kind}@example.com`);
    const files: string[] = [];
    for (let i = 0; i < PROJECT_LIMITS.unusedUploads.max; i++) {
      const res = await upload({ name: `p${i}.png`, type: 'image/png', data: makePng(4, 4) }, {}, own);
      expect(res.body.code).toBe(0);
      files.push((res.body.data as MapImage).image);
    }
    const refused = await upload({ name: 'one-more.png', type: 'image/png', data: makePng(4, 4) }, {}, own, 'ja');
    expectError(refused, 100019, 'ja');
    // Another account is not held back by this one's uploads.
    expect((await upload({ name: 'other.png', type: 'image/png', data: makePng(4, 4) })).body.code).toBe(0);
    // One used on a map stays; the others go once their hour is over.
    const kept = files[0]!;
    const map = await treeFactory(h, own).map({ name: 'Kept plan', image: kept });
    h.clock.advance(PROJECT_LIMITS.unusedUploads.keptMs + 1000);
    expect((await upload({ name: 'again.png', type: 'image/png', data: makePng(4, 4) }, {}, own)).body.code).toBe(0);
    const left = readdirSync(mapsDir());
    expect(left).toContain(kept);
    expect(files.slice(1).filter((f) => left.includes(f))).toEqual([]);
    expect(map.image).toContain(kept);
  });

  it('lets only owners and editable users upload, and serves nothing for made-up names', async () => {
    const viewer = await subAccount(h, 'planner@example.com', OPERATE_AUTH.viewOnly);
    expectError(await upload({ name: 'a.png', type: 'image/png', data: makePng(4, 4) }, {}, viewer), 110003);
    const editor = await subAccount(h, 'planner@example.com', OPERATE_AUTH.editable);
    expect((await upload({ name: 'a.png', type: 'image/png', data: makePng(4, 4) }, {}, editor)).body.code).toBe(0);
    expect((await fetchImage(endpointUrl(mapEndpoints.image, { params: { file: `${'0'.repeat(32)}.png` } }))).statusCode).toBe(404);
    expect((await fetchImage(endpointUrl(mapEndpoints.image, { params: { file: '../../etc/passwd' } }))).statusCode).toBe(400);
  });
});

describe.each(SERVICE_DATABASES)('slow pdf floor plans answered at once on %s', (kind) => {
  let h: Harness;
  let token: string;
  let dataDir: string;
  let f: ReturnType<typeof treeFactory>;
  let close: (() => Promise<void>) | undefined;
  const uploadPdf = (data: Buffer, fields: Record<string, string> = {}) =>
    sendUpload(h.app, mapEndpoints.upload, { name: 'plan.pdf', type: 'application/pdf', data }, { token, fields });
  const state = (file: string) => api(h.app, mapEndpoints.uploadState, { params: { file } }, { token });
  /** Follows an upload until upload_state stops answering 'rendering'; answers its last answer. */
  async function settle(file: string) {
    let last = await state(file);
    await poll(async () => {
      last = await state(file);
      return !(last.body.code === 0 && last.body.data.state === 'rendering');
    }, `the pdf ${file} drawn`);
    return last;
  }

  beforeAll(async () => {
    // No wait at all: every pdf takes the slow path, while pictures still answer at once.
    ({ h, token, f, dataDir, close } = await startUploadsApp(kind, { pdfAnswerWaitMs: '0', mail: 'slow-plans@example.com' }));
  });
  afterAll(() => close?.());

  it('answers rendering with no sizes, then ready with the drawn page, which a map can take', async () => {
    const first = await uploadPdf(makePdf());
    expect(first.body.data).toMatchObject({ state: 'rendering', width: 0, height: 0, sourceType: 'application/pdf', map: null });
    const done = await settle(first.body.data.image);
    expect(done.body.data).toMatchObject({ state: 'ready', contentType: 'image/png', image: first.body.data.image });
    expect(done.body.data.width).toBeGreaterThan(0);
    const served = await h.app.inject({ method: 'GET', url: done.body.data.url });
    expect(served.statusCode).toBe(200);
    const map = await f.map({ name: 'Drawn later', image: first.body.data.image });
    expect(map).toMatchObject({ imageWidth: done.body.data.width, imageHeight: done.body.data.height });

    const png = await sendUpload(h.app, mapEndpoints.upload, { name: 'p.png', type: 'image/png', data: makePng(8, 8) }, { token });
    expect(png.body.data.state).toBe('ready');
  });

  it('puts a slow plan on the map the upload named once drawn, in place of the old one', async () => {
    const map = await f.map({ name: 'Replaced later' });
    const old = await sendUpload(
      h.app,
      mapEndpoints.upload,
      { name: 'p.png', type: 'image/png', data: makePng(8, 8) },
      { token, fields: { id: map.id } },
    );
    const slow = await uploadPdf(makePdf(), { id: map.id });
    expect(slow.body.data.state).toBe('rendering');
    const done = await settle(slow.body.data.image);
    expect(done.body.data.map?.id).toBe(map.id);
    const now = await apiData(h.app, mapEndpoints.getMap, { params: { id: map.projectId, mapId: map.id } }, { token });
    expect(now.image).toContain(slow.body.data.image);
    expect(existsSync(join(dataDir, 'uploads', 'maps', old.body.data.image))).toBe(false);
  });

  it('answers 100022 once a pdf proves too heavy to draw', async () => {
    const heavy = await uploadPdf(makePdf({ image: { width: 8000, height: 6000 } }));
    expect(heavy.body.data.state).toBe('rendering');
    expectError(await settle(heavy.body.data.image), 100022);
  });

  it('answers 100013 once a pdf cannot be drawn, and tells another account nothing', async () => {
    const broken = await uploadPdf(Buffer.from('%PDF-1.7\nthis is not a pdf at all\n%%EOF'));
    expect(broken.body.data.state).toBe('rendering');
    expectError(await settle(broken.body.data.image), 100013);
    const stranger = await signUpByMail(h, 'stranger-plans@example.com');
    expectError(await api(h.app, mapEndpoints.uploadState, { params: { file: broken.body.data.image } }, { token: stranger }), 110011);
  });
});
