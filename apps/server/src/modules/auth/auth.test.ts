import { eq, like, or } from 'drizzle-orm';
import {
  LIMITS,
  USER_AUTH,
  OPERATE_AUTH,
  accountEndpoints,
  authEndpoints,
  outboxEndpoints,
  systemEndpoints,
  type Lang,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { knownDevices, outbox, signInAccountHolds, signInFailures, users } from '../../db/schema/index.ts';
import {
  ADMIN_PASSWORD,
  CAPTCHA,
  SERVICE_DATABASES,
  expectError,
  latestCode,
  login,
  sendCode,
  signUpByMail,
  startApp,
  type Harness,
  api,
  apiData,
  refusedInput,
} from '../../test/harness.ts';
import { createAuthRepo } from './auth.repo.ts';
import { createAuthService } from './auth.service.ts';

describe.each(SERVICE_DATABASES)('sign-up, sign-in and sessions on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApp(kind);
  });
  afterAll(async () => h?.close());

  /** A fresh captcha with its answer, as a person who reads the picture sends it. */
  const solvedCaptcha = async () => ({ captchaId: (await apiData(h.app, authEndpoints.captcha, {})).captchaId, captcha: CAPTCHA });

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
    // The token is in the answer: no browser cache or proxy may keep it.
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(reg.headers['cache-control']).toBe('no-store');
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
    const signIn = (account: string, password: string, lang?: Lang) =>
      api(h.app, authEndpoints.login, { body: { account, password } }, { lang });
    await signUpByMail(h, 'grace@example.com', 'Hopper-1906');
    const wrong = await signIn('grace@example.com', 'Wrong-1906', 'ja');
    const unknown = await signIn('nobody@example.com', 'Hopper-1906', 'ja');
    expectError(wrong, 100018, 'ja');
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);

    const token = await login(h, 'grace@example.com', 'Hopper-1906');
    await h.database.db.update(users).set({ enabled: false }).where(eq(users.account, 'grace@example.com'));
    const disabled = await signIn('grace@example.com', 'Hopper-1906', 'tc');
    expectError(disabled, 250018, 'tc');
    // A session open when the account was disabled ends with the same code.
    const me = await api(h.app, accountEndpoints.profile, {}, { token });
    expect(me.status).toBe(403);
    expect(me.body.code).toBe(250018);

    await h.database.db.update(users).set({ enabled: true, deletedAt: new Date() }).where(eq(users.account, 'grace@example.com'));
    expectError(await signIn('grace@example.com', 'Hopper-1906'), 250020);
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
    for (let i = 0; i < LIMITS.signIn.perAccountAndAddress; i++)
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

    const lookup = async (account: string) =>
      api(h.app, accountEndpoints.accountExists, { params: { account }, query: await solvedCaptcha() }, { remoteAddress: address });
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
    expect(checked.length).toBeLessThanOrEqual(LIMITS.signIn.perAccountAndAddress);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(guesses.length - LIMITS.signIn.perAccountAndAddress);
    h.clock.advance(LIMITS.signIn.windowMs + 1000);
  });

  it('slows guesses at one account from many addresses and server nodes: a captcha and a doubling wait, the owner’s browser exempt', async () => {
    const rule = LIMITS.signIn.account;
    const account = 'spread@example.com';
    await signUpByMail(h, account, 'Spread-Pass1');
    // The owner signed in from their browser before: the answer gave it the device cookie.
    const earlier = await api(h.app, authEndpoints.login, { body: { account, password: 'Spread-Pass1' } }, { remoteAddress: '10.30.0.1' });
    const setCookie = String(earlier.headers['set-cookie']);
    expect(setCookie).toMatch(/^lg_device=[A-Za-z0-9_-]{43}; Path=\/api1\/user\/v1\/login; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const ownBrowser = setCookie.split(';')[0]!;
    // A second node on the same database: what one node counted, the other knows.
    const second = await buildApp({ config: h.config, database: h.database, clock: h.clock, logger: false, jobs: { start: false } });
    try {
      // Five guesses from each address, within its own pause: 150 from thirty addresses, then more from new ones.
      // The attacker reads every captcha asked for.
      let sent = 0;
      const guess = async (captcha?: { captchaId: string; captcha: string }) => {
        const n = sent++;
        const body = { account, password: `Wrong-Pass${n}`, ...captcha };
        return api(n % 2 ? second : h.app, authEndpoints.login, { body }, { remoteAddress: `10.31.${Math.floor(n / 5)}.1` });
      };
      const attempt = async () => {
        const res = await guess();
        return res.body.code === 100021 ? { res: await guess(await solvedCaptcha()), captcha: true } : { res, captcha: false };
      };
      const burst = [];
      for (let i = 0; i < 150; i++) burst.push((await attempt()).res);
      // Before the account limit these were 150 password checks.
      expect(burst.filter((a) => a.body.code === 100018)).toHaveLength(rule.captchaAfter);
      const paused = burst.filter((a) => a.status === 429);
      expect(paused).toHaveLength(150 - rule.captchaAfter);
      expect(paused.map((a) => Number(a.headers['retry-after']))).toEqual(paused.map(() => rule.firstDelayMs / 1000));

      // For the next 15 minutes the attacker tries again the moment the wait ends: each try needs a captcha, each wait doubles.
      let elapsed = 0;
      const later = [];
      for (;;) {
        const { res, captcha } = await attempt();
        if (res.status === 429) {
          const waitMs = Number(res.headers['retry-after']) * 1000;
          if (elapsed + waitMs > LIMITS.signIn.windowMs) break;
          h.clock.advance(waitMs);
          elapsed += waitMs;
          continue;
        }
        expect(res.body.code).toBe(100018);
        expect(captcha).toBe(true);
        later.push(res);
      }
      expect(later.length).toBeGreaterThan(0);
      expect(rule.captchaAfter + later.length).toBeLessThan(2 * rule.captchaAfter);

      // The owner’s browser signs in at once, from any address, with neither captcha nor wait.
      const own = await api(
        h.app,
        authEndpoints.login,
        { body: { account, password: 'Spread-Pass1' } },
        {
          remoteAddress: '10.30.0.2',
          headers: { cookie: ownBrowser },
        },
      );
      expect(own.body.code).toBe(0);
      // On a new device the owner waits at most the longest wait, solves one captcha, and is in.
      const fresh = { remoteAddress: '10.30.0.3' };
      const waiting = await api(second, authEndpoints.login, { body: { account, password: 'Spread-Pass1' } }, fresh);
      expect(waiting.status).toBe(429);
      expect(Number(waiting.headers['retry-after']) * 1000).toBeLessThanOrEqual(rule.maxDelayMs);
      h.clock.advance(Number(waiting.headers['retry-after']) * 1000);
      expectError(
        await api(second, authEndpoints.login, { body: { account, password: 'Spread-Pass1' } }, { ...fresh, lang: 'ja' }),
        100021,
        'ja',
      );
      const captcha = await solvedCaptcha();
      expect((await api(second, authEndpoints.login, { body: { account, password: 'Spread-Pass1', ...captcha } }, fresh)).body.code).toBe(
        0,
      );
    } finally {
      await second.close();
    }
    h.clock.advance(rule.forgetMs + 1000);
  });

  it('asks the same captcha of a name nobody has, and forgets failures an hour after the last', async () => {
    const rule = LIMITS.signIn.account;
    const fail = (account: string, i: number, extra: object = {}) =>
      api(
        h.app,
        authEndpoints.login,
        { body: { account, password: `Wrong-Pass${i}`, ...extra } },
        { remoteAddress: `10.32.${i}.${account.length}` },
      );
    await signUpByMail(h, 'real@example.com', 'Real-Pass1');
    for (const account of ['real@example.com', 'ghost@example.com']) {
      for (let i = 0; i < rule.captchaAfter; i++) expect((await fail(account, i)).body.code).toBe(100018);
    }
    h.clock.advance(rule.firstDelayMs);
    const real = await fail('real@example.com', 50);
    const ghost = await fail('ghost@example.com', 50);
    expectError(real, 100021);
    expect({ status: ghost.status, body: ghost.body }).toEqual({ status: real.status, body: real.body });
    // A wrong captcha is refused and spends nothing but the captcha.
    expectError(await fail('real@example.com', 51, { ...(await solvedCaptcha()), captcha: 'NOPE' }), 240101);
    expect((await fail('real@example.com', 52, await solvedCaptcha())).body.code).toBe(100018);
    h.clock.advance(rule.forgetMs + 1000);
    expect((await fail('real@example.com', 53)).body.code).toBe(100018);
    h.clock.advance(rule.forgetMs + 1000);
  });

  it('keeps the sign-in tables bounded: counters go once their time passed, a user keeps only its newest devices', async () => {
    const untouchable = new Proxy({}, { get: () => () => expect.fail('not part of the sweep') }) as never;
    const sut = createAuthService({
      repo: createAuthRepo(h.database.db),
      clock: h.clock,
      accounts: untouchable,
      messenger: untouchable,
      makeCaptcha: untouchable,
      config: { mode: 'saas', publicUrl: 'http://localhost' },
      scopes: untouchable,
      passwordSignInOff: untouchable,
    });
    const db = h.database.db;
    const holds = () => db.select().from(signInAccountHolds).where(like(signInAccountHolds.login, 'made-up-%'));
    const counters = () =>
      db
        .select()
        .from(signInFailures)
        .where(or(like(signInFailures.key, 'account:made-up-%'), like(signInFailures.key, 'address:10.40.%')));
    for (let i = 0; i < 40; i++) {
      const body = { account: `made-up-${i}@example.com`, password: 'Wrong-Pass1' };
      expect((await api(h.app, authEndpoints.login, { body }, { remoteAddress: `10.40.${i}.1` })).body.code).toBe(100018);
    }
    expect(await holds()).toHaveLength(40);
    expect(await counters()).toHaveLength(80);
    await sut.sweepSignInState();
    expect(await holds()).toHaveLength(40);
    h.clock.advance(Math.max(LIMITS.signIn.account.forgetMs, LIMITS.sendCode.windowMs) + 1000);
    await sut.sweepSignInState();
    expect(await holds()).toHaveLength(0);
    expect(await counters()).toHaveLength(0);

    await signUpByMail(h, 'many-devices@example.com', 'Many-Pass1');
    for (let i = 0; i <= LIMITS.signIn.knownDevice.perUser; i++) await login(h, 'many-devices@example.com', 'Many-Pass1');
    const [user] = await db.select().from(users).where(eq(users.account, 'many-devices@example.com'));
    const devices = () => db.select().from(knownDevices).where(eq(knownDevices.userId, user!.id));
    expect(await devices()).toHaveLength(LIMITS.signIn.knownDevice.perUser);
    // Successful sign-ins from new devices leave no per-account row behind.
    expect(await db.select().from(signInAccountHolds).where(eq(signInAccountHolds.login, 'many-devices@example.com'))).toEqual([]);
    h.clock.advance(LIMITS.signIn.knownDevice.keptMs + 1000);
    await sut.sweepSignInState();
    expect(await devices()).toHaveLength(0);
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

  it('tells whether an account exists only to a solved captcha, each captcha once', async () => {
    await signUpByMail(h, 'exists@example.com');
    const exists = (account: string, query: { captchaId: string; captcha: string }) =>
      api(h.app, accountEndpoints.accountExists, { params: { account }, query });
    // Without a captcha nothing is told, for a taken name as for a free one.
    const bare = await api(h.app, accountEndpoints.accountExists, refusedInput({ params: { account: 'exists@example.com' } }));
    expect(bare.body).toMatchObject({ code: 100001, data: null });
    const wrong = { ...(await solvedCaptcha()), captcha: 'NOPE' };
    expectError(await exists('exists@example.com', wrong), 240101);
    expectError(await exists('exists@example.com', { ...wrong, captcha: CAPTCHA }), 240101);
    expect((await exists('exists@example.com', await solvedCaptcha())).body.data).toEqual({ exists: true });
    expect((await exists('nope@example.com', await solvedCaptcha())).body.data).toEqual({ exists: false });
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
