import { allEndpoints, authEndpoints, type EndpointSpec } from '@lumigrid/contract';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.ts';
import {
  ADMIN_PASSWORD,
  SERVICE_DATABASES,
  api,
  call,
  expectError,
  login,
  signUpByMail,
  signUpCode,
  startApp,
  type Harness,
} from '../test/harness.ts';
import { safeError } from './log-safety.ts';

const NUL = '\u0000';

describe.each(SERVICE_DATABASES)('control characters and deep bodies on %s', (kind) => {
  let h: Harness;
  let token: string;
  let ownerToken: string;
  const lines: string[] = [];
  // The platform administrator passes every access level but the account owner's own.
  const tokenFor = (spec: EndpointSpec) => (spec.access === 'accountOwner' ? ownerToken : token);

  beforeAll(async () => {
    h = await startApp(kind, {}, { logger: { level: 'debug', stream: { write: (line: string) => void lines.push(line) } } });
    token = await login(h, 'admin', ADMIN_PASSWORD);
    ownerToken = await signUpByMail(h, 'unsafe-input-owner@example.com');
  });
  afterAll(async () => h?.close());

  /** A body for any endpoint: every key the refusal could hinge on carries the character. */
  const poisoned = { name: `a${NUL}b`, account: NUL, nested: { deeper: [`x${NUL}`] } };

  it('refuses a NUL in the body of every JSON endpoint with invalid input, never 5xx', async () => {
    const answered: string[] = [];
    for (const spec of allEndpoints().filter((e) => (e.method === 'POST' || e.method === 'PUT') && e.kind !== 'upload')) {
      const url = spec.path.replace(/:(\w+)/g, '1');
      const res = await call(h.app, spec.method, url, { token: tokenFor(spec), body: poisoned });
      if (res.body?.code !== 100001) answered.push(`${spec.method} ${spec.path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(answered).toEqual([]);
  });

  it('refuses a NUL in a path parameter or the query of every endpoint that takes one', async () => {
    const answered: string[] = [];
    for (const spec of allEndpoints()) {
      const url = spec.path.includes(':') ? spec.path.replace(/:(\w+)/g, '1%00') : `${spec.path}?name=%00`;
      const res = await call(h.app, spec.method, url, {
        token: tokenFor(spec),
        body: spec.method === 'POST' || spec.method === 'PUT' ? {} : undefined,
      });
      if (res.status >= 500 || (res.status !== 404 && res.body?.code !== 100001)) answered.push(`${spec.method} ${url}: ${res.status}`);
    }
    expect(answered).toEqual([]);
  });

  it('refuses bodies nested deeper than any request needs', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { d: deep };
    const res = await call(h.app, 'POST', authEndpoints.login.path, { body: { account: 'admin', password: ADMIN_PASSWORD, deep } });
    expectError(res, 100001);
  });

  it('answers a NUL in an anonymous sign-in as invalid input, and the log holds no password or hash', async () => {
    const password = `Secret-${NUL}-Pass1`;
    expectError(await api(h.app, authEndpoints.login, { body: { account: `admin${NUL}`, password } }), 100001);
    const all = lines.join('\n');
    expect(all).not.toContain('Secret-');
    expect(all).not.toContain('$argon2');
  });

  it('keeps a sign-up code usable when the sign-up is refused, and spends it when one succeeds', async () => {
    const mail = `nul-${kind}@example.com`;
    const code = await signUpCode(h, mail);
    const register = (name: string) =>
      call(h.app, 'POST', authEndpoints.registerByMail.path, { body: { mail, code, password: 'Secret-Pass1', name } });
    expectError(await register(`Evil${NUL}`), 100001);
    expect((await register('Good name')).body.code).toBe(0);
    expectError(await register('Second try'), 250001);
    const rows = await h.database.db.select({ account: users.account }).from(users);
    expect(rows.filter((r) => r.account === mail)).toHaveLength(1);
  });

  it('logs request paths without their query strings', async () => {
    await call(h.app, 'GET', `${authEndpoints.captcha.path}?token=query-secret-123`);
    expect(lines.some((l) => l.includes(authEndpoints.captcha.path))).toBe(true);
    expect(lines.join('\n')).not.toContain('query-secret-123');
  });
});

describe('safe error serialisation', () => {
  it('drops the bound values a failed query carries, keeping the SQL and the database code', () => {
    const hash = '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA';
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    const error = new DrizzleQueryError('insert into "users" ("account", "password_hash") values ($1, $2)', ['someone', hash], cause);
    const logged = JSON.stringify(safeError(error));
    expect(logged).not.toContain(hash);
    expect(logged).not.toContain('someone');
    expect(logged).toContain('insert into');
    expect(logged).toContain('22021');
  });

  it('keeps a reason given as text whole, without the bound values after it', () => {
    expect(safeError('Keepalive timeout')).toEqual({ type: 'string', message: 'Keepalive timeout', stack: '' });
    expect(safeError('insert failed\nparams: someone,secret').message).toBe('insert failed\nparams: [redacted]');
  });
});
