import { type EndpointInput, type EndpointSpec, type ErrorCode } from '@lumigrid/contract';
import { expect, it } from 'vitest';
import type { App } from '../http/types.ts';
import { api, call, expectError } from './harness.ts';

type Answer = Awaited<ReturnType<typeof call>>;

/** One call of an intruder (the second account) with a victim's ids (`a`) and, where a call takes several, its own (`b`). */
export interface TenancyCase<W> {
  endpoint: EndpointSpec;
  send(app: App, a: W, b: W, token: string | undefined): Promise<Answer>;
  /** The refusal expected; 110011 (not yours, or not there) unless the endpoint has a more specific one. */
  code: ErrorCode;
}

/** A case whose input comes from the endpoint table, so a renamed field or path fails tsc here too. */
export function tenancyCase<E extends EndpointSpec, W>(
  endpoint: E,
  input: (a: W, b: W) => NoInfer<EndpointInput<E>>,
  options: { code?: ErrorCode } = {},
): TenancyCase<W> {
  return { endpoint, send: (app, a, b, token) => api(app, endpoint, input(a, b), { token }), code: options.code ?? 110011 };
}

/** A case sent by hand (multipart uploads), still named by its endpoint. */
export function rawTenancyCase<W>(
  endpoint: EndpointSpec,
  send: TenancyCase<W>['send'],
  options: { code?: ErrorCode } = {},
): TenancyCase<W> {
  return { endpoint, send, code: options.code ?? 110011 };
}

/**
 * The tenancy matrix of one domain: every endpoint of the domain has at least one case (or is named as taking
 * no ids of the caller's choosing, tested on its own); every case, sent by a second account with the first
 * account's ids, is refused with its code and tells none of the first account's names; every case without a
 * token is refused with 250004. The world is read lazily: suites build it in beforeAll.
 */
export function tenancyMatrix<W>(setup: {
  domain: Record<string, EndpointSpec>;
  cases: Array<TenancyCase<W>>;
  withoutIds?: EndpointSpec[];
  secrets: string[];
  world: () => { app: App; intruder: string; a: W; b: W };
}) {
  const named = (c: TenancyCase<W>, i: number) => [`${i + 1}. ${c.endpoint.method} ${c.endpoint.path}`, c] as const;

  it('has a case for every endpoint of the domain', () => {
    const covered = new Set<EndpointSpec>([...setup.cases.map((c) => c.endpoint), ...(setup.withoutIds ?? [])]);
    const missing = Object.values(setup.domain).filter((e) => !covered.has(e));
    expect(missing.map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });

  it.each(setup.cases.map(named))('refuses %s with the first account\u2019s ids', async (_name, c) => {
    const { app, intruder, a, b } = setup.world();
    const res = await c.send(app, a, b, intruder);
    expectError(res, c.code);
    const text = JSON.stringify(res.body);
    for (const secret of setup.secrets) expect(text).not.toContain(secret);
  });

  it.each(setup.cases.filter((c) => c.endpoint.access !== 'public').map(named))('refuses %s without a token', async (_name, c) => {
    const { app, a, b } = setup.world();
    expectError(await c.send(app, a, b, undefined), 250004);
  });
}
