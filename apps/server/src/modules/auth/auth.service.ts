import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import {
  LIMITS,
  isLang,
  isMail,
  isPhone,
  type AccountExistsQuery,
  type Captcha,
  isErrorCode,
  type ErrorCode,
  type ChangePasswordBody,
  type Lang,
  type LoginBody,
  type LoginResult,
  type RegisterMailBody,
  type RegisterPhoneBody,
  type ResetPasswordBody,
  type SendCodeBody,
} from '@lumigrid/contract';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext, ProjectScope } from '../../http/auth.ts';
import type { UserRow } from '../accounts/accounts.repo.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import { assertNewPassword, type AccountsService, type NewAccount } from '../accounts/accounts.service.ts';
import type { Messenger } from '../outbox/messenger.ts';
import { verificationCodeMessage } from '../outbox/templates.ts';
import type { AuthRepo } from './auth.repo.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, randomPassword, verifyPassword } from '../../lib/password.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Makes a captcha: its answer and its picture as a data URL. */
export type CaptchaMaker = () => { text: string; image: string };

/** Where a sign-in comes from, for throttling per address. */
export interface RequestOrigin {
  ip: string;
}

/** Where a sign-in comes from: the address, and the device id its browser keeps from an earlier sign-in. */
export interface SignInOrigin extends RequestOrigin {
  device?: string;
}

/** A sign-in's answer, and the device id the browser keeps so the account knows the device next time. */
export interface SignedIn {
  answer: LoginResult;
  device: string;
}

/** Sessions ended on the server, for the real-time hub to close their sockets. */
export interface SessionsEnded {
  userId: bigint;
  /** Only this session; without it every session of the user but `exceptSessionId`. */
  sessionId?: bigint;
  exceptSessionId?: bigint;
  code: ErrorCode;
  /** Whether the user should be told (type 0 forced logout): not when the session signed itself out. */
  notify: boolean;
}

