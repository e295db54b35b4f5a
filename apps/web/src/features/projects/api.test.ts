import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectApi } from './api.ts';

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
    return new Response(JSON.stringify({ code: 0, msg: 'ok', data: null }), { status: 200 });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('the /api4 calls of projects, buildings and maps (spec section 7)', () => {
  it('uses the paths and methods the server declares', async () => {
    const sent = recordCalls();
    await projectApi.page({ name: 'a', page: 2, pageSize: 20 });
    await projectApi.detail('7');
    await projectApi.tree('0');
    await projectApi.building('7', '8');
    await projectApi.map('7', '9');
    await projectApi.deleteProject('7');
    await projectApi.deleteBuilding('8');
    await projectApi.deleteMap('8', '9');
    await projectApi.moveMap({ id: '9', buildId: '10' });
    await projectApi.removeMapImage('9');
    expect(sent.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api4/project_user/v1/all_project_message',
      'GET /api4/project_user/v1/projects/7',
      'GET /api4/project_user/v1/0/sub_links',
      'GET /api4/project_user/v1/7/builds/8',
      'GET /api4/project_user/v1/7/maps/9',
      'DELETE /api4/project/v1/delete/7',
      'POST /api4/build/v1/delete',
      'DELETE /api4/map/v1/delete/8/9',
      'PUT /api4/map/v1/move',
      'GET /api4/map/v1/delete_map?id=9',
    ]);
    expect(sent[6]?.body).toBe(JSON.stringify({ id: '8' }));
  });

  it('uploads a floor plan as multipart with the map id before the file', async () => {
    const sent = recordCalls();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'plan.png', { type: 'image/png' });
    await projectApi.uploadMap(file, '9');
    const call = sent[0];
    expect(call?.url).toBe('/api4/map/v1/upload_map');
    // The browser writes the multipart Content-Type with its boundary; a JSON one would break the upload.
    expect(call?.contentType).toBeUndefined();
    const form = call?.body as FormData;
    expect([...form.keys()]).toEqual(['id', 'file']);
    expect(form.get('id')).toBe('9');
    expect((form.get('file') as File).name).toBe('plan.png');
  });
});
