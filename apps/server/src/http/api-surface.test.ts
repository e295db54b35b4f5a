import { isDeepStrictEqual } from 'node:util';
import { allEndpoints, openApiPath } from '@lumigrid/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.ts';
import { ADMIN_PASSWORD, call, login, startApp, type Harness } from '../test/harness.ts';
import { openApiDocument } from './openapi.ts';

type Operation = {
  requestBody?: unknown;
  parameters?: Array<{ in: string; name: string }>;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown;
};

describe('the API surface', () => {
  let h: Harness;
  let doc: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    h = await startApp('pglite');
    doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  });
  afterAll(async () => h?.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

  it('documents every route with its request and response schemas', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThanOrEqual(14);
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      const ok = op.responses?.['200']?.content;
      expect(ok, `${where} has no 200 response schema`).toBeDefined();
      expect(Object.values(ok!)[0]?.schema, `${where} has an empty response schema`).toBeDefined();
      if (method === 'post' || method === 'put') {
        const bodiless = ['/api1/user/v1/logout'];
        if (!bodiless.includes(path)) expect(op.requestBody, `${where} has no request body schema`).toBeDefined();
      }
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        expect(
          op.parameters?.some((p) => p.in === 'path' && p.name === name),
          `${where} lacks path parameter ${name}`,
        ).toBe(true);
      }
    }
  });

  it('documents exactly the endpoint table: no route outside it, no entry without its route', () => {
    const documented = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    const table = allEndpoints().map((e) => `${e.method} ${openApiPath(e.path)}`);
    expect(new Set(table).size, 'an endpoint is declared twice').toBe(table.length);
    expect([...documented].sort()).toEqual([...table].sort());
  });

  it('serves the document the snapshot check makes without a server (docs/openapi)', async () => {
    const made = await openApiDocument();
    // A deep compare of two 1.7 MB documents takes seconds in toEqual; its diff is only needed when they differ.
    if (!isDeepStrictEqual(doc, made)) expect(doc).toEqual(made);
  });

  it('serves the docs page', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBeLessThan(400);
  });

  it('answers unknown routes with 404 and the envelope', async () => {
    const res = await call(h.app, 'GET', '/api4/nothing/here', { lang: 'ja', outsideTable: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 100002, msg: 'ネットワークリクエストが存在しません', data: null });
  });

  it('never answers 5xx and changes nothing, whatever the body', async () => {
    const token = await login(h, 'admin', ADMIN_PASSWORD);
    const [{ n: usersBefore }] = (await h.database.db.select({ n: sql<number>`count(*)::int` }).from(users)) as [{ n: number }];
    const garbage: unknown[] = [
      null,
      0,
      -1,
      1e308,
      true,
      'text',
      '',
      [],
      [1, 2],
      {},
      { account: {} },
      { account: ['a'], password: 1 },
      { mail: 'x'.repeat(10_000), code: '1'.repeat(7), password: '\u0000' },
      { lang: 'klingon' },
      { target: '../../etc/passwd', purpose: 'register', captchaId: 'x', captcha: 'y' },
      { oldPassword: 'a'.repeat(51), newPassword: 'b' },
      { __proto__: { admin: true } },
      { constructor: { prototype: { x: 1 } } },
    ];
    for (const { path, method } of operations()) {
      const url = path.replace(/\{(\w+)\}/g, (_m, name) => (name === 'host' ? '..%2F..%2Fetc' : '%00%ff'));
      // A GET carries no body: one try per caller is all it can be sent.
      for (const body of method === 'get' ? [undefined] : garbage) {
        for (const auth of [undefined, token]) {
          const res = await h.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            payload: method === 'get' ? undefined : JSON.stringify(body),
            headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
          });
          expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)} -> ${res.body}`).toBeLessThan(500);
        }
      }
      // Broken JSON and a wrong content type are client errors too.
      for (const [payload, type] of [
        ['{"account":', 'application/json'],
        ['account=a', 'application/x-www-form-urlencoded'],
        ['x'.repeat(2 * 1024 * 1024), 'application/json'],
      ]) {
        if (method === 'get') continue;
        const res = await h.app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          payload,
          headers: { 'content-type': type!, authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, `${method} ${url} with ${type}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json().code).toBeGreaterThan(0);
      }
    }
    const [{ n: usersAfter }] = (await h.database.db.select({ n: sql<number>`count(*)::int` }).from(users)) as [{ n: number }];
    expect(usersAfter).toBe(usersBefore);
    const [admin] = await h.database.db.select().from(users).where(eq(users.account, 'admin'));
    expect(admin?.lang).toBe('en');
    // Thousands of requests, one after another: the whole table's worth, not any one answer, takes the time.
  }, 180_000);
});
