import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { desc } from 'drizzle-orm';
import {
  allEndpoints,
  endpointUrl,
  errorMessage,
  type EndpointAnswer,
  type EndpointInput,
  type EndpointSpec,
  type ErrorCode,
  type Lang,
  authEndpoints,
} from '@lumigrid/contract';
import { expect } from 'vitest';
import { buildApp, type AppOptions } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { freshDatabase } from './database-templates.ts';
import { outbox } from '../db/schema/index.ts';
import type { App } from '../http/types.ts';

export const ADMIN_PASSWORD = 'Admin-Pass-2026';
export const CAPTCHA = 'K7PX';

/**
 * The databases the storage suites run on (what the two engines may do differently: the driver and its thread,
 * pools and transactions, COPY, LISTEN/NOTIFY, leases, dumps, retention): PGlite always, PostgreSQL when
 * DATABASE_URL is set.
 */
export const DATABASES: Array<'pglite' | 'postgres'> = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The database the suites of the services above the storage run on: PostgreSQL when DATABASE_URL is set (CI,
 * and the SaaS deployment), PGlite otherwise. PGlite is PostgreSQL's own engine, so a service's SQL means the
 * same on both; what differs between them is the storage suites' to prove, and every browser journey runs the
 * whole product on PGlite, the embedded default.
 */
export const SERVICE_DATABASES: Array<'pglite' | 'postgres'> = process.env.DATABASE_URL ? ['postgres'] : ['pglite'];

/** A clock the test moves by hand. */
export class TestClock {
  private t = Date.parse('2026-11-23T08:00:00Z');
  now = () => new Date(this.t);
  advance(ms: number) {
    this.t += ms;
  }
}

export interface Harness {
  app: App;
  clock: TestClock;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** Builds the whole application on a fresh database of the given kind; `extra` tunes parts such as real-time. */
export async function startApp(
  kind: 'pglite' | 'postgres',
  env: Record<string, string> = {},
  extra: Pick<
    AppOptions,
    | 'realtime'
    | 'realtimeBus'
    | 'gatewayLink'
    | 'firmware'
    | 'logger'
    | 'offlineGraceMs'
    | 'alarmTickMs'
    | 'jobs'
    | 'webhookGatherMs'
    | 'draining'
  > = {},
): Promise<Harness> {
  const database = await freshDatabase(kind);
  const config = loadConfig({
    // Suites start with a clean slate; src/demo's tests switch the demo site on.
    DEMO: 'off',
    ADMIN_PASSWORD,
    CAPTCHA_TEXT: CAPTCHA,
    BRANDING_DIR: resolve(import.meta.dirname, 'fixtures/branding'),
    WEB_DIST: resolve(import.meta.dirname, 'fixtures/no-web'),
    // Suites see a gateway's offline as it happens; the grace has its own tests (presence.test.ts).
    PRESENCE_GRACE_S: '0',
    ...env,
  });
  const clock = new TestClock();
  // Every real-time message a suite makes the server publish is checked against the contract's live topics.
  const liveMessageProblems: string[] = [];
  const app = await buildApp({
    ...extra,
    config,
    database,
    clock,
    logger: extra.logger ?? false,
    liveMessageProblem: (problem) => liveMessageProblems.push(problem),
  });
  return {
    app,
    clock,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      if (liveMessageProblems.length > 0)
        throw new Error(`real-time messages the contract's live topics refuse:\n${[...new Set(liveMessageProblems)].join('\n')}`);
    },
  };
}

type Json = Record<string, unknown>;

/** A JSON call through app.inject; answers status, headers and the parsed body. */
/** Every method and path of the endpoint table, as patterns a request URL is matched against. */
const TABLE = allEndpoints().map((e) => ({ method: e.method, pattern: new RegExp(`^${e.path.replace(/:\w+/g, '[^/]+')}$`) }));

/**
 * Whether a request names an endpoint of the table. Tests reach the API only through the table; a call to an
 * API path outside it (a renamed route left in a test) fails at once instead of passing as a 404.
 */
function inTable(method: string, url: string): boolean {
  const path = url.split('?')[0]!;
  if (!path.startsWith('/api4/')) return true;
  return TABLE.some((e) => e.method === method && e.pattern.test(path));
}

export async function call(
  app: App,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: {
    body?: unknown;
    token?: string;
    lang?: Lang;
    headers?: Record<string, string>;
    outsideTable?: boolean;
    /** The caller's address as the server sees it (127.0.0.1 otherwise). */
    remoteAddress?: string;
  } = {},
) {
  if (!options.outsideTable && !inTable(method, url)) throw new Error(`${method} ${url} is not in the endpoint table`);
  const res = await app.inject({
    method,
    url,
    remoteAddress: options.remoteAddress,
    payload: options.body as Json | undefined,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.lang ? { 'accept-language': options.lang } : {}),
      ...options.headers,
    },
  });
  let body: { code: number; msg: string; data: any } | undefined;
  try {
    body = res.json();
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: body as { code: number; msg: string; data: any } };
}

