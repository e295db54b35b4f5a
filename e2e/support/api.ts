import { poll as serverPoll } from '../../apps/server/src/test/poll.ts';
import {
  authEndpoints,
  outboxEndpoints,
  endpointUrl,
  type EndpointAnswer,
  type EndpointInput,
  type EndpointSpec,
} from '@lumigrid/contract';
import { ADMIN_PASSWORD } from './server.ts';
import { PATIENCE_MS } from './browser.ts';

/**
 * Calls an endpoint of the contract's table from the test itself, for set-up and for reading what the browser
 * cannot; answers the envelope's data and fails on any other code.
 */
export async function api<E extends EndpointSpec>(
  baseUrl: string,
  spec: E,
  input: EndpointInput<E>,
  options: { token?: string } = {},
): Promise<EndpointAnswer<E>> {
  const given = (input as { body?: unknown }).body;
  // An upload's FormData sets its own multipart content type.
  const form = given instanceof FormData ? given : undefined;
  const body = form ?? (spec.method === 'POST' || spec.method === 'PUT' ? JSON.stringify(given ?? {}) : undefined);
  const response = await fetch(`${baseUrl}${endpointUrl(spec, input)}`, {
    method: spec.method,
    headers: {
      ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body,
  });
  const envelope = (await response.json()) as { code: number; msg: string; data: EndpointAnswer<E> };
  if (envelope.code !== 0) throw new Error(`${spec.method} ${spec.path} answered ${response.status} ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

export async function signIn(baseUrl: string, account: string, password: string): Promise<string> {
  const result = await api(baseUrl, authEndpoints.login, { body: { account, password } });
  return result.access_token;
}

export const adminToken = (baseUrl: string) => signIn(baseUrl, 'admin', ADMIN_PASSWORD);

/** The verification code most recently sent to a recipient, read from the development outbox. */
export async function latestCodeFor(baseUrl: string, recipient: string): Promise<string> {
  const token = await adminToken(baseUrl);
  const page = await api(baseUrl, outboxEndpoints.list, { query: { page: 1, pageSize: 50 } }, { token });
  const message = page.list.find((entry) => entry.recipient === recipient);
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${recipient}`);
  return code;
}

/** The one waiting helper of every test tier, with a browser's patience: a condition (an API answer, a canvas pixel) polled until it holds. */
export const poll: typeof serverPoll = (condition, what, options = {}) =>
  serverPoll(condition, what, { timeoutMs: PATIENCE_MS, everyMs: 150, ...options });
