import { createHash } from 'node:crypto';
import {
  OPERATE_AUTH,
  SSO_LIMITS,
  USER_AUTH,
  accountEndpoints,
  authEndpoints,
  ssoEndpoints,
  userEndpoints,
  type SsoSettingsBody,
} from '@lumigrid/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, ssoFlows, users } from '../../db/schema/index.ts';
import { ADMIN_PASSWORD, SERVICE_DATABASES, api, apiData, expectError, login, startApp, type Harness } from '../../test/harness.ts';
import { ssoSettingsFor, startIdentityProvider, type TestIdentityProvider } from '../../test/oidc-provider.fixtures.ts';
import { subAccount } from '../../test/projects.fixtures.ts';
import { createOidcClient } from './oidc-client.ts';
import { createSsoRepo } from './sso.repo.ts';
import { createSsoService } from './sso.service.ts';

const PUBLIC_URL = 'http://lumigrid.test';
const OWNER = { account: 'acme-owner', password: 'Owner-Pass-2026' };
const PEOPLE = {
  alice: { password: 'alice-at-idp', email: 'Alice@Acme.test', name: 'Alice Smith' },
  mallory: { password: 'mallory-at-idp', email: 'mallory@acme.test', name: 'Mallory', emailVerified: false },
};

// Sign-in through a real OpenID provider (oidc-provider on a loopback port, plain http, so the server runs in
// server mode, where an on-premise provider may be reached over http).
describe.each(SERVICE_DATABASES)('single sign-on through a real OpenID provider on %s', (kind) => {
  let h: Harness;
  let idp: TestIdentityProvider;
  let owner: string;
  let ownerId: bigint;
  const logLines: string[] = [];

  const settingsBody = (change: Partial<SsoSettingsBody> = {}) => ssoSettingsFor(idp, change);

  /** The browser's part: start, the provider's login form, back with the provider's answer. */
  async function throughProvider(person: keyof typeof PEOPLE, password = PEOPLE[person].password) {
    const started = await api(h.app, ssoEndpoints.start, { body: { domain: `${person}@acme.test` } });
    expect(started.body.code, JSON.stringify(started.body)).toBe(0);
    const cookie = String(started.headers['set-cookie']).split(';', 1)[0]!;
    const back = await idp.signIn(started.body.data.url as string, person, password);
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/user/sso/callback`);
    const body = { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, iss: back.searchParams.get('iss')! };
    return { cookie, body };
  }

  const finish = (answer: Awaited<ReturnType<typeof throughProvider>>, cookie = answer.cookie) =>
    api(h.app, ssoEndpoints.finish, { body: answer.body }, { headers: { cookie } });

  beforeAll(async () => {
    idp = await startIdentityProvider({ redirectUris: [`${PUBLIC_URL}/user/sso/callback`], users: PEOPLE });
    h = await startApp(
      kind,
      { MODE: 'server', PUBLIC_URL },
      { logger: { level: 'debug', stream: { write: (line: string) => void logLines.push(line) } } },
    );
    const admin = await login(h, 'admin', ADMIN_PASSWORD);
    await apiData(h.app, userEndpoints.add, { body: { userAuth: USER_AUTH.account, name: 'Acme', ...OWNER } }, { token: admin });
    owner = await login(h, OWNER.account, OWNER.password);
    ownerId = BigInt((await apiData(h.app, accountEndpoints.profile, {}, { token: owner })).id);
  });
  afterAll(async () => {
    await h?.close();
    await idp?.close();
  });

  it('keeps the settings the owner saves, and never answers or logs the client secret', async () => {
    const saved = await apiData(h.app, ssoEndpoints.saveSettings, { body: settingsBody() }, { token: owner });
    expect(saved).toMatchObject({
      configured: true,
      enabled: true,
      clientSecretSet: true,
      domain: 'acme.test',
      redirectUri: `${PUBLIC_URL}/user/sso/callback`,
    });
    const read = await api(h.app, ssoEndpoints.settings, {}, { token: owner });
    expect(JSON.stringify(read.body)).not.toContain(idp.clientSecret);
    expect(logLines.join('\n')).not.toContain(idp.clientSecret);
    await h.app.audit.writer.flush();
    const trail = JSON.stringify(await h.database.db.select().from(auditTrail), (_key, value: unknown) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    expect(trail).toContain(ssoEndpoints.saveSettings.path);
    expect(trail).not.toContain(idp.clientSecret);
    // Without a secret the one kept stays.
    const { clientSecret: _kept, ...withoutSecret } = settingsBody();
    expect((await apiData(h.app, ssoEndpoints.saveSettings, { body: withoutSecret }, { token: owner })).clientSecretSet).toBe(true);
  });

  it('asks another account for its secret the first time, and keeps a domain to one account', async () => {
    const admin = await login(h, 'admin', ADMIN_PASSWORD);
    const other = { account: 'other-owner', name: 'Other', password: 'Other-Pass-2026' };
    await apiData(h.app, userEndpoints.add, { body: { userAuth: USER_AUTH.account, ...other } }, { token: admin });
    const token = await login(h, other.account, other.password);
    const { clientSecret: _none, ...withoutSecret } = settingsBody();
    expectError(await api(h.app, ssoEndpoints.saveSettings, { body: withoutSecret }, { token }), 103009);
    expectError(await api(h.app, ssoEndpoints.saveSettings, { body: settingsBody() }, { token }), 103007);
    expect((await apiData(h.app, ssoEndpoints.settings, {}, { token })).configured).toBe(false);
  });

  it('refuses an issuer that does not answer its discovery, and changes nothing', async () => {
    const res = await api(
      h.app,
      ssoEndpoints.saveSettings,
      { body: settingsBody({ issuer: 'http://127.0.0.1:9/nobody' }) },
      { token: owner },
    );
    expectError(res, 103005);
    expect((await apiData(h.app, ssoEndpoints.settings, {}, { token: owner })).issuer).toBe(idp.issuer);
  });

  it('creates the sub-account with the default authority on the first sign-in, and finds it on the second', async () => {
    const first = await finish(await throughProvider('alice'));
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    const user = first.body.data.user;
    expect(user).toMatchObject({ account: 'alice@acme.test', user_auth: USER_AUTH.subAccount, operate_auth: OPERATE_AUTH.controllable });
    const [row] = await h.database.db
      .select()
      .from(users)
      .where(eq(users.id, BigInt(user.id)));
    expect(row).toMatchObject({ parentId: ownerId, name: 'Alice Smith', mail: 'alice@acme.test' });
    // The platform's own session: the token calls the API as any signed-in user.
    expect((await apiData(h.app, accountEndpoints.profile, {}, { token: first.body.data.access_token })).id).toBe(user.id);

    const subAccountsBefore = await h.database.db.select().from(users).where(eq(users.parentId, ownerId));
    const second = await finish(await throughProvider('alice'));
    expect(second.body.data.user.id).toBe(user.id);
    expect(await h.database.db.select().from(users).where(eq(users.parentId, ownerId))).toHaveLength(subAccountsBefore.length);
  });

  it('refuses a state used twice, started in another browser or unknown, and a nonce that is not the sign-in’s', async () => {
    const answer = await throughProvider('alice');
    expectError(await finish(answer, 'lg_sso=' + 'x'.repeat(43)), 103002);
    // The refused attempt spent the state: the right browser cannot use it afterwards either.
    expectError(await finish(answer), 103002);
    expectError(
      await api(h.app, ssoEndpoints.finish, { body: { ...answer.body, state: 'made-up' } }, { headers: { cookie: answer.cookie } }),
      103002,
    );

    const used = await throughProvider('alice');
    expect((await finish(used)).body.code).toBe(0);
    expectError(await finish(used), 103002);

    const tampered = await throughProvider('alice');
    const stateHash = createHash('sha256').update(tampered.body.state).digest('hex');
    await h.database.db.update(ssoFlows).set({ nonce: 'another-sign-in' }).where(eq(ssoFlows.stateHash, stateHash));
    expectError(await finish(tampered), 103003);
  });

  it('refuses an e-mail the provider has not verified, and a domain without single sign-on', async () => {
    expectError(await finish(await throughProvider('mallory')), 103006);
    expectError(await api(h.app, ssoEndpoints.start, { body: { domain: 'someone@elsewhere.test' } }), 103001);
  });

  it('limits the starts one address makes in a minute', async () => {
    const start = () => api(h.app, ssoEndpoints.start, { body: { domain: 'nobody.test' } }, { remoteAddress: '10.77.0.1' });
    for (let i = 0; i < SSO_LIMITS.callsPerAddressPerMinute; i++) expectError(await start(), 103001);
    expectError(await start(), 100003);
  });

  it('enforces local sign-in off for the account’s sub-accounts, never for its owner', async () => {
    const token = await subAccount(h, OWNER.account, OPERATE_AUTH.viewOnly);
    const { account } = await apiData(h.app, accountEndpoints.profile, {}, { token });
    await apiData(h.app, ssoEndpoints.saveSettings, { body: settingsBody({ localSignInOff: true }) }, { token: owner });
    expectError(await api(h.app, authEndpoints.login, { body: { account, password: 'Sub-Account-1' } }, { lang: 'ja' }), 103004, 'ja');
    await login(h, OWNER.account, OWNER.password);
    expect((await finish(await throughProvider('alice'))).body.code).toBe(0);
    // Switched back on, the password works again.
    await apiData(h.app, ssoEndpoints.saveSettings, { body: settingsBody({ localSignInOff: false }) }, { token: owner });
    await login(h, account, 'Sub-Account-1');
  });

  it('ends the platform session on sign-out', async () => {
    const signedIn = await finish(await throughProvider('alice'));
    const token = signedIn.body.data.access_token as string;
    await apiData(h.app, authEndpoints.logout, {}, { token });
    expectError(await api(h.app, accountEndpoints.profile, {}, { token }), 250004);
  });

  it('leaves the settings to the account owner', async () => {
    const viewer = await subAccount(h, OWNER.account, OPERATE_AUTH.editable);
    expectError(await api(h.app, ssoEndpoints.settings, {}, { token: viewer }), 110003);
    const admin = await login(h, 'admin', ADMIN_PASSWORD);
    expectError(await api(h.app, ssoEndpoints.saveSettings, { body: settingsBody() }, { token: admin }), 110003);
  });

  it('in SaaS mode refuses an issuer over plain http, or inside the service’s own network, before reaching it', async () => {
    const untouchable = new Proxy({}, { get: () => () => expect.fail('not reached') }) as never;
    const sut = createSsoService({
      repo: createSsoRepo(h.database.db),
      oidc: createOidcClient({ now: () => Date.now() }),
      accounts: untouchable,
      sessions: untouchable,
      config: { mode: 'saas', publicUrl: PUBLIC_URL },
      clock: h.clock,
    });
    const auth = {
      userId: ownerId,
      tenantId: ownerId,
      userAuth: USER_AUTH.account,
      operateAuth: OPERATE_AUTH.owner,
      lang: 'en',
      sessionId: 1n,
    } as const;
    await expect(sut.saveSettings(auth, settingsBody({ issuer: 'http://127.0.0.1:9' }))).rejects.toMatchObject({ code: 103008 });
    for (const issuer of ['https://127.0.0.1:9', 'https://10.1.2.3/realms/x', 'https://[::1]:9', 'https://localhost:9'])
      await expect(sut.saveSettings(auth, settingsBody({ issuer })), issuer).rejects.toMatchObject({ code: 103010 });
  });
});