/** Who calls, in which language, with which extra headers. */
export interface CallerOptions {
  token?: string;
  lang?: Lang;
  headers?: Record<string, string>;
  /** The caller's address as the server sees it (127.0.0.1 otherwise). */
  remoteAddress?: string;
}

/** A call of the endpoint table through app.inject; `data` has the endpoint's answer type. */
export async function api<E extends EndpointSpec>(app: App, spec: E, input: EndpointInput<E>, options: CallerOptions = {}) {
  const { body } = input as { body?: unknown };
  const sendsBody = spec.method === 'POST' || spec.method === 'PUT';
  const res = await call(app, spec.method, endpointUrl(spec, input), { ...options, body: sendsBody ? (body ?? {}) : body });
  return res as Omit<typeof res, 'body'> & { body: { code: number; msg: string; data: EndpointAnswer<E> } };
}

/** A caller of the endpoint table bound to one app and a default token: `send(endpoint, input, token?, lang?)`. */
export function endpointCaller(app: () => App, defaultToken: () => string | undefined) {
  return <E extends EndpointSpec>(spec: E, input: EndpointInput<E>, token = defaultToken(), lang?: Lang) =>
    api(app(), spec, input, { token, lang });
}

/** One endpoint and its input, checked against the table where written, sent later as whoever the test names. */
export interface PreparedCall {
  endpoint: EndpointSpec;
  send(app: App, options?: CallerOptions): ReturnType<typeof call>;
}

export function prepared<E extends EndpointSpec>(endpoint: E, input: EndpointInput<E>): PreparedCall {
  return { endpoint, send: (app, options) => api(app, endpoint, input, options) };
}

/**
 * An input the endpoint's schema refuses, sent on purpose to see the refusal: it passes the compiler, which
 * would otherwise reject it, and says so where it is written.
 */
export function refusedInput(input: { params?: unknown; query?: unknown; body?: unknown }): never {
  return input as never;
}

/** The data of a successful call; fails the test with the answer otherwise. */
export async function apiData<E extends EndpointSpec>(app: App, spec: E, input: EndpointInput<E>, options: CallerOptions = {}) {
  const res = await api(app, spec, input, options);
  expect(res.body?.code, `${spec.method} ${spec.path}: ${JSON.stringify(res.body)}`).toBe(0);
  return res.body.data;
}

/** Asserts an answer carries a business code with its message in the language asked for. */
export function expectError(res: Awaited<ReturnType<typeof call>>, code: ErrorCode, lang: Lang = 'en') {
  expect(res.body?.code, JSON.stringify(res.body)).toBe(code);
  expect(res.body.msg.startsWith(errorMessage(code, lang)), `${res.body.msg} in ${lang}`).toBe(true);
  expect(res.body.data).toBeNull();
}

/** The newest six-digit code the outbox holds for a recipient. */
export async function latestCode(h: Harness, recipient: string): Promise<string> {
  const rows = await h.database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(20);
  const row = rows.find((r) => r.recipient === recipient);
  const code = row ? /\b(\d{6})\b/.exec(row.body)?.[1] : undefined;
  if (!code) throw new Error(`no code in the outbox for ${recipient}`);
  return code;
}

/**
 * Asks for a code for a target (solving the captcha) and answers the raw response. Each call comes from an
 * address of its own, as different people signing up would, unless the test names one.
 */
export async function sendCode(h: Harness, target: string, purpose: 'register' | 'reset', lang?: Lang, remoteAddress = someAddress()) {
  const captcha = await api(h.app, authEndpoints.captcha, {});
  return api(
    h.app,
    authEndpoints.sendCode,
    { body: { target, purpose, captchaId: captcha.body.data.captchaId, captcha: CAPTCHA } },
    { lang, remoteAddress },
  );
}

/** A random private IPv4 address. */
export function someAddress(): string {
  const octet = () => randomBytes(1)[0]!;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/** Asks for a sign-up code for a mail address and answers it as the outbox holds it. */
export async function signUpCode(h: Harness, mail: string): Promise<string> {
  expect((await sendCode(h, mail, 'register')).body.code).toBe(0);
  return latestCode(h, mail);
}

/** Signs a new account up by e-mail, in the language given (the account's defaults are named in it), and answers its token. */
export async function signUpByMail(h: Harness, mail: string, password = 'Secret-Pass1', lang?: Lang): Promise<string> {
  const reg = await api(h.app, authEndpoints.registerByMail, { body: { mail, code: await signUpCode(h, mail), password, lang } });
  expect(reg.body.code, JSON.stringify(reg.body)).toBe(0);
  return login(h, mail, password);
}

export async function login(h: Harness, account: string, password: string): Promise<string> {
  const res = await api(h.app, authEndpoints.login, { body: { account, password } });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.access_token as string;
}
