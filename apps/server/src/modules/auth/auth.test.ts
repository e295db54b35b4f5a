import { eq } from 'drizzle-orm';
import { LIMITS, USER_AUTH, OPERATE_AUTH, accountEndpoints, authEndpoints, outboxEndpoints, systemEndpoints } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../../db/schema/index.ts';
import {
  ADMIN_PASSWORD,
  CAPTCHA,
  DATABASES,
  expectError,
  latestCode,
  login,
  sendCode,
  signUpByMail,
  startApp,
  type Harness,
  api,
  refusedInput,
} from '../../test/harness.ts';

describe.each(DATABASES)('sign-up, sign-in and sessions on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApp(kind);
  });
  afterAll(async () => h?.close());

  it('signs up by e-mail with a code from the outbox, then signs in as an account owner', async () => {
    const sent = await sendCode(h, 'Ada@Example.com', 'register');
    expect(sent.body).toMatchObject({ code: 0, data: null });
    const code = await latestCode(h, 'ada@example.com');
    const reg = await api(h.app, authEndpoints.registerByMail, {
      body: { mail: 'ada@example.com', code, password: 'Lovelace-1815', name: 'Ada', company: 'Analytical Engines' },
    });
    expect(reg.body).toMatchObject({ code: 0, data: { account: 'ada@example.com' } });

    const signedIn = await api(h.app, authEndpoints.login, { body: { account: 'ADA@example.com', password: 'Lovelace-1815' } });
    expect(signedIn.status).toBe(200);
    const { access_token, user } = signedIn.body.data;
    expect(access_token.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    expect(user).toMatchObject({ name: 'Ada', mail: 'ada@example.com', user_auth: USER_AUTH.account, operate_auth: OPERATE_AUTH.owner });
    expect(typeof user.id).toBe('string');

    const me = await api(h.app, accountEndpoints.profile, {}, { token: access_token });
    expect(me.body.data).toMatchObject({ id: user.id, account: 'ada@example.com' });
  });

  it('signs up by phone with a code sent as a text message', async () => {
    expect((await sendCode(h, '13800138000', 'register')).body.code).toBe(0);
    const code = await latestCode(h, '13800138000');
    const reg = await api(h.app, authEndpoints.registerByPhone, { body: { phone: '13800138000', code, password: 'Phone-Pass1' } });
    expect(reg.body.code).toBe(0);
    const token = await login(h, '13800138000', 'Phone-Pass1');
    const me = await api(h.app, accountEndpoints.profile, {}, { token });
    expect(me.body.data.phone).toBe('13800138000');
  });

  it('refuses codes sent too fast, expired, wrong, guessed too often, and past the daily limit', async () => {
    const target = 'codes@example.com';
    expect((await sendCode(h, target, 'register')).body.code).toBe(0);
    const tooFast = await sendCode(h, target, 'register', 'cn');
    expectError(tooFast, 240002, 'cn');
    expect(Number(tooFast.headers['retry-after'])).toBeGreaterThan(0);

    // Expired: five minutes later the code is no longer valid.
    const first = await latestCode(h, target);
    h.clock.advance(LIMITS.verificationCode.validMs + 1000);
    expectError(
      await api(h.app, authEndpoints.registerByMail, { body: { mail: target, code: first, password: 'Good-Pass1' } }, { lang: 'ja' }),
      240004,
      'ja',
    );

    // Wrong: counts an attempt; too many wrong guesses spend the code, so even the right one fails.
    expect((await sendCode(h, target, 'register')).body.code).toBe(0);
    const right = await latestCode(h, target);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < LIMITS.verificationCode.maxAttempts; i++) {
      expectError(
        await api(h.app, authEndpoints.registerByMail, { body: { mail: target, code: wrong, password: 'Good-Pass1' } }, { lang: 'tc' }),
        240003,
        'tc',
      );
    }
    expectError(await api(h.app, authEndpoints.registerByMail, { body: { mail: target, code: right, password: 'Good-Pass1' } }), 240004);

    // Daily limit: ten codes a day to one address.
    for (let sent = 2; sent < LIMITS.verificationCode.dailyMax; sent++) {
      h.clock.advance(LIMITS.verificationCode.resendMs);
      expect((await sendCode(h, target, 'register')).body.code).toBe(0);
    }
    h.clock.advance(LIMITS.verificationCode.resendMs);
    expectError(await sendCode(h, target, 'register'), 250008);
    h.clock.advance(24 * 60 * 60_000);
    expect((await sendCode(h, target, 'register')).body.code).toBe(0);
  });

  it('checks the captcha once: a wrong answer is refused and a captcha cannot be reused', async () => {
    const captcha = await api(h.app, authEndpoints.captcha, {});
    expect(captcha.body.data.image).toMatch(/^data:image\/png;base64,/);
    // A picture, not markup: no glyph paths for a script to look letters up by.
    const png = Buffer.from(captcha.body.data.image.split(',')[1]!, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(JSON.stringify(captcha.body)).not.toContain('<path');
    const body = { target: 'captcha@example.com', purpose: 'register' as const, captchaId: captcha.body.data.captchaId };
    expectError(await api(h.app, authEndpoints.sendCode, { body: { ...body, captcha: 'nope' } }), 240101);
    // The same captcha with the right answer now fails too: it was spent by the wrong try.
    expectError(await api(h.app, authEndpoints.sendCode, { body: { ...body, captcha: CAPTCHA } }), 240101);
    const fresh = await api(h.app, authEndpoints.captcha, {});
    h.clock.advance(LIMITS.captcha.validMs + 1);
    expectError(
      await api(h.app, authEndpoints.sendCode, { body: { ...body, captchaId: fresh.body.data.captchaId, captcha: CAPTCHA } }),
      240101,
    );
  });

  it('refuses to sign up an existing account and a weak password, creating nothing', async () => {
    await signUpByMail(h, 'taken@example.com');
    expectError(await sendCode(h, 'taken@example.com', 'register'), 250001);
    expect((await sendCode(h, 'weak@example.com', 'register')).body.code).toBe(0);
    const code = await latestCode(h, 'weak@example.com');
    // A refused password does not spend the code: the right one then works.
    for (const password of ['alllowercase1', 'NoDigitsHere', 'Has Space1a']) {
      const res = await api(h.app, authEndpoints.registerByMail, { body: { mail: 'weak@example.com', code, password } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(100010);
    }
    const rows = await h.database.db.select().from(users).where(eq(users.account, 'weak@example.com'));
    expect(rows).toHaveLength(0);
    const fine = await api(h.app, authEndpoints.registerByMail, { body: { mail: 'weak@example.com', code, password: 'Strong-Pass1' } });
    expect(fine.body.code).toBe(0);
  });

  it('answers a wrong password and an unknown account alike, disabled and deleted accounts with their codes', async () => {
    await signUpByMail(h, 'grace@example.com', 'Hopper-1906');
    const wrong = await api(h.app, authEndpoints.login, { body: { account: 'grace@example.com', password: 'Wrong-1906' } }, { lang: 'ja' });
    const unknown = await api(
      h.app,
      authEndpoints.login,
      { body: { account: 'nobody@example.com', password: 'Hopper-1906' } },
      { lang: 'ja' },
    );
    expectError(wrong, 100018, 'ja');
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);

    const token = await login(h, 'grace@example.com', 'Hopper-1906');
    await h.database.db.update(users).set({ enabled: false }).where(eq(users.account, 'grace@example.com'));
    const disabled = await api(
      h.app,
      authEndpoints.login,
      { body: { account: 'grace@example.com', password: 'Hopper-1906' } },
      { lang: 'tc' },
    );
    expectError(disabled, 250018, 'tc');
    // A session open when the account was disabled ends with the same code.
    const me = await api(h.app, accountEndpoints.profile, {}, { token });
    expect(me.status).toBe(403);
    expect(me.body.code).toBe(250018);

    await h.database.db.update(users).set({ enabled: true, deletedAt: new Date() }).where(eq(users.account, 'grace@example.com'));
    expectError(await api(h.app, authEndpoints.login, { body: { account: 'grace@example.com', password: 'Hopper-1906' } }), 250020);
  });

  it('kills the token on sign-out and answers 401 without a valid token', async () => {
    const token = await signUpByMail(h, 'bye@example.com');
    expect((await api(h.app, accountEndpoints.profile, {}, { token })).status).toBe(200);
    expect((await api(h.app, authEndpoints.logout, {}, { token })).body.code).toBe(0);
    const after = await api(h.app, accountEndpoints.profile, {}, { token });
    expect(after.status).toBe(401);
    expectError(after, 250004);
    expect((await api(h.app, accountEndpoints.profile, {})).status).toBe(401);
    expect((await api(h.app, accountEndpoints.profile, {}, { token: 'forged-token' })).status).toBe(401);
  });

  it('expires an idle session with 403, later for "remember me", and never past the absolute limit', async () => {
    await signUpByMail(h, 'idle@example.com', 'Idle-Pass1');
    const short = await login(h, 'idle@example.com', 'Idle-Pass1');
    const remembered = (
      await api(h.app, authEndpoints.login, { body: { account: 'idle@example.com', password: 'Idle-Pass1', remember: true } })
    ).body.data.access_token;
    h.clock.advance(LIMITS.session.idleMs + 1000);
    const expired = await api(h.app, accountEndpoints.profile, {}, { token: short, lang: 'ja' });
    expect(expired.status).toBe(403);
    expectError(expired, 100009, 'ja');
    expect((await api(h.app, accountEndpoints.profile, {}, { token: remembered })).status).toBe(200);
    // Kept busy, a remembered session still ends at the absolute limit.
    for (let t = 0; t < LIMITS.session.absoluteMs; t += LIMITS.session.rememberIdleMs / 2) {
      h.clock.advance(LIMITS.session.rememberIdleMs / 2);
      await api(h.app, accountEndpoints.profile, {}, { token: remembered });
    }
    expect((await api(h.app, accountEndpoints.profile, {}, { token: remembered })).status).toBe(403);
  });

  it('throttles sign-in per account from an address and per address, with 429 and Retry-After, never the owner elsewhere', async () => {
    await signUpByMail(h, 'target@example.com', 'Target-Pass1');
    const attempt = (account: string, password: string, remoteAddress: string) =>
      api(h.app, authEndpoints.login, { body: { account, password } }, { remoteAddress });
    for (let i = 0; i < LIMITS.signIn.perAccount; i++)
      expect((await attempt('target@example.com', 'Wrong-Pass1', '10.0.0.66')).body.code).toBe(100018);
    const blocked = await attempt('target@example.com', 'Target-Pass1', '10.0.0.66');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe(100003);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The guesses came from elsewhere: the owner at their own address is not locked out.
    expect((await attempt('target@example.com', 'Target-Pass1', '10.0.0.7')).body.code).toBe(0);
    h.clock.advance(LIMITS.signIn.windowMs + 1000);
    expect((await attempt('target@example.com', 'Target-Pass1', '10.0.0.66')).body.code).toBe(0);

    // Failures on assorted accounts block the address; successful sign-ins there do not count.
    h.clock.advance(LIMITS.signIn.windowMs + 1000);
    for (let i = 0; i < LIMITS.signIn.perAddress + 3; i++)
      expect((await attempt('target@example.com', 'Target-Pass1', '10.0.0.8')).body.code).toBe(0);
    for (let i = 0; i < LIMITS.signIn.perAddress; i++) await attempt(`ghost${i}@example.com`, 'Wrong-Pass1', '10.0.0.8');
    expect((await attempt('target@example.com', 'Target-Pass1', '10.0.0.8')).status).toBe(429);
    h.clock.advance(LIMITS.signIn.windowMs + 1000);
  });

  it('caps codes and account checks per address, whatever the targets, with 429 and Retry-After', async () => {
    const address = '10.200.0.1';
    for (let i = 0; i < LIMITS.sendCode.perAddress; i++) {
      expect((await sendCode(h, `spam${i}@example.com`, 'register', undefined, address)).body.code).toBe(0);
    }
    const refused = await sendCode(h, 'one-more@example.com', 'register', undefined, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const mailed = await h.database.db.select().from(outbox);
    expect(mailed.some((m) => m.recipient === 'one-more@example.com')).toBe(false);
    // Someone else signs up meanwhile.
    expect((await sendCode(h, 'neighbour@example.com', 'register', undefined, '10.200.0.2')).body.code).toBe(0);

    const lookup = (account: string) => api(h.app, accountEndpoints.accountExists, { params: { account } }, { remoteAddress: address });
    for (let i = 0; i < LIMITS.accountLookup.perAddress; i++) expect((await lookup(`probe${i}`)).body.code).toBe(0);
    expect((await lookup('probe-last')).status).toBe(429);
    h.clock.advance(Math.max(LIMITS.sendCode.windowMs, LIMITS.accountLookup.windowMs) + 1000);
    expect((await lookup('probe-after')).body.code).toBe(0);
  });

  it('checks no more guesses than the limit when they arrive all at once', async () => {
    await signUpByMail(h, 'burst@example.com', 'Burst-Pass1');
    const guesses = Array.from({ length: 60 }, (_, i) => (i === 45 ? 'Burst-Pass1' : `Wrong-Pass${i}`));
    const answers = await Promise.all(
      guesses.map((password) =>
        api(h.app, authEndpoints.login, { body: { account: 'burst@example.com', password } }, { remoteAddress: '10.0.0.99' }),
      ),
    );
    const checked = answers.filter((a) => a.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(LIMITS.signIn.perAccount);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(guesses.length - LIMITS.signIn.perAccount);
    h.clock.advance(LIMITS.signIn.windowMs + 1000);
  });

  it('changes the password: old must be right, new must differ and be strong; other sessions end', async () => {
    await signUpByMail(h, 'change@example.com', 'Change-Pass1');
    const here = await login(h, 'change@example.com', 'Change-Pass1');
    const elsewhere = await login(h, 'change@example.com', 'Change-Pass1');
    const change = (oldPassword: string, newPassword: string, lang?: 'cn') =>
      api(h.app, accountEndpoints.changePassword, { body: { oldPassword, newPassword } }, { token: here, lang });
    expectError(await change('Wrong-Pass1', 'Brand-New1', 'cn'), 100008, 'cn');
    expectError(await change('Change-Pass1', 'Change-Pass1'), 100007);
    expectError(await change('Change-Pass1', 'weakweakweak'), 100010);
    expect((await change('Change-Pass1', 'Brand-New1')).body.code).toBe(0);
    expect((await api(h.app, accountEndpoints.profile, {}, { token: here })).status).toBe(200);
    expect((await api(h.app, accountEndpoints.profile, {}, { token: elsewhere })).status).toBe(401);
    expectError(await api(h.app, authEndpoints.login, { body: { account: 'change@example.com', password: 'Change-Pass1' } }), 100018);
    await login(h, 'change@example.com', 'Brand-New1');
  });

  it('resets a forgotten password with a code, ending every session', async () => {
    await signUpByMail(h, 'forgot@example.com', 'Forgot-Pass1');
    const old = await login(h, 'forgot@example.com', 'Forgot-Pass1');
    expectError(await sendCode(h, 'stranger@example.com', 'reset'), 250002);
    h.clock.advance(LIMITS.verificationCode.resendMs); // the sign-up code went to this address just now
    expect((await sendCode(h, 'forgot@example.com', 'reset', 'ja')).body.code).toBe(0);
    const code = await latestCode(h, 'forgot@example.com');
    const reset = await api(h.app, authEndpoints.resetPassword, { body: { target: 'forgot@example.com', code, password: 'Remembered-2' } });
    expect(reset.body.code).toBe(0);
    expect((await api(h.app, accountEndpoints.profile, {}, { token: old })).status).toBe(401);
    await login(h, 'forgot@example.com', 'Remembered-2');
    // The code is spent.
    expectError(
      await api(h.app, authEndpoints.resetPassword, { body: { target: 'forgot@example.com', code, password: 'Another-Pass3' } }),
      240004,
    );
  });

  it('tells whether an account exists', async () => {
    await signUpByMail(h, 'exists@example.com');
    expect((await api(h.app, accountEndpoints.accountExists, { params: { account: 'exists@example.com' } })).body.data).toEqual({
      exists: true,
    });
    expect((await api(h.app, accountEndpoints.accountExists, { params: { account: 'nope@example.com' } })).body.data).toEqual({
      exists: false,
    });
  });

  it('creates the platform administrator on first start, who alone reads the outbox', async () => {
    const admin = await api(h.app, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
    expect(admin.body.data.user.user_auth).toBe(USER_AUTH.admin);
    const page = await api(h.app, outboxEndpoints.list, { query: { page: 1, pageSize: 5 } }, { token: admin.body.data.access_token });
    expect(page.body.data.total).toBeGreaterThan(5);
    expect(page.body.data.list).toHaveLength(5);
    expect(page.body.data.list[0]).toMatchObject({ channel: expect.stringMatching(/mail|sms/), subject: expect.any(String) });

    const owner = await signUpByMail(h, 'owner@example.com');
    expectError(await api(h.app, outboxEndpoints.list, {}, { token: owner }), 110003);
    expect((await api(h.app, outboxEndpoints.list, {})).status).toBe(401);
  });

  it('saves the user language and answers in it when the request names none', async () => {
    const token = await signUpByMail(h, 'lang@example.com');
    expect((await api(h.app, accountEndpoints.setLang, { body: { lang: 'ja' } }, { token })).body.code).toBe(0);
    const me = await api(h.app, accountEndpoints.profile, {}, { token });
    expect(me.body.data.lang).toBe('ja');
    const refused = await api(h.app, outboxEndpoints.list, {}, { token });
    expectError(refused, 110003, 'ja');
    expectError(await api(h.app, accountEndpoints.setLang, refusedInput({ body: { lang: 'fr' } }), { token }), 100001, 'ja');
  });
});

describe('server mode', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApp('pglite', { MODE: 'server', SERVER_IP: '10.1.2.3' });
  });
  afterAll(async () => h?.close());

  it('has no self sign-up and shows the server address', async () => {
    const info = await api(h.app, systemEndpoints.info, {});
    expect(info.body.data).toMatchObject({ mode: 'server', signUp: false, serverIp: '10.1.2.3', version: '2.7.6' });
    expectError(await sendCode(h, 'someone@example.com', 'register'), 100006);
    const admin = await api(h.app, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
    expect(admin.body.data.user.server_ip).toBe('10.1.2.3');
  });
});
