import { poll as serverPoll } from '../../apps/server/src/test/poll.ts';
import { ADMIN_PASSWORD } from './server.ts';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** Calls the platform's API from the test itself, for set-up and for reading what the browser cannot. */
export async function api<T>(baseUrl: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${path} answered ${response.status} ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

export async function signIn(baseUrl: string, account: string, password: string): Promise<string> {
  const result = await api<{ access_token: string }>(baseUrl, '/api1/user/v1/login', { body: { account, password } });
  return result.access_token;
}

export const adminToken = (baseUrl: string) => signIn(baseUrl, 'admin', ADMIN_PASSWORD);

/** The verification code most recently sent to a recipient, read from the development outbox. */
export async function latestCodeFor(baseUrl: string, recipient: string): Promise<string> {
  const token = await adminToken(baseUrl);
  const page = await api<{ list: { recipient: string; body: string }[] }>(baseUrl, '/api1/outbox/v1/list?page=1&pageSize=50', { token });
  const message = page.list.find((entry) => entry.recipient === recipient);
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${recipient}`);
  return code;
}

/** The one waiting helper of every test tier, with a browser's patience: a condition (an API answer, a canvas pixel) polled until it holds. */
export const poll: typeof serverPoll = (condition, what, options = {}) =>
  serverPoll(condition, what, { timeoutMs: 20_000, everyMs: 150, ...options });
