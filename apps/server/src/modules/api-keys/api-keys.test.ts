import {
  API_KEY_LIMITS,
  OPERATE_AUTH,
  USER_AUTH,
  accountEndpoints,
  allEndpoints,
  apiKeyEndpoints,
  apiKeyMayCall,
  apiKeyReaches,
  auditEndpoints,
  authEndpoints,
  projectEndpoints,
  type ApiKeyCreated,
  type ApiKeyScope,
  type EndpointSpec,
} from '@lumigrid/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, users } from '../../db/schema/index.ts';
import { SERVICE_DATABASES, api, apiData, call, expectError, prepared, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';
import { subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { expectSecretsNowhere, placesAfterTheAnswer } from '../../test/secrets.fixtures.ts';

const DAY_MS = 86_400_000;
const SCOPES: ApiKeyScope[] = ['read', 'control', 'edit'];
type KeyRequest = { name?: string; scope: ApiKeyScope; projectIds?: string[] | null; expiresAt?: string };

describe.each(SERVICE_DATABASES)('API keys on %s', (kind) => {
  let h: Harness;
  let owner: string;
  let controllable: string;
  const logLines: string[] = [];
  const keys = {} as Record<ApiKeyScope, ApiKeyCreated>;
  const secretsMade: string[] = [];

  const inAYear = () => new Date(h.clock.now().getTime() + 365 * DAY_MS).toISOString();
  /** Asks for a key, named after its scope and good for a year unless the body says otherwise. */
  const createKey = (token: string, body: KeyRequest) =>
    api(h.app, apiKeyEndpoints.create, { body: { name: `key ${body.scope}`, expiresAt: inAYear(), ...body } }, { token });
  async function makeKey(token: string, body: KeyRequest) {
    const res = await createKey(token, body);
    expect(res.body?.code, JSON.stringify(res.body)).toBe(0);
    const key = res.body.data;
    secretsMade.push(key.secret);
    return key;
  }

  beforeAll(async () => {
    // Debug level writes a line for every request: the log the secret must never reach.
    h = await startApp(kind, {}, { logger: { level: 'debug', stream: { write: (line: string) => void logLines.push(line) } } });
    owner = await signUpByMail(h, 'keys-owner@example.com');
    controllable = await subAccount(h, 'keys-owner@example.com', OPERATE_AUTH.controllable);
    for (const scope of SCOPES) keys[scope] = await makeKey(owner, { scope });
  });
  afterAll(async () => h?.close());

  /** Clears every key's count of calls in the minute: tests of other rules are not about the rate limit. */
  async function forgetCalls() {
    await h.database.db.update(apiKeys).set({ windowCalls: 0 });
  }

  /** Placeholder input, as the role matrix sends it: a refused caller is refused before its input is read. */
  const SAMPLE_PARAMS: Record<string, string> = { userAuth: String(USER_AUTH.subAccount), id: '987654321' };
  function send(spec: EndpointSpec, token: string, remoteAddress?: string) {
    const url = spec.path.replace(/:(\w+)/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? '1');
    const sendsBody = spec.method === 'POST' || spec.method === 'PUT';
    return call(h.app, spec.method, url, { token, body: sendsBody ? {} : undefined, remoteAddress });
  }

  it.each(SCOPES)('lets a %s key call exactly the endpoints of the table its scope admits', async (scope) => {
    const wrong: string[] = [];
    for (const spec of allEndpoints().filter((e) => e.access !== 'public')) {
      await forgetCalls();
      const res = await send(spec, keys[scope].secret);
      const where = `${spec.method} ${spec.path} (${spec.access}): ${JSON.stringify(res.body)}`;
      expect(res.status, where).toBeLessThan(500);
      const code = res.body?.code;
      const expected = !apiKeyReaches(spec) ? 101005 : !apiKeyMayCall(spec, scope) ? 110003 : undefined;
      if (expected !== undefined ? code !== expected : code === 110003 || code === 101005 || code === 101001) wrong.push(where);
    }
    expect(wrong).toEqual([]);
  });

  it('never reaches sign-in, password, account or key management', async () => {
    const edit = keys.edit.secret;
    for (const refused of [
      prepared(accountEndpoints.profile, {}),
      prepared(accountEndpoints.changePassword, { body: { oldPassword: 'Secret-Pass1', newPassword: 'Other-Pass-22' } }),
      prepared(authEndpoints.logout, {}),
      prepared(apiKeyEndpoints.list, {}),
    ])
      expectError(await refused.send(h.app, { token: edit }), 101005);
    expectError(await createKey(edit, { name: 'more', scope: 'read' }), 101005);
  });

  it('calls as its maker: reads and changes the account’s installation, and the trail names the key', async () => {
    await forgetCalls();
    const project = await apiData(
      h.app,
      projectEndpoints.addProject,
      { body: { name: 'Made by a key' } },
      { token: keys.edit.secret, remoteAddress: '10.9.8.7' },
    );
    const seen = await apiData(h.app, projectEndpoints.projectDetail, { params: { id: project.id } }, { token: keys.read.secret });
    expect(seen.project.name).toBe('Made by a key');
    expectError(await api(h.app, projectEndpoints.addProject, { body: { name: 'Refused' } }, { token: keys.control.secret }), 110003);

    const listed = await apiData(h.app, apiKeyEndpoints.list, {}, { token: owner });
    const edit = listed.find((k) => k.id === keys.edit.id)!;
    expect(edit).toMatchObject({ lastUsedIp: '10.9.8.7', lastUsedAt: h.clock.now().toISOString(), revokedAt: null, scope: 'edit' });

    await poll(async () => {
      await h.app.audit.writer.flush();
      const page = await apiData(h.app, auditEndpoints.page, { body: { kind: 'projects.addProject' } }, { token: owner });
      return page.list.some((e) => e.request.answer && (e.request.answer as { id?: string }).id === project.id);
    }, 'the key’s call in the trail');
    const page = await apiData(h.app, auditEndpoints.page, { body: { kind: 'projects.addProject' } }, { token: owner });
    const entry = page.list.find((e) => (e.request.answer as { id?: string } | undefined)?.id === project.id)!;
    expect(entry).toMatchObject({
      actor: 'apiKey',
      apiKeyId: keys.edit.id,
      userId: keys.edit.userId,
      userName: keys.edit.userName,
      ip: '10.9.8.7',
    });
  });

  it('fails on the next call once revoked, once expired, or with a wrong secret', async () => {
    const doomed = await makeKey(owner, { scope: 'read', name: 'doomed' });
    const probe = () => api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: doomed.secret });
    expect((await probe()).body.code).toBe(0);
    await apiData(h.app, apiKeyEndpoints.revoke, { body: { id: doomed.id } }, { token: owner });
    expectError(await probe(), 101002);
    expect((await apiData(h.app, apiKeyEndpoints.list, {}, { token: owner })).find((k) => k.id === doomed.id)?.revokedAt).toBe(
      h.clock.now().toISOString(),
    );

    const brief = await makeKey(owner, {
      scope: 'read',
      name: 'brief',
      expiresAt: new Date(h.clock.now().getTime() + 60_000).toISOString(),
    });
    const briefProbe = () => api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: brief.secret });
    expect((await briefProbe()).body.code).toBe(0);
    h.clock.advance(60_000);
    expectError(await briefProbe(), 101003);

    const forged = keys.read.secret.slice(0, -4) + (keys.read.secret.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const res = await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: forged });
    expectError(res, 101001);
    expect(res.status).toBe(401);
    expectError(await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: 'lg_999999_' + 'x'.repeat(43) }), 101001);
  });

  it('never acts beyond its maker’s authority, now or later', async () => {
    const maker = await subAccount(h, 'keys-owner@example.com', OPERATE_AUTH.controllable);
    expectError(await createKey(maker, { name: 'too much', scope: 'edit' }), 110003);
    const control = await makeKey(maker, { scope: 'control' });
    const [row] = await h.database.db
      .select()
      .from(users)
      .where(eq(users.id, BigInt(control.userId)));
    // The maker becomes view-only: its key may still read, no longer control.
    await h.database.db.update(users).set({ operateAuth: OPERATE_AUTH.viewOnly }).where(eq(users.id, row!.id));
    const controlSpec = allEndpoints().find((e) => e.access === 'control')!;
    expectError(await send(controlSpec, control.secret), 110003);
    expect((await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: control.secret })).body.code).toBe(0);
    await h.database.db.update(users).set({ enabled: false }).where(eq(users.id, row!.id));
    expectError(await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: control.secret }), 250018);
  });

  it('sees only the projects it is limited to', async () => {
    const tree = treeFactory(h, owner);
    const given = await tree.project({ name: 'Given' });
    const child = await tree.project({ name: 'Given child', parentId: given.id });
    const other = await tree.project({ name: 'Not given' });
    const limited = await makeKey(owner, { scope: 'read', projectIds: [given.id] });
    const seen = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: limited.secret });
    expect(seen.projects.map((p) => p.id).sort()).toEqual([given.id, child.id].sort());
    expectError(await api(h.app, projectEndpoints.projectDetail, { params: { id: other.id } }, { token: limited.secret }), 110011);
    expect(limited.projectIds).toEqual([given.id]);

    const stranger = await signUpByMail(h, 'keys-stranger@example.com');
    const theirs = await treeFactory(h, stranger).project({ name: 'Theirs' });
    expectError(await createKey(owner, { name: 'x', scope: 'read', projectIds: [theirs.id] }), 110011);
    // Keys of another account do not exist for the owner; a sub-account sees and revokes only its own.
    expectError(await api(h.app, apiKeyEndpoints.revoke, { body: { id: keys.read.id } }, { token: stranger }), 110011);
    expect(await apiData(h.app, apiKeyEndpoints.list, {}, { token: stranger })).toEqual([]);
    const mine = await apiData(h.app, apiKeyEndpoints.list, {}, { token: controllable });
    expect(mine.every((k) => k.userId === mine[0]!.userId)).toBe(true);
    expectError(await api(h.app, apiKeyEndpoints.revoke, { body: { id: keys.read.id } }, { token: controllable }), 110011);
  });

  it.each([
    ['editable', OPERATE_AUTH.editable, 'edit'],
    ['controllable', OPERATE_AUTH.controllable, 'control'],
    ['view-only', OPERATE_AUTH.viewOnly, 'read'],
  ] as const)(
    'lets a sub-account (%s) limited to a project manage its own keys, within its authority and that project',
    async (_name, authority, utmost) => {
      const tree = treeFactory(h, owner);
      const given = await tree.project({ name: `Given to ${authority}` });
      const other = await tree.project({ name: `Kept from ${authority}` });
      const sub = await subAccount(h, 'keys-owner@example.com', authority, [given.id]);

      const beyond = SCOPES[SCOPES.indexOf(utmost) + 1];
      if (beyond) expectError(await createKey(sub, { name: 'too much', scope: beyond }), 110003);
      expectError(await createKey(sub, { name: 'x', scope: 'read', projectIds: [other.id] }), 110011);
      const own = await makeKey(sub, { scope: utmost });
      // A key for every project the maker sees: no more than the sub-account's one project.
      await forgetCalls();
      const seen = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: own.secret });
      expect(seen.projects.map((p) => p.id)).toEqual([given.id]);

      expect((await apiData(h.app, apiKeyEndpoints.list, {}, { token: sub })).map((k) => k.id)).toEqual([own.id]);
      expect((await apiData(h.app, apiKeyEndpoints.list, {}, { token: owner })).map((k) => k.id)).toContain(own.id);
      expectError(await api(h.app, apiKeyEndpoints.revoke, { body: { id: keys.read.id } }, { token: sub }), 110011);
      await apiData(h.app, apiKeyEndpoints.revoke, { body: { id: own.id } }, { token: sub });
      expectError(await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: own.secret }), 101002);
    },
  );

  it('tells integrators in the OpenAPI document which scopes pass each endpoint', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    expect(doc.paths['/api4/project_user/v1/{id}/sub_links']!.get!.description).toContain(
      'API keys of scope read or control or edit may call it.',
    );
    expect(doc.paths['/api4/project/v1/add']!.post!.description).toContain('API keys of scope edit may call it.');
    expect(doc.paths['/api1/user/v1/logout']!.post!.description).toContain('API keys cannot call it (101005).');
  });

  it('refuses a blank name, and an expiry in the past or more than two years ahead', async () => {
    expectError(await createKey(owner, { name: '   ', scope: 'read' }), 100001);
    for (const expiresAt of [new Date(h.clock.now().getTime() - 1000), new Date(h.clock.now().getTime() + 731 * DAY_MS)])
      expectError(
        await api(
          h.app,
          apiKeyEndpoints.create,
          { body: { name: 'x', scope: 'read', expiresAt: expiresAt.toISOString() } },
          { token: owner },
        ),
        101006,
      );
  });

  it(`answers 101004 past ${API_KEY_LIMITS.callsPerMinute} calls in a minute, and serves again the next minute`, async () => {
    const busy = await makeKey(owner, { scope: 'read', name: 'busy' });
    const probe = () => api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: busy.secret });
    for (let i = 0; i < API_KEY_LIMITS.callsPerMinute; i++) expect((await probe()).body.code).toBe(0);
    const refused = await probe();
    expectError(refused, 101004);
    expect(refused.status).toBe(429);
    h.clock.advance(60_000);
    expect((await probe()).body.code).toBe(0);
  });

  it('shows the secret once, in the create answer, and keeps only its hash', async () => {
    const listed = await apiData(h.app, apiKeyEndpoints.list, {}, { token: owner });
    const places = await placesAfterTheAnswer(h, { listed, tables: { stored: apiKeys }, logLines });
    // The log did see the calls the keys made, by path, and the trail their entries.
    expect(places.logged).toContain('/api4/project_user/v1/0/sub_links');
    expect(places.trail).toContain('"actor":"apiKey"');
    // The key's id before its random part is public.
    expectSecretsNowhere(places, secretsMade, /^lg_[0-9]+_[A-Za-z0-9_-]{43}$/, (secret) => secret.split('_').slice(2).join('_'));
    const hashes = await h.database.db.execute(sql`select secret_hash from api_keys`);
    expect((hashes as unknown as { rows: Array<{ secret_hash: string }> }).rows.every((r) => /^[0-9a-f]{64}$/.test(r.secret_hash))).toBe(
      true,
    );
  });
});
