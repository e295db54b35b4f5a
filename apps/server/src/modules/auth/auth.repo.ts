import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { captchas, sessions, signInFailures, verificationCodes } from '../../db/schema/index.ts';

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
    async revokeUserSessions({ userId, keepId, now }: { userId: bigint; keepId?: bigint; now: Date }) {
      const keep = keepId === undefined ? undefined : ne(sessions.id, keepId);
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep));
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

    async failureCount({ key, since }: { key: string; since: Date }): Promise<{ failures: number; windowStart: Date } | undefined> {
      const [row] = await db
        .select()
        .from(signInFailures)
        .where(and(eq(signInFailures.key, key), gt(signInFailures.windowStart, since)))
        .limit(1);
      return row;
    },

    /** Counts one failed sign-in for a key, opening a new window when the old one has passed. */
    async addFailure({ key, now, windowStartAfter }: { key: string; now: Date; windowStartAfter: Date }) {
      await db
        .insert(signInFailures)
        .values({ key, windowStart: now, failures: 1 })
        .onConflictDoUpdate({
          target: signInFailures.key,
          set: {
            failures: sql`case when ${signInFailures.windowStart} > ${windowStartAfter.toISOString()}::timestamptz then ${signInFailures.failures} + 1 else 1 end`,
            windowStart: sql`case when ${signInFailures.windowStart} > ${windowStartAfter.toISOString()}::timestamptz then ${signInFailures.windowStart} else ${now.toISOString()}::timestamptz end`,
          },
        });
    },

    async clearFailures(key: string) {
      await db.delete(signInFailures).where(eq(signInFailures.key, key));
    },
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
