import { desc } from 'drizzle-orm';
import {
  OPERATE_AUTH,
  USER_AUTH,
  accountEndpoints,
  authEndpoints,
  projectEndpoints,
  userDestination,
  userEndpoints,
  type AddAccountBody,
  type ManagedAccount,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  SERVICE_DATABASES,
  api,
  apiData,
  expectError,
  login,
  signUpByMail,
  startApp,
  type Harness,
} from '../../test/harness.ts';
import { outbox } from '../../db/schema/index.ts';
import { poll } from '../../test/poll.ts';
import { listenForRealtime, stompClient } from '../../test/realtime.fixtures.ts';
import { tenancyCase, tenancyMatrix, type TenancyCase, tenancyPrincipals, type Principal, type PrincipalKey } from '../../test/tenancy.ts';

const PASSWORD = 'First-Pass1';

describe.each(SERVICE_DATABASES)('the account screens on %s', (kind) => {
  let h: Harness;
  let admin: string;
  let url: string;

  const add = (token: string, body: AddAccountBody) => api(h.app, userEndpoints.add, { body }, { token });
  const me = (token: string) => api(h.app, accountEndpoints.profile, {}, { token });

  beforeAll(async () => {
    h = await startApp(kind);
    url = await listenForRealtime(h.app);
    admin = await login(h, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => h?.close());

  it('lets the administrator create an account that signs in with its default project, and find it again', async () => {
    const created = (await add(admin, { userAuth: USER_AUTH.account, account: 'acme', password: PASSWORD, name: '田中', company: 'Acme' }))
      .body.data as ManagedAccount;
    expect(created).toMatchObject({ account: 'acme', name: '田中', company: 'Acme', userAuth: 2, operateAuth: 0, enabled: true });
    const owner = await login(h, 'acme', PASSWORD);
    const tree = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: owner });
    expect(tree.projects.some((p) => p.isDefault)).toBe(true);

    const page = await apiData(
      h.app,
      userEndpoints.list,
      { params: { userAuth: 2, page: 1, pageSize: 10 }, query: { name: 'acm' } },
      { token: admin },
    );
    expect(page.list.map((a) => a.account)).toEqual(['acme']);
    expect(await apiData(h.app, userEndpoints.detail, { params: { id: created.id } }, { token: admin })).toMatchObject({ account: 'acme' });
    const admins = await apiData(h.app, userEndpoints.list, { params: { userAuth: 1, page: 1, pageSize: 10 } }, { token: admin });
    expect(admins.list.map((a) => a.account)).toContain('admin');
    expectError(await add(admin, { userAuth: USER_AUTH.account, account: 'acme', password: PASSWORD }), 250001);
    expectError(await add(admin, { userAuth: USER_AUTH.account, account: 'weak', password: 'weakweakweak' }), 100010);
    // Sub-accounts belong to an account: its owner creates them.
    expectError(await add(admin, { userAuth: USER_AUTH.subAccount, account: 'orphan', password: PASSWORD }), 110003);
  });

  it('lets an owner create sub-accounts with their authority, and nothing else', async () => {
    const owner = await signUpByMail(h, `owner-${kind}@example.com`);
    const viewer = (
      await add(owner, { userAuth: USER_AUTH.subAccount, account: 'viewer', password: PASSWORD, operateAuth: OPERATE_AUTH.viewOnly })
    ).body.data as ManagedAccount;
    expect(viewer).toMatchObject({ userAuth: 3, operateAuth: 4 });
    const sub = await login(h, 'viewer', PASSWORD);
    expect((await me(sub)).body.data).toMatchObject({ user_auth: 3, operate_auth: 4 });
    const mine = await apiData(h.app, userEndpoints.list, { params: { userAuth: 3, page: 1, pageSize: 10 } }, { token: owner });
    expect(mine.list.map((a) => a.account)).toEqual(['viewer']);
    expectError(await add(owner, { userAuth: USER_AUTH.account, account: 'peer', password: PASSWORD }), 110003);
    expectError(await api(h.app, userEndpoints.list, { params: { userAuth: 1, page: 1, pageSize: 10 } }, { token: owner }), 110003);
    // A sub-account manages nobody.
    expectError(await api(h.app, userEndpoints.list, { params: { userAuth: 3, page: 1, pageSize: 10 } }, { token: sub }), 110003);
  });

  it('ends a sub-account’s sessions with 250019 when its authority changes', async () => {
    const owner = await signUpByMail(h, `authority-${kind}@example.com`);
    const row = (
      await add(owner, { userAuth: USER_AUTH.subAccount, account: 'operator', password: PASSWORD, operateAuth: OPERATE_AUTH.controllable })
    ).body.data as ManagedAccount;
    const stale = await login(h, 'operator', PASSWORD);
    const updated = await apiData(
      h.app,
      userEndpoints.update,
      { body: { id: row.id, operateAuth: OPERATE_AUTH.editable, remarks: 'now edits' } },
      { token: owner },
    );
    expect(updated).toMatchObject({ operateAuth: 2, remarks: 'now edits' });
    expectError(await me(stale), 250019);
    expect((await me(await login(h, 'operator', PASSWORD))).body.data.operate_auth).toBe(2);
  });

  it('disables an account: its sessions end, an open browser is told, and it cannot sign in until enabled', async () => {
    const created = (await add(admin, { userAuth: USER_AUTH.account, account: 'paused', password: PASSWORD })).body.data as ManagedAccount;
    const token = await login(h, 'paused', PASSWORD);
    const notices: Array<{ type: number; code: number }> = [];
    const stomp = await stompClient(url, { Authorization: `Bearer ${token}` });
    await stomp.subscribe(userDestination('global_message_notice', created.id), (m) =>
      notices.push(JSON.parse(m.body) as { type: number; code: number }),
    );
    await apiData(h.app, userEndpoints.update, { body: { id: created.id, enabled: false } }, { token: admin });
    await poll(() => notices.length > 0, 'the forced-logout notice');
    expect(notices[0]).toMatchObject({ type: 0, code: 250018 });
    await stomp.stop();
    expectError(await me(token), 250018);
    expectError(await api(h.app, authEndpoints.login, { body: { account: 'paused', password: PASSWORD } }), 250018);
    await apiData(h.app, userEndpoints.update, { body: { id: created.id, enabled: true } }, { token: admin });
    expect((await me(await login(h, 'paused', PASSWORD))).body.code).toBe(0);
    // The administrator cannot lock itself out from these screens.
    const self = (await me(admin)).body.data.id;
    expectError(await api(h.app, userEndpoints.update, { body: { id: self, enabled: false } }, { token: admin }), 110003);
  });

  it('deletes an account with its sub-accounts: their next call answers 250020 and the name is free again', async () => {
    await add(admin, { userAuth: USER_AUTH.account, account: 'gone', password: PASSWORD });
    const owner = await login(h, 'gone', PASSWORD);
    await add(owner, { userAuth: USER_AUTH.subAccount, account: 'gone-sub', password: PASSWORD, operateAuth: OPERATE_AUTH.editable });
    const sub = await login(h, 'gone-sub', PASSWORD);
    const id = (await me(owner)).body.data.id;
    await apiData(h.app, userEndpoints.remove, { body: { id } }, { token: admin });
    expectError(await me(owner), 250020);
    expectError(await me(sub), 250020);
    expectError(await api(h.app, userEndpoints.detail, { params: { id } }, { token: admin }), 110011);
    expect((await add(admin, { userAuth: USER_AUTH.account, account: 'gone', password: PASSWORD })).body.code).toBe(0);
  });

  it('resets a password to a new one sent by mail; old sessions and the old password stop working', async () => {
    const created = (
      await add(admin, { userAuth: USER_AUTH.account, account: 'forgetful', password: PASSWORD, mail: `forgetful-${kind}@example.com` })
    ).body.data as ManagedAccount;
    const old = await login(h, 'forgetful', PASSWORD);
    expectError(await api(h.app, userEndpoints.resetPassword, { body: { id: created.id, channel: 'sms' } }, { token: admin }), 100012);
    await apiData(h.app, userEndpoints.resetPassword, { body: { id: created.id, channel: 'mail' } }, { token: admin });
    expectError(await me(old), 250004);
    const rows = await h.database.db.select().from(outbox).orderBy(desc(outbox.id));
    const mail = rows.find((r) => r.recipient === `forgetful-${kind}@example.com`)!;
    const password = /: (\S+)\n/.exec(mail.body)![1]!;
    expectError(await api(h.app, authEndpoints.login, { body: { account: 'forgetful', password: PASSWORD } }), 100018);
    expect((await me(await login(h, 'forgetful', password))).body.code).toBe(0);
  });
});

