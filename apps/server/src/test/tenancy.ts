import {
  OPERATE_AUTH,
  USER_AUTH,
  mayCall,
  projectEndpoints,
  type EndpointInput,
  type EndpointSpec,
  type ErrorCode,
  type RoleSubject,
} from '@lumigrid/contract';
import { expect, it } from 'vitest';
import type { App } from '../http/types.ts';
import { api, apiData, call, expectError, type Harness } from './harness.ts';
import { subAccount } from './projects.fixtures.ts';

type Answer = Awaited<ReturnType<typeof call>>;

/** One call of an intruder (the second account) with a victim's ids (`a`) and, where a call takes several, its own (`b`). */
export interface TenancyCase<W> {
  endpoint: EndpointSpec;
  send(app: App, a: W, b: W, token: string | undefined): Promise<Answer>;
  /** The refusal expected; 110011 (not yours, or not there) unless the endpoint has a more specific one. */
  code: ErrorCode;
  /** Another refusal for a principal that reaches a different check first. */
  codeFor?: Partial<Record<PrincipalKey, ErrorCode>>;
}

/** A case whose input comes from the endpoint table, so a renamed field or path fails tsc here too. */
export function tenancyCase<E extends EndpointSpec, W>(
  endpoint: E,
  input: (a: W, b: W) => NoInfer<EndpointInput<E>>,
  options: Pick<TenancyCase<W>, 'codeFor'> & { code?: ErrorCode } = {},
): TenancyCase<W> {
  return {
    endpoint,
    send: (app, a, b, token) => api(app, endpoint, input(a, b), { token }),
    code: options.code ?? 110011,
    codeFor: options.codeFor,
  };
}

/** A case sent by hand (multipart uploads), still named by its endpoint. */
export function rawTenancyCase<W>(
  endpoint: EndpointSpec,
  send: TenancyCase<W>['send'],
  options: { code?: ErrorCode } = {},
): TenancyCase<W> {
  return { endpoint, send, code: options.code ?? 110011 };
}

/** Callers besides the second account's owner that every case must refuse as well. */
export const PRINCIPALS = {
  intruderEditable: 'the second account\u2019s editable sub-account',
  intruderControllable: 'the second account\u2019s controllable sub-account',
  intruderViewOnly: 'the second account\u2019s view-only sub-account',
  sibling: 'a first-account sub-account limited to another project',
} as const;
export type PrincipalKey = keyof typeof PRINCIPALS;
const PRINCIPAL_KEYS = Object.keys(PRINCIPALS) as PrincipalKey[];

/** A caller and what it is: its level decides whether a refusal is 110003 or the case's own code. */
export interface Principal extends RoleSubject {
  token: string;
}

/**
 * Signs in the principals of a tenancy matrix: three sub-accounts of the second account, and an editable
 * sub-account of the first account limited to a project of its own, which holds none of the ids the cases use.
 */
export async function tenancyPrincipals(
  h: Harness,
  accounts: { victim: string; victimToken: string; intruder: string },
): Promise<Record<PrincipalKey, Principal>> {
  const as = async (ownerLogin: string, operateAuth: number, projectIds?: string[]): Promise<Principal> => ({
    token: await subAccount(h, ownerLogin, operateAuth, projectIds),
    userAuth: USER_AUTH.subAccount,
    operateAuth,
  });
  const elsewhere = await apiData(h.app, projectEndpoints.addProject, { body: { name: 'Elsewhere' } }, { token: accounts.victimToken });
  return {
    intruderEditable: await as(accounts.intruder, OPERATE_AUTH.editable),
    intruderControllable: await as(accounts.intruder, OPERATE_AUTH.controllable),
    intruderViewOnly: await as(accounts.intruder, OPERATE_AUTH.viewOnly),
    sibling: await as(accounts.victim, OPERATE_AUTH.editable, [elsewhere.id]),
  };
}

/**
 * The tenancy matrix of one domain: every endpoint of the domain has at least one case (or is named as taking
 * no ids of the caller's choosing, tested on its own); every case, sent by a second account with the first
 * account's ids, is refused with its code and tells none of the first account's names, and so it is when sent
 * by each of PRINCIPALS (110003 where the endpoint's level refuses them first); every case without a token is
 * refused with 250004. The world is read lazily: suites build it in beforeAll.
 */
export function tenancyMatrix<W>(setup: {
  domain: Record<string, EndpointSpec>;
  cases: Array<TenancyCase<W>>;
  withoutIds?: EndpointSpec[];
  secrets: string[];
  world: () => { app: App; intruder: string; a: W; b: W; principals: Record<PrincipalKey, Principal> };
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

  const asEachPrincipal = setup.cases.flatMap((c, i) =>
    PRINCIPAL_KEYS.map((key) => [`${named(c, i)[0]} as ${PRINCIPALS[key]}`, c, key] as const),
  );
  it.each(asEachPrincipal)('refuses %s', async (_name, c, key) => {
    const { app, a, b, principals } = setup.world();
    const caller = principals[key];
    const res = await c.send(app, a, b, caller.token);
    expectError(res, mayCall(c.endpoint.access, caller) ? (c.codeFor?.[key] ?? c.code) : 110003);
    const text = JSON.stringify(res.body);
    for (const secret of setup.secrets) expect(text).not.toContain(secret);
  });

  it.each(setup.cases.filter((c) => c.endpoint.access !== 'public').map(named))('refuses %s without a token', async (_name, c) => {
    const { app, a, b } = setup.world();
    expectError(await c.send(app, a, b, undefined), 250004);
  });
}
