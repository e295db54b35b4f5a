import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { poll } from '../../test/poll.ts';
import { PdfTooHeavyError, createRenderQueue, prepareMapImage, renderPdfFirstPage } from './map-image.ts';
import { checkJpeg, checkPng, sniffType } from '../../lib/picture.ts';
import { makeJpeg, makePdf, makePng } from '../../test/upload.fixtures.ts';

describe('floor-plan checks', () => {
  it('knows files by their first bytes, not their names', () => {
    expect(sniffType(makePng(2, 2))).toBe('image/png');
    expect(sniffType(makePdf())).toBe('application/pdf');
    expect(sniffType(Buffer.from('<svg/>'))).toBeUndefined();
    expect(sniffType(Buffer.from('GIF89a'))).toBeUndefined();
  });

  it('accepts a whole png and reads its size', async () => {
    expect(await checkPng(makePng(300, 7))).toEqual({ width: 300, height: 7 });
  });

  it('refuses a png with a wrong checksum, a cut-off body or less data than its header claims', async () => {
    const png = makePng(50, 50);
    const badCrc = Buffer.from(png);
    badCrc.writeUInt8(badCrc.readUInt8(29) ^ 0xff, 29); // last byte of the IHDR CRC
    expect(await checkPng(badCrc)).toBeUndefined();
    expect(await checkPng(png.subarray(0, png.length - 12))).toBeUndefined(); // no IEND
    // A header promising 5000 x 5000 pixels over the data of a 50 x 50 picture: a would-be bomb.
    const liar = makePng(50, 50);
    liar.writeUInt32BE(5000, 16);
    liar.writeUInt32BE(5000, 20);
    liar.writeUInt32BE(crc32(liar.subarray(12, 29)), 29); // a correct checksum, so only the data can betray it
    expect(await checkPng(liar)).toBeUndefined();
  });

  it('accepts a whole jpeg and refuses one without its end marker', async () => {
    const jpeg = await makeJpeg(33, 21);
    expect(checkJpeg(jpeg)).toEqual({ width: 33, height: 21 });
    expect(checkJpeg(jpeg.subarray(0, jpeg.length - 2))).toBeUndefined();
    expect(checkJpeg(jpeg.subarray(0, 100))).toBeUndefined();
  });

  it('refuses a pdf the renderer cannot read and tells the cause to whoever logs it', async () => {
    const causes: unknown[] = [];
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('not a document at all')]);
    const queue = createRenderQueue({ maxWaiting: 4, retryAfterS: 10 });
    await expect(prepareMapImage(broken, { account: '1', queue, onRenderError: (error) => causes.push(error) })).rejects.toMatchObject({
      code: 100013,
    });
    expect(causes).toHaveLength(1);
    expect(causes[0]).toBeInstanceOf(Error);
  });

  it('refuses a pdf holding a picture too large to decode with its own code, without decoding it', async () => {
    const causes: unknown[] = [];
    // 48 megapixels of grey in 47 kB: 48 MB once inflated, four times that as a canvas picture.
    const bomb = makePdf({ image: { width: 8000, height: 6000 } });
    expect(bomb.length).toBeLessThan(100_000);
    const queue = createRenderQueue({ maxWaiting: 4, retryAfterS: 10 });
    await expect(prepareMapImage(bomb, { account: '1', queue, onRenderError: (error) => causes.push(error) })).rejects.toMatchObject({
      code: 100022,
    });
    expect(causes[0]).toBeInstanceOf(PdfTooHeavyError);
    // A picture under the limit is drawn.
    const plan = await prepareMapImage(makePdf({ image: { width: 400, height: 200 } }), { account: '1', queue });
    expect(plan).toMatchObject({ contentType: 'image/png', sourceType: 'application/pdf' });
  });

  it("stops a render that grows the server's memory past its budget", async () => {
    // 36 megapixels decoded (36 MB grey, 144 MB as a canvas picture) against a 16 MB budget.
    const heavy = makePdf({ image: { width: 6000, height: 6000 } });
    await expect(renderPdfFirstPage(heavy, { memoryBytes: 16 * 2 ** 20, maxImagePixels: 100_000_000 })).rejects.toBeInstanceOf(
      PdfTooHeavyError,
    );
  });

  it('lets each account wait with one pdf at a time, bounds the whole queue, and answers 429 with the wait', async () => {
    const queue = createRenderQueue({ maxWaiting: 2, retryAfterS: 10 });
    let finishHeavy: (() => void) | undefined;
    const heavy = queue.run('heavy', () => new Promise<string>((resolve) => (finishHeavy = () => resolve('heavy done'))));
    expect(() => queue.run('heavy', async () => 'second')).toThrow(expect.objectContaining({ code: 100003, retryAfterSeconds: 10 }));
    const light = queue.run('light', async () => 'light done');
    expect(() => queue.run('third', async () => 'x')).toThrow(expect.objectContaining({ code: 100003 }));
    expect(queue.waiting).toBe(2);
    await poll(() => finishHeavy !== undefined, 'the heavy render started');
    finishHeavy!();
    expect(await heavy).toBe('heavy done');
    expect(await light).toBe('light done');
    expect(queue.waiting).toBe(0);
    // A failed render frees its account's place too.
    await expect(queue.run('heavy', async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await queue.run('heavy', async () => 'again')).toBe('again');
  });
});
