import type { MapImage } from '@lumigrid/contract/browser';
import { describe, expect, it, vi } from 'vitest';
import { projectApi } from './api.ts';
import { signedInWithStubbedFetch } from '../../test/signed-in.ts';

const image = (state: MapImage['state'], width = 0): MapImage => ({
  image: `${'a'.repeat(32)}.png`,
  url: `/api4/map/v1/image/${'a'.repeat(32)}.png`,
  state,
  width,
  height: width,
  size: width * 10,
  contentType: 'image/png',
  sourceType: 'application/pdf',
  map: null,
});

/** Answers the given envelopes in turn and records the URLs asked. */
function answerInTurn(envelopes: unknown[]): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify(envelopes.shift()), { status: 200 });
  });
  return asked;
}

signedInWithStubbedFetch();

describe('uploading a floor plan whose pdf is drawn slowly', () => {
  it('follows upload_state until the page is drawn, and says so once', async () => {
    const asked = answerInTurn([
      { code: 0, msg: 'ok', data: image('rendering') },
      { code: 0, msg: 'ok', data: image('rendering') },
      { code: 0, msg: 'ok', data: image('ready', 800) },
    ]);
    const onRendering = vi.fn();
    const done = await projectApi.uploadMap(new File(['%PDF-'], 'plan.pdf'), undefined, { onRendering, everyMs: 0 });
    expect(done).toMatchObject({ state: 'ready', width: 800 });
    expect(onRendering).toHaveBeenCalledTimes(1);
    expect(asked).toEqual([
      '/api4/map/v1/upload_map',
      `/api4/map/v1/upload_state/${'a'.repeat(32)}.png`,
      `/api4/map/v1/upload_state/${'a'.repeat(32)}.png`,
    ]);
  });

  it('fails with the server’s refusal when the page cannot be drawn, and answers a ready upload at once', async () => {
    answerInTurn([
      { code: 0, msg: 'ok', data: image('rendering') },
      { code: 100013, msg: 'Please select a valid image', data: null },
    ]);
    await expect(projectApi.uploadMap(new File(['%PDF-'], 'plan.pdf'), undefined, { everyMs: 0 })).rejects.toThrow(/valid image/);
    const asked = answerInTurn([{ code: 0, msg: 'ok', data: image('ready', 40) }]);
    expect((await projectApi.uploadMap(new File(['png'], 'plan.png'))).width).toBe(40);
    expect(asked).toHaveLength(1);
  });
});