describe.each(SERVICE_DATABASES)('editing one’s own info on %s', (kind) => {
  it('is open to owners and editable users in SaaS mode, refused to the others and in server mode', async () => {
    const h = await startApp(kind);
    try {
      const owner = await signUpByMail(h, `self-${kind}@example.com`);
      const mine = await apiData(
        h.app,
        accountEndpoints.updateProfile,
        { body: { name: '鈴木', phone: '+81312345678', remarks: 'night shift' } },
        { token: owner },
      );
      expect(mine).toMatchObject({ name: '鈴木', phone: '+81312345678', remarks: 'night shift' });
      expect(await apiData(h.app, accountEndpoints.profile, {}, { token: owner })).toMatchObject({ name: '鈴木' });
      await signUpByMail(h, `taken-${kind}@example.com`);
      expectError(
        await api(h.app, accountEndpoints.updateProfile, { body: { mail: `taken-${kind}@example.com` } }, { token: owner }),
        250001,
      );
      expectError(await api(h.app, accountEndpoints.updateProfile, { body: { name: '名'.repeat(17) } }, { token: owner }), 100011);
      for (const [operateAuth, allowed] of [
        [OPERATE_AUTH.editable, true],
        [OPERATE_AUTH.controllable, false],
        [OPERATE_AUTH.viewOnly, false],
      ] as const) {
        const account = `self-sub-${operateAuth}`;
        await apiData(
          h.app,
          userEndpoints.add,
          { body: { userAuth: USER_AUTH.subAccount, account, password: PASSWORD, operateAuth } },
          { token: owner },
        );
        const res = await api(
          h.app,
          accountEndpoints.updateProfile,
          { body: { remarks: 'mine' } },
          { token: await login(h, account, PASSWORD) },
        );
        expect(res.body.code, account).toBe(allowed ? 0 : 110003);
      }
    } finally {
      await h.close();
    }
    const server = await startApp(kind, { MODE: 'server' });
    try {
      const admin = await login(server, 'admin', ADMIN_PASSWORD);
      expectError(await api(server.app, accountEndpoints.updateProfile, { body: { remarks: 'x' } }, { token: admin }), 110003);
    } finally {
      await server.close();
    }
    // Two whole apps, one after the other.
  }, 120_000);
});

