import { and, asc, count, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alerts, emergencyRuns, energyMapDays, mailRecipients, mailReportSends } from '../../db/schema/index.ts';
import { mapIdsOfProject } from '../projects/maps.repo.ts';

export type RecipientRow = typeof mailRecipients.$inferSelect;
export type RecipientValues = Omit<typeof mailRecipients.$inferInsert, 'id' | 'tenantId' | 'projectId' | 'createdAt'>;

/** The queries of report recipients and of what their reports read (energy rollups, alerts). */
export function createRecipientsRepo(db: Db) {
  const mine = (tenantId: bigint, id: bigint) => and(eq(mailRecipients.tenantId, tenantId), eq(mailRecipients.id, id));

  return {
    async list({ tenantId, projectId }: { tenantId: bigint; projectId: bigint }): Promise<RecipientRow[]> {
      return db
        .select()
        .from(mailRecipients)
        .where(and(eq(mailRecipients.tenantId, tenantId), eq(mailRecipients.projectId, projectId)))
        .orderBy(asc(mailRecipients.id));
    },

    async countOfProject({ tenantId, projectId }: { tenantId: bigint; projectId: bigint }): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(mailRecipients)
        .where(and(eq(mailRecipients.tenantId, tenantId), eq(mailRecipients.projectId, projectId)));
      return row?.n ?? 0;
    },

    async find({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<RecipientRow | undefined> {
      const [row] = await db.select().from(mailRecipients).where(mine(tenantId, id));
      return row;
    },

    /** For jobs, which act for no caller: the id is the job's own. */
    async byId({ id }: { id: bigint }): Promise<RecipientRow | undefined> {
      const [row] = await db.select().from(mailRecipients).where(eq(mailRecipients.id, id));
      return row;
    },

    async insert(values: RecipientValues & { tenantId: bigint; projectId: bigint }): Promise<RecipientRow> {
      const [row] = await db.insert(mailRecipients).values(values).returning();
      return row!;
    },

    async update({ tenantId, id, values }: { tenantId: bigint; id: bigint; values: Partial<RecipientValues> }) {
      const [row] = await db.update(mailRecipients).set(values).where(mine(tenantId, id)).returning();
      return row;
    },

    async remove({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<boolean> {
      const gone = await db.delete(mailRecipients).where(mine(tenantId, id)).returning({ id: mailRecipients.id });
      return gone.length > 0;
    },

    /** Records a send's outcome and the next occurrence, unless the recipient was rescheduled meanwhile. */
    async recordOutcome(input: {
      id: bigint;
      occurrence: Date;
      next: Date;
      lastSentAt?: Date;
      lastError: string | null;
    }): Promise<boolean> {
      const done = await db
        .update(mailRecipients)
        .set({ nextSendAt: input.next, lastError: input.lastError, ...(input.lastSentAt ? { lastSentAt: input.lastSentAt } : {}) })
        .where(and(eq(mailRecipients.id, input.id), eq(mailRecipients.nextSendAt, input.occurrence)))
        .returning({ id: mailRecipients.id });
      return done.length > 0;
    },

    async recordError({ id, occurrence, error }: { id: bigint; occurrence: Date; error: string }) {
      await db
        .update(mailRecipients)
        .set({ lastError: error })
        .where(and(eq(mailRecipients.id, id), eq(mailRecipients.nextSendAt, occurrence)));
    },

    async wasSent({ recipientId, occurrence }: { recipientId: bigint; occurrence: Date }): Promise<boolean> {
      const [row] = await db
        .select({ at: mailReportSends.sentAt })
        .from(mailReportSends)
        .where(and(eq(mailReportSends.recipientId, recipientId), eq(mailReportSends.occurrence, occurrence)));
      return row !== undefined;
    },

    async markSent({ recipientId, occurrence, sentAt }: { recipientId: bigint; occurrence: Date; sentAt: Date }) {
      await db.insert(mailReportSends).values({ recipientId, occurrence, sentAt }).onConflictDoNothing();
    },

    /** Recipients of a project with the real-time fault switch on. */
    async realtimeOfProject({ tenantId, projectId }: { tenantId: bigint; projectId: bigint }): Promise<RecipientRow[]> {
      return db
        .select()
        .from(mailRecipients)
        .where(
          and(eq(mailRecipients.tenantId, tenantId), eq(mailRecipients.projectId, projectId), eq(mailRecipients.realtimeFaults, true)),
        );
    },

    /** The newest alert of all: a switch turned on now mails only alerts after it. */
    async latestAlertId(): Promise<bigint> {
      const [row] = await db.select({ id: sql<string | null>`max(${alerts.id})` }).from(alerts);
      return BigInt(row?.id ?? 0);
    },

    /**
     * Takes the project's alerts after the recipient's mark for one mail (at most `limit`, oldest first) and moves
     * the mark past them, only if nobody moved it first: two runs of the same batch mail it once. Answers the
     * alerts, how many there were in all, and the mark before, or undefined when there is nothing to take.
     */
    async takeFaults({ id, limit }: { id: bigint; limit: number }) {
      const current = await this.byId({ id });
      if (!current?.realtimeFaults || current.faultsMailedThrough === null) return undefined;
      const through = current.faultsMailedThrough;
      const where = and(eq(alerts.tenantId, current.tenantId), eq(alerts.projectId, current.projectId), gt(alerts.id, through));
      const list = await db.select().from(alerts).where(where).orderBy(asc(alerts.id)).limit(limit);
      if (list.length === 0) return undefined;
      const [counted] = await db.select({ n: count() }).from(alerts).where(where);
      const [row] = await db
        .update(mailRecipients)
        .set({ faultsMailedThrough: list.at(-1)!.id })
        .where(and(eq(mailRecipients.id, id), eq(mailRecipients.faultsMailedThrough, through)))
        .returning();
      return row && { row, list, total: counted?.n ?? list.length, through };
    },

    /** Gives alerts back after their mail failed, so the retry sends them. */
    async returnFaults({ id, through, taken }: { id: bigint; through: bigint; taken: bigint }) {
      await db
        .update(mailRecipients)
        .set({ faultsMailedThrough: through })
        .where(and(eq(mailRecipients.id, id), eq(mailRecipients.faultsMailedThrough, taken)));
    },

    async markFaultMail({ id, at }: { id: bigint; at: Date }) {
      await db.update(mailRecipients).set({ lastFaultMailAt: at }).where(eq(mailRecipients.id, id));
    },

    /** The project's alerts raised in [from, to), oldest first, at most `limit`, and how many by code. */
    async faults(input: { tenantId: bigint; projectId: bigint; from: Date; to: Date; limit: number }) {
      const where = and(
        eq(alerts.tenantId, input.tenantId),
        eq(alerts.projectId, input.projectId),
        gte(alerts.raisedAt, input.from),
        lt(alerts.raisedAt, input.to),
      );
      const byCode = await db
        .select({ code: alerts.code, count: count() })
        .from(alerts)
        .where(where)
        .groupBy(alerts.code)
        .orderBy(asc(alerts.code));
      const list = await db.select().from(alerts).where(where).orderBy(asc(alerts.raisedAt), asc(alerts.id)).limit(input.limit);
      return { byCode, list };
    },

    /** The project's emergency test runs started in the period, oldest first, with their counts (the emergency sheet). */
    async emergencyRuns(input: { tenantId: bigint; projectId: bigint; from: Date; to: Date; limit: number }) {
      return db
        .select({
          startedAt: emergencyRuns.startedAt,
          taskName: emergencyRuns.taskName,
          test: emergencyRuns.test,
          result: emergencyRuns.result,
          total: sql<number>`(select count(*)::int from emergency_records r where r.run_id = "emergency_runs"."id")`,
          passed: sql<number>`(select count(*)::int from emergency_records r where r.run_id = "emergency_runs"."id" and r.passed)`,
          failed: sql<number>`(select count(*)::int from emergency_records r where r.run_id = "emergency_runs"."id" and r.fault_code is not null)`,
        })
        .from(emergencyRuns)
        .where(
          and(
            eq(emergencyRuns.tenantId, input.tenantId),
            eq(emergencyRuns.projectId, input.projectId),
            gte(emergencyRuns.startedAt, input.from),
            lt(emergencyRuns.startedAt, input.to),
          ),
        )
        .orderBy(asc(emergencyRuns.startedAt), asc(emergencyRuns.id))
        .limit(input.limit);
    },

    /**
     * Energy of the project's maps per local day in [firstDay, endDay), from the daily rollup; maps of the
     * project's buildings only, as the alert filters count a project.
     */
    async energyDays(input: { tenantId: bigint; projectId: bigint; firstDay: string; endDay: string }) {
      return db
        .select({
          day: energyMapDays.localDate,
          energyWh: sql<number>`sum(${energyMapDays.energyWh})`.mapWith(Number),
          savedWh: sql<number>`sum(${energyMapDays.savedWh})`.mapWith(Number),
        })
        .from(energyMapDays)
        .where(
          and(
            eq(energyMapDays.tenantId, input.tenantId),
            inArray(energyMapDays.mapId, mapIdsOfProject(input)),
            gte(energyMapDays.localDate, input.firstDay),
            lt(energyMapDays.localDate, input.endDay),
          ),
        )
        .groupBy(energyMapDays.localDate)
        .orderBy(asc(energyMapDays.localDate));
    },
  };
}

export type RecipientsRepo = ReturnType<typeof createRecipientsRepo>;
