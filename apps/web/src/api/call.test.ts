import { gatewayEndpoints, mapEndpoints, projectEndpoints } from '@lumigrid/contract/browser';
import { describe, expect, it, vi } from 'vitest';
import { call } from './client.ts';
import { session } from './session.ts';
import { signedInWithStubbedFetch } from '../test/signed-in.ts';

interface Sent {
  url: string;
  method: string;
  body: unknown;
  contentType: string | undefined;
}

/** Stubs fetch with a success envelope and records what the client sent. */
function recordCalls(): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    sent.push({ url, method: init.method ?? 'GET', body: init.body, contentType: headers['Content-Type'] });
    return new Response(JSON.stringify({ code: 0, msg: 'ok', data: { answered: true } }), { status: 200 });
  });
  return sent;
}

signedInWithStubbedFetch();

describe('call(endpoint, input): the one way the browser calls the server', () => {
  it('fills path parameters URL-encoded, appends the set query fields, and answers the envelope data', async () => {
    const sent = recordCalls();
    const answer = await call(projectEndpoints.buildingDetail, { params: { id: '7', buildId: '8' } });
    await call(gatewayEndpoints.list, { query: { page: 2, name: 'a&b', mapId: undefined } });
    await call(mapEndpoints.image, { params: { file: '../x y.png' } });
    expect(answer).toEqual({ answered: true });
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api4/project_user/v1/7/builds/8',
      'GET /api4/gateway/v1/gateways?page=2&name=a%26b',
      'GET /api4/map/v1/image/..%2Fx%20y.png',
    ]);
    expect(sent[0]?.body).toBeUndefined();
  });

  it('sends JSON bodies with POST and PUT (an empty object when none is given), none with DELETE', async () => {
    const sent = recordCalls();
    await call(projectEndpoints.deleteBuilding, { body: { id: '8' } });
    await call(mapEndpoints.moveMap, { body: { id: '9', buildId: '10' } });
    await call(projectEndpoints.deleteProject, { params: { id: '7' } });
    await call(gatewayEndpoints.syncStatus);
    expect(sent.map((s) => [s.method, s.body, s.contentType])).toEqual([
      ['POST', JSON.stringify({ id: '8' }), 'application/json'],
      ['PUT', JSON.stringify({ id: '9', buildId: '10' }), 'application/json'],
      ['DELETE', undefined, undefined],
      ['GET', undefined, undefined],
    ]);
  });

  it('uploads a floor plan as multipart with the map id before the file', async () => {
    const sent = recordCalls();
    const form = new FormData();
    form.append('id', '9');
    form.append('file', new File([new Uint8Array([137, 80, 78, 71])], 'plan.png', { type: 'image/png' }));
    await call(mapEndpoints.upload, { body: form });
    expect(sent[0]?.url).toBe('/api4/map/v1/upload_map');
    // The browser writes the multipart Content-Type with its boundary; a JSON one would break the upload.
    expect(sent[0]?.contentType).toBeUndefined();
    expect([...(sent[0]?.body as FormData).keys()]).toEqual(['id', 'file']);
  });

  it('sends no call that needs a token once signed out (no 401, no "sign in again"), but still the public ones', async () => {
    const sent = recordCalls();
    vi.spyOn(session, 'token').mockReturnValue(undefined);
    await expect(call(gatewayEndpoints.syncStatus)).rejects.toThrow(/signed out/);
    await call(mapEndpoints.image, { params: { file: 'x.png' } });
    expect(sent.map((s) => s.url)).toEqual(['/api4/map/v1/image/x.png']);
  });
});
