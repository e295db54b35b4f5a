import { afterEach, describe, expect, it, vi } from 'vitest';
import { allEndpoints, apiKeyEndpoints, authEndpoints, endpointId, groupEndpoints, type EndpointSpec } from '@lumigrid/contract';
import { LumigridError, createClient, keyCallable } from './index.ts';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Stubs fetch with one answer and records what the client sent. */
function answering(status: number, body: string, headers: Record<string, string> = {}): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body });
    return new Response(body, { status, headers });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

const client = () => createClient({ baseUrl: 'https://lumigrid.test/', apiKey: 'lg_7_secret', lang: 'ja' });

describe('the SDK client', () => {
  it('offers exactly the JSON calls of the table an API key reaches, by domain and name', () => {
    const offered = Object.entries(client()).flatMap(([domain, calls]) => Object.keys(calls).map((name) => `${domain}.${name}`));
    const expected = allEndpoints()
      .filter((e: EndpointSpec) => keyCallable(e))
      .map((e) => endpointId(e));
    expect(offered.sort()).toEqual(expected.sort());
    expect(offered).toContain('groups.control');
    expect(offered).not.toContain(endpointId(authEndpoints.login));
    expect(offered).not.toContain(endpointId(apiKeyEndpoints.create));
  });

  it('sends the key, the language and the JSON body to the path of the table, and answers the envelope data', async () => {
    const sent = answering(200, JSON.stringify({ code: 0, msg: 'ok', data: { mode: 'group', frames: 1, targets: 4 } }));
    const answer = await client().groups.control({ body: { id: '12', action: { op: 'onOff', on: true } } });
    expect(answer).toEqual({ mode: 'group', frames: 1, targets: 4 });
    expect(sent).toEqual([
      {
        url: `https://lumigrid.test${groupEndpoints.control.path}`,
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: 'Bearer lg_7_secret',
          'accept-language': 'ja',
        },
        body: JSON.stringify({ id: '12', action: { op: 'onOff', on: true } }),
      },
    ]);
  });

  it('fills path parameters and the query, and sends no body with GET', async () => {
    const sent = answering(200, JSON.stringify({ code: 0, msg: 'ok', data: { projects: [] } }));
    await client().projects.tree({ params: { id: '0' } });
    expect(sent[0]?.url).toBe('https://lumigrid.test/api4/project_user/v1/0/sub_links');
    expect(sent[0]?.body).toBeUndefined();
  });

  it('throws the platform’s code and message, and the wait a rate limit asks for', async () => {
    answering(429, JSON.stringify({ code: 101004, msg: 'too many calls', data: null }), { 'retry-after': '12' });
    const refusal = await client()
      .groups.control({ body: { id: '12', action: { op: 'onOff', on: true } } })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(LumigridError);
    expect(refusal).toMatchObject({ code: 101004, msg: 'too many calls', status: 429, retryAfterSeconds: 12 });
    expect((refusal as Error).message).toBe('POST /api4/zone/v1/control answered 429 101004 too many calls');
  });

  it('fails with the status when the answer is no envelope (a proxy’s error page)', async () => {
    answering(502, '<html>Bad gateway</html>');
    await expect(client().projects.tree({ params: { id: '0' } })).rejects.toMatchObject({ status: 502, code: undefined, msg: '' });
  });
});