export function createAuthService(deps: {
  repo: AuthRepo;
  accounts: AccountsService;
  messenger: Messenger;
  makeCaptcha: CaptchaMaker;
  clock: Clock;
  config: Pick<Config, 'mode' | 'publicUrl'>;
  /** The projects a sub-account limited to some projects works in (the projects domain answers). */
  scopes: Pick<ProjectMembers, 'scopeOf'>;
  /** Whether the user's account switched sign-in with a password off for its sub-accounts (single sign-on answers). */
  passwordSignInOff: (user: Pick<UserRow, 'parentId'>) => Promise<boolean>;
}) {
  const { repo, accounts, messenger, makeCaptcha, clock, config } = deps;
  const endedListeners = new Set<(ended: SessionsEnded) => void>();

  /** The scope of a sub-account limited to some projects (280007 when none is left); undefined for everyone else. */
  async function scopeOf(user: Pick<UserRow, 'id' | 'parentId' | 'allProjects'>): Promise<ProjectScope | undefined> {
    if (user.parentId === null || user.allProjects) return undefined;
    return deps.scopes.scopeOf({ tenantId: user.parentId, userId: user.id });
  }
  const sessionsEnded = (ended: SessionsEnded) => {
    for (const listener of endedListeners) listener(ended);
  };
  const codeHash = (target: string, code: string) => sha256(`${target}\n${code}`);
  // A real hash of a random password, checked for unknown accounts so they cost what a known one costs.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => (decoy ??= hashPassword(randomPassword()));

  /**
   * Takes a slot for each key before the work it guards is done (one atomic statement per key, so a burst
   * of parallel requests cannot all get through); refuses with 100003 and the wait once a key is over its
   * limit within the window. Counters live in the database, so every server node shares them.
   */
  async function reserve(keys: Array<{ key: string; limit: number }>, windowMs: number) {
    const now = clock.now();
    const windowStartAfter = new Date(now.getTime() - windowMs);
    for (const { key, limit } of keys) {
      const { attempts, windowStart } = await repo.reserveAttempt({ key, now, windowStartAfter });
      if (attempts > limit) {
        const waitMs = windowStart.getTime() + windowMs - now.getTime();
        throw new AppError(100003, undefined, Math.max(1, Math.ceil(waitMs / 1000)));
      }
    }
  }

  /**
   * Checks a code for a target without spending it (wrong guesses count, and too many spend it); answers the
   * code's row, which the caller spends once what the code was for has succeeded, so a failed sign-up or
   * reset leaves the code usable.
   */
  async function checkCode(target: string, purpose: 'register' | 'reset', code: string): Promise<{ id: bigint }> {
    const now = clock.now();
    const row = await repo.latestOpenCode({ target, purpose });
    if (!row || row.expiresAt <= now) throw new AppError(240004);
    if (row.codeHash !== codeHash(target, code)) {
      const attempts = await repo.countCodeAttempt({ id: row.id });
      if (attempts >= LIMITS.verificationCode.maxAttempts) await repo.useCode({ id: row.id, now });
      throw new AppError(240003);
    }
    return row;
  }

  /** Spends a captcha on one answer: 240101 when it is unknown, expired or answered wrongly. */
  async function solveCaptcha(captchaId: string, answer: string): Promise<void> {
    const captcha = await repo.takeCaptcha(captchaId);
    if (!captcha || captcha.expiresAt <= clock.now() || captcha.answerHash !== sha256(answer.trim().toLowerCase())) {
      throw new AppError(240101);
    }
  }

  /**
   * Lets an attempt at an account from a device it does not know go on, or refuses it: 429 while the
   * account's wait runs (checked before the captcha, so no captcha is spent on a refused attempt), 100021
   * once the account's failures call for a captcha and none came. Counted for any name typed, known or not.
   */
  async function holdAccount(login: string, captcha: { captchaId?: string; captcha?: string }): Promise<void> {
    const rule = LIMITS.signIn.account;
    const now = clock.now();
    const forgetBefore = new Date(now.getTime() - rule.forgetMs);
    const waitUntil = (notBefore: Date) =>
      new AppError(100003, undefined, Math.max(1, Math.ceil((notBefore.getTime() - now.getTime()) / 1000)));
    const hold = await repo.accountHold(login);
    if (hold && hold.notBefore > now) throw waitUntil(hold.notBefore);
    const captchaNeeded = hold !== undefined && hold.lastAttemptAt > forgetBefore && hold.failures >= rule.captchaAfter;
    if (captchaNeeded) {
      if (!captcha.captchaId || !captcha.captcha) throw new AppError(100021);
      await solveCaptcha(captcha.captchaId, captcha.captcha);
    }
    if (await repo.reserveAccountAttempt({ login, now, forgetBefore, captchaSolved: captchaNeeded, ...rule })) return;
    // A parallel attempt took the slot first.
    const after = await repo.accountHold(login);
    if (after && after.notBefore > now) throw waitUntil(after.notBefore);
    throw new AppError(100021);
  }

  /** Refuses a deleted or disabled user, or a limited sub-account with no project left (280007). */
  async function assertMaySignIn(row: UserRow): Promise<void> {
    if (row.deletedAt) throw new AppError(250020);
    if (!row.enabled) throw new AppError(250018);
    await scopeOf(row);
  }

  /** A new session for a user who proved who they are: its token is answered once, the server keeps its hash. */
  async function startSession(row: UserRow, options: { remember: boolean }): Promise<LoginResult> {
    const now = clock.now();
    const token = randomBytes(32).toString('base64url');
    await repo.insertSession({
      userId: row.id,
      tokenHash: sha256(token),
      idleMs: options.remember ? LIMITS.session.rememberIdleMs : LIMITS.session.idleMs,
      now,
      expiresAt: new Date(now.getTime() + LIMITS.session.absoluteMs),
    });
    return { access_token: token, user: await accounts.loginUser(row) };
  }

  async function spendCode(row: { id: bigint }) {
    await repo.useCode({ id: row.id, now: clock.now() });
  }

  function normaliseTarget(target: string): { target: string; channel: 'mail' | 'sms' } {
    const t = target.trim();
    if (isMail(t)) return { target: t.toLowerCase(), channel: 'mail' };
    if (isPhone(t)) return { target: t, channel: 'sms' };
    throw new AppError(100012);
  }

  /** Opens an account signing in with a verified e-mail address or phone number (`account.account`). */
  async function registerAccount(account: NewAccount, code: string): Promise<{ account: string }> {
    accounts.assertValidAccount(account);
    if (await accounts.findByLogin(account.account)) throw new AppError(250001);
    const verified = await checkCode(account.account, 'register', code);
    const row = await accounts.createAccount(account);
    await spendCode(verified);
    return { account: row.account };
  }

  function assertSignUpOpen() {
    // On-premise installations create their accounts from the administration screens.
    if (config.mode !== 'saas') throw new AppError(100006);
  }

  return {
    /** Told after sessions are revoked (the real-time hub closes their sockets); answers the unsubscribe. */
    onSessionsEnded(listener: (ended: SessionsEnded) => void): () => void {
      endedListeners.add(listener);
      return () => endedListeners.delete(listener);
    },

    async captcha(): Promise<Captcha> {
      const now = clock.now();
      const { text, image } = makeCaptcha();
      const captchaId = randomUUID();
      await repo.insertCaptcha({
        id: captchaId,
        answerHash: sha256(text.toLowerCase()),
        expiresAt: new Date(now.getTime() + LIMITS.captcha.validMs),
        now,
      });
      return { captchaId, image };
    },

    async sendCode(body: SendCodeBody, lang: Lang, origin: RequestOrigin): Promise<void> {
      await reserve([{ key: `send-code:${origin.ip}`, limit: LIMITS.sendCode.perAddress }], LIMITS.sendCode.windowMs);
      const now = clock.now();
      await solveCaptcha(body.captchaId, body.captcha);
      const { target, channel } = normaliseTarget(body.target);
      if (body.purpose === 'register') {
        assertSignUpOpen();
        if (await accounts.findByLogin(target)) throw new AppError(250001);
      } else if (!(await accounts.accountExists(target))) {
        throw new AppError(250002);
      }
      const latest = await repo.latestCodeTo(target);
      if (latest && now.getTime() - latest.createdAt.getTime() < LIMITS.verificationCode.resendMs) {
        const wait = LIMITS.verificationCode.resendMs - (now.getTime() - latest.createdAt.getTime());
        throw new AppError(240002, undefined, Math.ceil(wait / 1000));
      }
      const sentToday = await repo.countCodesSince({ target, since: new Date(now.getTime() - 24 * 60 * 60_000) });
      if (sentToday >= LIMITS.verificationCode.dailyMax) throw new AppError(250008);

      const code = String(randomInt(0, 10 ** LIMITS.verificationCode.length)).padStart(LIMITS.verificationCode.length, '0');
      await repo.insertCode({
        target,
        purpose: body.purpose,
        codeHash: codeHash(target, code),
        now,
        expiresAt: new Date(now.getTime() + LIMITS.verificationCode.validMs),
      });
      const text = verificationCodeMessage({
        purpose: body.purpose,
        lang,
        code,
        minutes: LIMITS.verificationCode.validMs / 60_000,
        publicUrl: config.publicUrl,
      });
      await messenger.send({ channel, recipient: target, ...text });
    },

    async registerByMail(body: RegisterMailBody, lang: Lang): Promise<{ account: string }> {
      assertSignUpOpen();
      const mail = body.mail.trim().toLowerCase();
      const account = { account: mail, mail, name: body.name, company: body.company, password: body.password, lang: body.lang ?? lang };
      return registerAccount(account, body.code);
    },

    async registerByPhone(body: RegisterPhoneBody, lang: Lang): Promise<{ account: string }> {
      assertSignUpOpen();
      const phone = body.phone.trim();
      const account = { account: phone, phone, name: body.name, company: body.company, password: body.password, lang: body.lang ?? lang };
      return registerAccount(account, body.code);
    },

    async resetPassword(body: ResetPasswordBody): Promise<void> {
      const { target } = normaliseTarget(body.target);
      assertNewPassword(body.password);
      const row = await accounts.findByLogin(target);
      if (!row || row.deletedAt) throw new AppError(250002);
      const code = await checkCode(target, 'reset', body.code);
      await accounts.setPassword(row.id, body.password);
      await spendCode(code);
      await repo.revokeUserSessions({ userId: row.id, now: clock.now() });
      sessionsEnded({ userId: row.id, code: 250004, notify: true });
    },

    /** check_account_exist: whether a name is taken; each answer costs a solved captcha, and an address is capped. */
    async accountExists(account: string, captcha: AccountExistsQuery, origin: RequestOrigin): Promise<boolean> {
      await reserve([{ key: `account-lookup:${origin.ip}`, limit: LIMITS.accountLookup.perAddress }], LIMITS.accountLookup.windowMs);
      await solveCaptcha(captcha.captchaId, captcha.captcha);
      return accounts.accountExists(account);
    },

    async login(body: LoginBody, origin: SignInOrigin): Promise<SignedIn> {
      const now = clock.now();
      const login = body.account.trim();
      const name = login.toLowerCase();
      // Failures count per account from this address, and per address: guesses from elsewhere cannot lock
      // the owner out, and one address cannot try many accounts.
      const pairKey = `account:${name}|address:${origin.ip}`;
      const addressKey = `address:${origin.ip}`;
      await reserve(
        [
          { key: pairKey, limit: LIMITS.signIn.perAccountAndAddress },
          { key: addressKey, limit: LIMITS.signIn.perAddress },
        ],
        LIMITS.signIn.windowMs,
      );
      const row = await accounts.findByLogin(login);
      // Guesses from many addresses meet at the account: past its limit a device that never signed in to it
      // solves a captcha and waits, while the owner's own devices go on as before.
      const deviceHash = origin.device === undefined ? undefined : sha256(origin.device);
      const knownDevice =
        row !== undefined &&
        deviceHash !== undefined &&
        (await repo.isKnownDevice({ userId: row.id, deviceHash, since: new Date(now.getTime() - LIMITS.signIn.knownDevice.keptMs) }));
      if (!knownDevice) await holdAccount(name, body);
      // An unknown account costs the same hashing as a wrong password and answers the same words.
      const passwordRight = await verifyPassword(row?.passwordHash ?? (await decoyHash()), body.password);
      if (!row || !passwordRight) throw new AppError(100018);
      if (!knownDevice) await repo.releaseAccountAttempt({ login: name, now });
      await assertMaySignIn(row);
      // The account has its users sign in through its identity provider; its owner keeps the password.
      if (await deps.passwordSignInOff(row)) throw new AppError(103004);
      await repo.clearFailures(pairKey);
      await repo.releaseAttempt(addressKey);

      const device = origin.device ?? randomBytes(32).toString('base64url');
      await repo.rememberDevice({ userId: row.id, deviceHash: sha256(device), now, keep: LIMITS.signIn.knownDevice.perUser });
      return { answer: await startSession(row, { remember: body.remember === true }), device };
    },

    /**
     * Signs in a user another way proved (single sign-on): the same checks of the account and the same session
     * as a password sign-in.
     */
    async openSession(row: UserRow): Promise<LoginResult> {
      await assertMaySignIn(row);
      return startSession(row, { remember: false });
    },

    /** Deletes sign-in counters and known devices whose time has passed (also run on a timer). */
    async sweepSignInState(): Promise<void> {
      const now = clock.now().getTime();
      await repo.sweepSignInStateAnyTenant({
        // The same table counts sign-ins, codes and account checks: a row goes once the longest window passed.
        windowStartBefore: new Date(now - Math.max(LIMITS.signIn.windowMs, LIMITS.sendCode.windowMs, LIMITS.accountLookup.windowMs)),
        lastAttemptBefore: new Date(now - LIMITS.signIn.account.forgetMs),
        lastSignInBefore: new Date(now - LIMITS.signIn.knownDevice.keptMs),
      });
    },

    /**
     * Resolves a bearer token to its caller. Unknown or signed-out tokens answer 250004 (401); expired
     * sessions 100009 (403); a disabled or deleted account ends the session with its own code (403).
     * `touch: false` checks without counting as activity (the real-time channel re-checking open sockets).
     */
    async authenticate(token: string, options: { touch?: boolean } = {}): Promise<AuthContext> {
      const now = clock.now();
      const session = await repo.findSession(sha256(token));
      if (!session) throw new AppError(250004);
      // A session the server ended says why (permissions changed, ...); one signed out asks to sign in again.
      if (session.revokedAt) throw new AppError(session.endedCode !== null && isErrorCode(session.endedCode) ? session.endedCode : 250004);
      const idleUntil = session.lastSeenAt.getTime() + session.idleMs;
      if (now.getTime() >= idleUntil || now >= session.expiresAt) throw new AppError(100009);
      const user = await accounts.findById(session.userId);
      if (!user || user.deletedAt) throw new AppError(250020);
      if (!user.enabled) throw new AppError(250018);
      // Writing on every request would make reads cost a write; a minute's precision is plenty for idling.
      if (options.touch !== false && now.getTime() - session.lastSeenAt.getTime() > 60_000)
        await repo.touchSession({ id: session.id, now });
      const scope = await scopeOf(user);
      return {
        userId: user.id,
        tenantId: user.parentId ?? user.id,
        userAuth: user.userAuth,
        operateAuth: user.operateAuth,
        pushAuth: user.pushAuth,
        lang: isLang(user.lang) ? user.lang : 'en',
        sessionId: session.id,
        ...(scope ? { scope } : {}),
      };
    },

    /**
     * Ends every session of a user now, for a reason the next call answers and open browsers are told
     * (250018 disabled, 250019 permissions changed, 250020 deleted, 250004 new password).
     */
    async endUserSessions(userId: bigint, code: ErrorCode): Promise<void> {
      await repo.revokeUserSessions({ userId, now: clock.now(), code });
      sessionsEnded({ userId, code, notify: true });
    },

    /** The users signed in anywhere now (a restore tells them to sign in again). */
    async signedInUsers(): Promise<bigint[]> {
      return repo.openSessionUsersAnyTenant();
    },

    /**
     * Ends every session of every user (after a restore replaced the data they worked on) and tells them, and
     * `alsoNotify` (users signed in before the sessions table was replaced), to sign in again.
     */
    async endEverySession(alsoNotify: readonly bigint[] = []): Promise<void> {
      const ended = await repo.revokeAllSessionsAnyTenant({ now: clock.now(), code: 250004 });
      const users = new Set([...ended, ...alsoNotify].map(String));
      for (const userId of users) sessionsEnded({ userId: BigInt(userId), code: 250004, notify: true });
    },

    async logout(auth: AuthContext): Promise<void> {
      await repo.revokeSession({ id: auth.sessionId, now: clock.now() });
      sessionsEnded({ userId: auth.userId, sessionId: auth.sessionId, code: 250004, notify: false });
    },

    /** Changes the password and signs out every other session of the user. */
    async changePassword(auth: AuthContext, body: ChangePasswordBody): Promise<void> {
      await accounts.changePassword(auth, body);
      await repo.revokeUserSessions({ userId: auth.userId, keepId: auth.sessionId, now: clock.now() });
      sessionsEnded({ userId: auth.userId, exceptSessionId: auth.sessionId, code: 250004, notify: true });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
