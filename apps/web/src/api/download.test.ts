import { sceneEndpoints } from '@lumigrid/contract/browser';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, callFile, dispositionFilename } from './client.ts';
import { signedInWithStubbedFetch } from '../test/signed-in.ts';

signedInWithStubbedFetch();

describe('callFile: a raw endpoint that answers a file', () => {
  it('answers the bytes and the name the server gave them', async () => {
    let sent: { url: string; method?: string; body?: unknown } | undefined;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent = { url, method: init.method, body: init.body };
      return new Response(new Uint8Array([80, 75, 3, 4]), {
        status: 200,
        headers: {
          'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'Content-Disposition': `attachment; filename="scenes.xlsx"; filename*=UTF-8''%E5%9C%BA%E6%99%AF.xlsx`,
        },
      });
    });
    const file = await callFile(sceneEndpoints.export, { body: { projectId: '7' } });
    expect(sent).toEqual({ url: '/api4/scene/v1/export', method: 'POST', body: '{"projectId":"7"}' });
    expect(file.filename).toBe('场景.xlsx');
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
  });

  it('turns a refusal envelope into the ApiError the other calls throw', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ code: 110011, msg: 'Not your data', data: null }), {
          status: 403,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const failure = await callFile(sceneEndpoints.export, { body: { projectId: '7' } }, { silent: true }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe(110011);
  });
});

describe('dispositionFilename', () => {
  it('reads the plain and the UTF-8 names, and nothing from nothing', () => {
    expect(dispositionFilename('attachment; filename="a b.xlsx"')).toBe('a b.xlsx');
    expect(dispositionFilename(`attachment; filename*=UTF-8''a%20b.xlsx`)).toBe('a b.xlsx');
    expect(dispositionFilename(null)).toBeUndefined();
  });
});
