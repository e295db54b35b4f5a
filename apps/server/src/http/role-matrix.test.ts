import { ACCESS_LEVELS, OPERATE_AUTH, USER_AUTH, allEndpoints, mayCall, type Access, type EndpointSpec } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subAccount } from '../test/projects.fixtures.ts';
import { ADMIN_PASSWORD, SERVICE_DATABASES, call, login, signUpByMail, type Harness, startApp } from '../test/harness.ts';

/** The callers of the matrix, with the two numbers the access rule reads. */
type Principal = 'admin' | 'owner' | 'editable' | 'controllable' | 'viewOnly';
const SUBJECTS: Record<Principal, { userAuth: number; operateAuth: number; pushAuth?: boolean }> = {
  // The first administrator starts with the push permission (docs/roles.md).
  admin: { userAuth: 1, operateAuth: OPERATE_AUTH.owner, pushAuth: true },
  owner: { userAuth: 2, operateAuth: OPERATE_AUTH.owner },
  editable: { userAuth: 3, operateAuth: OPERATE_AUTH.editable },
  controllable: { userAuth: 3, operateAuth: OPERATE_AUTH.controllable },
  viewOnly: { userAuth: 3, operateAuth: OPERATE_AUTH.viewOnly },
};

describe.each(SERVICE_DATABASES)('the role matrix of the endpoint table on %s', (kind) => {
  let h: Harness;
  const tokens = {} as Record<Principal, string>;
  // Endpoints about the caller's own session come last: one of them (logout) ends the session it is called with.
  const endpoints = allEndpoints().sort((a, b) => Number(a.access === 'signedIn') - Number(b.access === 'signedIn'));

  beforeAll(async () => {
    h = await startApp(kind);
    tokens.admin = await login(h, 'admin', ADMIN_PASSWORD);
    tokens.owner = await signUpByMail(h, 'matrix-owner@example.com');
    tokens.editable = await subAccount(h, 'matrix-owner@example.com', OPERATE_AUTH.editable);
    tokens.controllable = await subAccount(h, 'matrix-owner@example.com', OPERATE_AUTH.controllable);
    tokens.viewOnly = await subAccount(h, 'matrix-owner@example.com', OPERATE_AUTH.viewOnly);
  });
  afterAll(async () => h?.close());

  /**
   * Placeholder input: a refused caller is refused before the input is even read. Where a parameter itself
   * selects what a level admits (which users a list shows), it names what every admitted caller may see, and
   * ids name nothing (the platform administrator's own id would be refused as "yourself").
   */
  const SAMPLE_PARAMS: Record<string, string> = { userAuth: String(USER_AUTH.subAccount), id: '987654321' };
  const send = (spec: EndpointSpec, token?: string) => {
    const url = spec.path.replace(/:(\w+)/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? '1');
    const sendsBody = spec.method === 'POST' || spec.method === 'PUT';
    return call(h.app, spec.method, url, { token, body: sendsBody ? {} : undefined });
  };

  it('uses every access level it knows of, and the rule admits what the roles say', () => {
    const used = new Set(endpoints.map((e) => e.access));
    for (const access of used) expect(ACCESS_LEVELS).toContain(access);
    expect(mayCall('write', SUBJECTS.editable)).toBe(true);
    expect(mayCall('write', SUBJECTS.controllable)).toBe(false);
    expect(mayCall('control', SUBJECTS.controllable)).toBe(true);
    expect(mayCall('control', SUBJECTS.viewOnly)).toBe(false);
    expect(mayCall('read', SUBJECTS.viewOnly)).toBe(true);
    expect(mayCall('admin', SUBJECTS.owner)).toBe(false);
  });

  it('refuses every endpoint that needs a token to a caller without one (250004)', async () => {
    for (const spec of endpoints.filter((e) => e.access !== 'public')) {
      const res = await send(spec);
      expect(res.body?.code, `${spec.method} ${spec.path}`).toBe(250004);
    }
  });

  const principals = Object.keys(SUBJECTS) as Principal[];
  it.each(principals)('answers 110003 to %s exactly where its authority is too low', async (principal) => {
    const refusedWhere: string[] = [];
    const admittedWhere: string[] = [];
    for (const spec of endpoints.filter((e) => e.access !== 'public')) {
      const res = await send(spec, tokens[principal]);
      const where = `${spec.method} ${spec.path} (${spec.access})`;
      expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      const refused = res.body?.code === 110003;
      if (mayCall(spec.access as Access, SUBJECTS[principal])) {
        if (refused) admittedWhere.push(where);
      } else if (!refused) refusedWhere.push(where);
    }
    expect(refusedWhere, `${principal} was let through`).toEqual([]);
    expect(admittedWhere, `${principal} was refused`).toEqual([]);
  });
});
