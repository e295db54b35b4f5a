import { poll as serverPoll } from '../../apps/server/src/test/poll.ts';
import { authEndpoints, outboxEndpoints, type EndpointAnswer, type EndpointInput, type EndpointSpec } from '@lumigrid/contract';
import { callEndpoint } from '@lumigrid/sdk';
import { ADMIN_PASSWORD } from './server.ts';
import { PATIENCE_MS } from './browser.ts';

/**
 * Calls an endpoint of the contract's table from the test itself, for set-up and for reading what the browser
 * cannot, through the integrators' SDK; answers the envelope's data and fails on any other code.
 */
export function api<E extends EndpointSpec>(
  baseUrl: string,
  spec: E,
  input: EndpointInput<E>,
  options: { token?: string } = {},
): Promise<EndpointAnswer<E>> {
  // A journey waits on a busy machine as long as a test may run (90 s), not the 30 s an integrator's call gets.
  return callEndpoint({ baseUrl, timeoutMs: PATIENCE_MS * 2, ...options }, spec, ...([input] as [EndpointInput<E>]));
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
