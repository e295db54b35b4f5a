import { and, desc, eq, gt, isNull, lt, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { captchas, knownDevices, sessions, signInAccountHolds, signInFailures, verificationCodes } from '../../db/schema/index.ts';

export type SessionRow = typeof sessions.$inferSelect;
export type CodeRow = typeof verificationCodes.$inferSelect;

/** Queries for sessions, verification codes, captchas and sign-in throttling. */
export function createAuthRepo(db: Db) {
  return {
    async insertSession(values: { userId: bigint; tokenHash: string; idleMs: number; now: Date; expiresAt: Date }) {
      const { now, ...rest } = values;
      await db.insert(sessions).values({ ...rest, createdAt: now, lastSeenAt: now });
    },

    async findSession(tokenHash: string): Promise<SessionRow | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash)).limit(1);
      return row;
    },

    async touchSession({ id, now }: { id: bigint; now: Date }) {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
    },

    async revokeSession({ id, now }: { id: bigint; now: Date }) {
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
    },

    /** Ends every session of a user but the one given (after a password change) or all of them. */
    async revokeUserSessions({ userId, keepId, now, code }: { userId: bigint; keepId?: bigint; now: Date; code?: number }) {
      const keep = keepId === undefined ? undefined : ne(sessions.id, keepId);
      await db
        .update(sessions)
        .set({ revokedAt: now, endedCode: code ?? null })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep));
    },

    /** The users with a session not ended yet (any account). */
    async openSessionUsersAnyTenant(): Promise<bigint[]> {
      const rows = await db.selectDistinct({ userId: sessions.userId }).from(sessions).where(isNull(sessions.revokedAt));
      return rows.map((r) => r.userId);
    },

    /** Ends every open session of every account; answers whose they were. */
    async revokeAllSessionsAnyTenant({ now, code }: { now: Date; code: number }): Promise<bigint[]> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now, endedCode: code })
        .where(isNull(sessions.revokedAt))
        .returning({ userId: sessions.userId });
      return [...new Set(rows.map((r) => r.userId))];
    },

    async insertCode(values: { target: string; purpose: string; codeHash: string; now: Date; expiresAt: Date }) {
      const { now, ...rest } = values;
      await db.insert(verificationCodes).values({ ...rest, createdAt: now });
    },

    /** The newest code sent to a target (any purpose), for the resend interval. */
    async latestCodeTo(target: string): Promise<CodeRow | undefined> {
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(eq(verificationCodes.target, target))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return row;
    },

    async countCodesSince({ target, since }: { target: string; since: Date }): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(verificationCodes)
        .where(and(eq(verificationCodes.target, target), gt(verificationCodes.createdAt, since)));
      return row?.n ?? 0;
    },

    /** The newest unused code for a target and purpose. */
    async latestOpenCode({ target, purpose }: { target: string; purpose: string }): Promise<CodeRow | undefined> {
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.target, target), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.usedAt)))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return row;
    },

    async countCodeAttempt({ id }: { id: bigint }): Promise<number> {
      const [row] = await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(eq(verificationCodes.id, id))
        .returning({ attempts: verificationCodes.attempts });
      return row?.attempts ?? 0;
    },

    /** Marks a code used; answers false when another request used it first. */
    async useCode({ id, now }: { id: bigint; now: Date }): Promise<boolean> {
      const rows = await db
        .update(verificationCodes)
        .set({ usedAt: now })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
        .returning({ id: verificationCodes.id });
      return rows.length === 1;
    },

    async insertCaptcha(values: { id: string; answerHash: string; expiresAt: Date; now: Date }) {
      // Expired captchas are swept as new ones are made, so the table stays small.
      await db.delete(captchas).where(lt(captchas.expiresAt, values.now));
      await db.insert(captchas).values({ id: values.id, answerHash: values.answerHash, expiresAt: values.expiresAt });
    },

    /** Removes a captcha and answers it: each captcha gets exactly one try. */
    async takeCaptcha(id: string) {
      const [row] = await db.delete(captchas).where(eq(captchas.id, id)).returning();
      return row;
    },

    /**
     * Reserves one sign-in attempt for a key before the password is checked, in one statement, so parallel
     * requests (and several server nodes) each take their own slot: answers the attempts in the current
     * window including this one, and when the window opened. A window older than `windowStartAfter` restarts.
     */
    async reserveAttempt({ key, now, windowStartAfter }: { key: string; now: Date; windowStartAfter: Date }) {
      const fresh = sql`${signInFailures.windowStart} > ${windowStartAfter.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(signInFailures)
        .values({ key, windowStart: now, failures: 1 })
        .onConflictDoUpdate({
          target: signInFailures.key,
          set: {
            failures: sql`case when ${fresh} then ${signInFailures.failures} + 1 else 1 end`,
            windowStart: sql`case when ${fresh} then ${signInFailures.windowStart} else ${now.toISOString()}::timestamptz end`,
          },
        })
        .returning({ attempts: signInFailures.failures, windowStart: signInFailures.windowStart });
      return row!;
    },

    /** Gives a reserved attempt back (a sign-in that succeeded does not count against its address). */
    async releaseAttempt(key: string) {
      await db
        .update(signInFailures)
        .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)` })
        .where(eq(signInFailures.key, key));
    },

    async clearFailures(key: string) {
      await db.delete(signInFailures).where(eq(signInFailures.key, key));
    },

    async accountHold(login: string) {
      const [row] = await db.select().from(signInAccountHolds).where(eq(signInAccountHolds.login, login)).limit(1);
      return row;
    },

    /**
     * Reserves one attempt at an account for a device it does not know, in one statement so that parallel
     * requests (and several nodes) cannot share a slot: refused (false) before `notBefore`, and once the
     * failures reach `captchaAfter` unless a captcha was solved. A reserved attempt counts as a failure until
     * released and sets the wait before the next one: `firstDelayMs` from the `captchaAfter`th failure on,
     * doubling up to `maxDelayMs`. Failures older than `forgetBefore` no longer count.
     */
    async reserveAccountAttempt(q: {
      login: string;
      now: Date;
      forgetBefore: Date;
      captchaSolved: boolean;
      captchaAfter: number;
      firstDelayMs: number;
      maxDelayMs: number;
    }): Promise<boolean> {
      const t = signInAccountHolds;
      const now = sql`${q.now.toISOString()}::timestamptz`;
      const counted = sql`(case when ${t.lastAttemptAt} > ${q.forgetBefore.toISOString()}::timestamptz then ${t.failures} else 0 end)`;
      const next = sql`(${counted} + 1)`;
      const waitMs = sql`(case when ${next} >= ${q.captchaAfter}::int
        then least(${q.firstDelayMs}::float8 * power(2, ${next} - ${q.captchaAfter}::int), ${q.maxDelayMs}::float8) else 0 end)`;
      const rows = await db
        .insert(t)
        // A first failure never waits (captchaAfter is above one).
        .values({ login: q.login, failures: 1, lastAttemptAt: q.now, notBefore: q.now })
        .onConflictDoUpdate({
          target: t.login,
          set: { failures: next, lastAttemptAt: q.now, notBefore: sql`${now} + ${waitMs} * interval '1 millisecond'` },
          setWhere: sql`${t.notBefore} <= ${now} and (${counted} < ${q.captchaAfter}::int or ${q.captchaSolved}::boolean)`,
        })
        .returning({ failures: t.failures });
      return rows.length === 1;
    },

    /**
     * Gives a reserved attempt back (the password was right): it was no failure; a wait it set stays. A row
     * that held only this attempt goes, so successful sign-ins leave nothing behind.
     */
    async releaseAccountAttempt({ login, now }: { login: string; now: Date }) {
      const t = signInAccountHolds;
      const alone = await db
        .delete(t)
        .where(and(eq(t.login, login), lte(t.failures, 1), lte(t.notBefore, now)))
        .returning({ login: t.login });
      if (alone.length > 0) return;
      await db
        .update(t)
        .set({ failures: sql`greatest(${t.failures} - 1, 0)` })
        .where(eq(t.login, login));
    },

    async isKnownDevice({ userId, deviceHash, since }: { userId: bigint; deviceHash: string; since: Date }): Promise<boolean> {
      const [row] = await db
        .select({ userId: knownDevices.userId })
        .from(knownDevices)
        .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, deviceHash), gt(knownDevices.lastSignInAt, since)))
        .limit(1);
      return row !== undefined;
    },

    /** Notes a device's sign-in to a user; a user keeps only the `keep` devices that signed in last. */
    async rememberDevice({ userId, deviceHash, now, keep }: { userId: bigint; deviceHash: string; now: Date; keep: number }) {
      await db
        .insert(knownDevices)
        .values({ userId, deviceHash, lastSignInAt: now })
        .onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.deviceHash], set: { lastSignInAt: now } });
      const newest = db
        .select({ deviceHash: knownDevices.deviceHash })
        .from(knownDevices)
        .where(eq(knownDevices.userId, userId))
        .orderBy(desc(knownDevices.lastSignInAt), desc(knownDevices.deviceHash))
        .limit(keep);
      await db.delete(knownDevices).where(and(eq(knownDevices.userId, userId), notInArray(knownDevices.deviceHash, newest)));
    },

    /** Deletes throttling rows whose time has passed and devices not seen within their time (every account's). */
    async sweepSignInStateAnyTenant(q: { windowStartBefore: Date; lastAttemptBefore: Date; lastSignInBefore: Date }) {
      await db.delete(signInFailures).where(lt(signInFailures.windowStart, q.windowStartBefore));
      await db.delete(signInAccountHolds).where(lt(signInAccountHolds.lastAttemptAt, q.lastAttemptBefore));
      await db.delete(knownDevices).where(lt(knownDevices.lastSignInAt, q.lastSignInBefore));
    },
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
