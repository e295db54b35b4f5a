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
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../http/types.ts';
import { api, apiData, call, expectError, signUpByMail, startApp, type Harness } from './harness.ts';
import { mapInDefaultBuilding, subAccount } from './projects.fixtures.ts';
import { makePng, sendUpload } from './upload.fixtures.ts';

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

/** A case that uploads a small PNG, with form fields naming the ids (`{ id: a.scene }`), as a browser's form would. */
export function uploadTenancyCase<W>(endpoint: EndpointSpec, fields: (a: W, b: W) => Record<string, string>): TenancyCase<W> {
  return rawTenancyCase(endpoint, (app, a, b, token) =>
    sendUpload(app, endpoint, { name: 'x.png', type: 'image/png', data: makePng(4, 4) }, { token, fields: fields(a, b) }),
  );
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

/** What a tenancy suite runs against: the app alone, or anything that holds one (a gateway rig). */
type Started = Harness | { h: Harness; close(): Promise<void> };

function harnessOf(started: Started): Harness {
  return 'h' in started ? started.h : started;
}

/** The two accounts of a tenancy suite, the principals beside them, and what each account owns (`a`, `b`). */
export interface TenancyWorld<W, S extends Started> {
  started: S;
  h: Harness;
  app: App;
  /** The first account's token: the ids of the cases are its own. */
  victim: string;
  /** The second account's token: the caller of the matrix. */
  intruder: string;
  principals: Record<PrincipalKey, Principal>;
  a: W;
  b: W;
}

/**
 * Builds a tenancy suite's world in beforeAll and closes it in afterAll: starts the app (or a rig around it),
 * signs up the first and the second account by mail, signs in the principals, and seeds what each account owns.
 * Answers the world lazily, as tenancyMatrix reads it, so a suite's own tests read it the same way.
 */
export function tenancyWorld<W, S extends Started>(setup: {
  start: () => Promise<S>;
  /** Mail addresses of the first (victim) and the second (intruder) account. */
  accounts: { victim: string; intruder: string };
  seed: (started: S, tokens: { victim: string; intruder: string }) => Promise<{ a: W; b: W }>;
  timeout?: number;
}): () => TenancyWorld<W, S> {
  let world: TenancyWorld<W, S> | undefined;
  let started: S | undefined;
  beforeAll(async () => {
    started = await setup.start();
    const h = harnessOf(started);
    const victim = await signUpByMail(h, setup.accounts.victim);
    const intruder = await signUpByMail(h, setup.accounts.intruder);
    const principals = await tenancyPrincipals(h, {
      victim: setup.accounts.victim,
      victimToken: victim,
      intruder: setup.accounts.intruder,
    });
    const { a, b } = await setup.seed(started, { victim, intruder });
    world = { started, h, app: h.app, victim, intruder, principals, a, b };
  }, setup.timeout);
  afterAll(async () => {
    await started?.close();
  });
  return () => {
    if (!world) throw new Error('the tenancy world was not built: see the failure of beforeAll');
    return world;
  };
}

/** The places above a map, by id. */
export type MapPlaces = { project: string; build: string; map: string };

/**
 * A tenancy world on a fresh app with the accounts `<name>-owner` and `<name>-intruder`, each with a new map in its
 * default building; the owner's map is named `secret`, which may then appear in no answer to the intruder.
 */
export function twoMapsTenancyWorld(
  kind: 'pglite' | 'postgres',
  setup: { name: string; secret: string; intruderMap: string; timeout: number },
) {
  return tenancyWorld({
    start: () => startApp(kind),
    accounts: { victim: `${setup.name}-owner@example.com`, intruder: `${setup.name}-intruder@example.com` },
    seed: async (h, tokens) => ({
      a: await mapInDefaultBuilding(h, tokens.victim, setup.secret),
      b: await mapInDefaultBuilding(h, tokens.intruder, setup.intruderMap),
    }),
    timeout: setup.timeout,
  });
}