type Ids = { sub: string; owner: string };

/** Every account call, by a second owner with the first owner's sub-account and own ids. */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(userEndpoints.detail, (a) => ({ params: { id: a.sub } })),
  tenancyCase(userEndpoints.detail, (a) => ({ params: { id: a.owner } })),
  tenancyCase(userEndpoints.update, (a) => ({ body: { id: a.sub, name: 'Taken over' } })),
  tenancyCase(userEndpoints.update, (a) => ({ body: { id: a.sub, enabled: false } })),
  tenancyCase(userEndpoints.remove, (a) => ({ body: { id: a.sub } })),
  tenancyCase(userEndpoints.resetPassword, (a) => ({ body: { id: a.sub, channel: 'mail' as const } })),
  tenancyCase(userEndpoints.detail, () => ({ params: { id: '9999999999999999999' } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the account calls on %s', (kind) => {
  let h: Harness;
  let intruder: string;
  let principals: Record<PrincipalKey, Principal>;
  let a: Ids;
  let b: Ids;

  beforeAll(async () => {
    h = await startApp(kind);
    const seed = async (mail: string, sub: string, name: string): Promise<Ids> => {
      const token = await signUpByMail(h, mail);
      const row = await apiData(
        h.app,
        userEndpoints.add,
        {
          body: {
            userAuth: USER_AUTH.subAccount,
            account: sub,
            password: PASSWORD,
            name,
            mail: `${sub}@example.com`,
            operateAuth: OPERATE_AUTH.viewOnly,
          },
        },
        { token },
      );
      return { sub: row.id, owner: (await apiData(h.app, accountEndpoints.profile, {}, { token })).id };
    };
    a = await seed(`first-${kind}@example.com`, `first-sub-${kind}`, 'Secret assistant');
    b = await seed(`second-${kind}@example.com`, `second-sub-${kind}`, 'Own assistant');
    intruder = await login(h, `second-${kind}@example.com`, 'Secret-Pass1');
    principals = await tenancyPrincipals(h, {
      victim: `first-${kind}@example.com`,
      victimToken: await login(h, `first-${kind}@example.com`, 'Secret-Pass1'),
      intruder: `second-${kind}@example.com`,
    });
  });
  afterAll(async () => h?.close());

  tenancyMatrix({
    domain: userEndpoints,
    cases: CASES,
    // A list shows only the caller's own; adding creates in the caller's own account (both tested below).
    withoutIds: [userEndpoints.list, userEndpoints.subAccounts, userEndpoints.add],
    secrets: ['Secret assistant'],
    world: () => ({ app: h.app, intruder, a, b, principals }),
  });

  it('lists only the caller’s own sub-accounts and left the first account’s one as it was', async () => {
    const page = await apiData(h.app, userEndpoints.list, { params: { userAuth: 3, page: 1, pageSize: 50 } }, { token: intruder });
    expect(page.list.map((s) => s.id)).toContain(b.sub);
    expect(page.list.map((s) => s.id)).not.toContain(a.sub);
    expect(page.list.every((s) => s.name !== 'Secret assistant')).toBe(true);
    const all = await apiData(h.app, userEndpoints.subAccounts, {}, { token: intruder });
    expect(all.map((s) => s.id).sort()).toEqual(page.list.map((s) => s.id).sort());
    const admin = await login(h, 'admin', ADMIN_PASSWORD);
    expect(await apiData(h.app, userEndpoints.subAccounts, {}, { token: admin })).toEqual([]);
    const owner = await login(h, `first-${kind}@example.com`, 'Secret-Pass1');
    expect(await apiData(h.app, userEndpoints.detail, { params: { id: a.sub } }, { token: owner })).toMatchObject({
      name: 'Secret assistant',
      enabled: true,
    });
  });
});
