import type { AlarmCodeSetting, AlarmRule, AlarmSeverity, AlarmState } from '@lumigrid/contract';
import { and, asc, desc, eq, gt, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alarmCodeSettings, alarmRules, alarms, alerts } from '../../db/schema/index.ts';
import { usersSeeingMap } from '../projects/map-audience.ts';

export type AlarmRow = typeof alarms.$inferSelect;
export type NewAlarm = Omit<typeof alarms.$inferInsert, 'id'>;
/** What the engine changes on a standing alarm. */
export type AlarmPatch = Partial<
  Pick<
    AlarmRow,
    | 'state'
    | 'chattering'
    | 'raiseCount'
    | 'clearedAt'
    | 'ackedAt'
    | 'ackedByName'
    | 'shelvedUntil'
    | 'shelvedReason'
    | 'shelvedByName'
    | 'attentionRound'
    | 'attentionSince'
  >
>;

/** The column and SQL type of each field the engine changes (for the batched update). */
const PATCH_COLUMNS: Record<keyof AlarmPatch, [string, string]> = {
  state: ['state', 'text'],
  chattering: ['chattering', 'boolean'],
  raiseCount: ['raise_count', 'integer'],
  clearedAt: ['cleared_at', 'timestamptz'],
  ackedAt: ['acked_at', 'timestamptz'],
  ackedByName: ['acked_by_name', 'text'],
  shelvedUntil: ['shelved_until', 'timestamptz'],
  shelvedReason: ['shelved_reason', 'text'],
  shelvedByName: ['shelved_by_name', 'text'],
  attentionRound: ['attention_round', 'integer'],
  attentionSince: ['attention_since', 'timestamptz'],
};

export interface AlarmFilter {
  tenantId: bigint;
  /** A limited sub-account's maps; undefined for the whole account. */
  mapIds?: bigint[];
  projectId?: bigint;
  states?: AlarmState[];
  severity?: AlarmSeverity;
  shelved?: boolean;
  now: Date;
}

export interface StoredRule extends AlarmRule {
  id: bigint;
  tenantId: bigint;
  projectId: bigint;
}

/** Queries of alarms and their settings. Every read and change a caller reaches takes the account. */
export function createAlarmsRepo(db: Db) {
  const visible = (tenantId: bigint, mapIds: bigint[] | undefined): SQL | undefined =>
    and(eq(alarms.tenantId, tenantId), mapIds ? (mapIds.length ? inArray(alarms.mapId, mapIds) : sql`false`) : undefined);
  const shelvedNow = (now: Date) => and(sql`${alarms.shelvedUntil} is not null`, gt(alarms.shelvedUntil, now));

  function where(f: AlarmFilter): SQL | undefined {
    return and(
      visible(f.tenantId, f.mapIds),
      f.projectId !== undefined ? eq(alarms.projectId, f.projectId) : undefined,
      f.states ? inArray(alarms.state, f.states) : ne(alarms.state, 'normal'),
      f.severity ? eq(alarms.severity, f.severity) : undefined,
      f.shelved === true
        ? shelvedNow(f.now)
        : f.shelved === false
          ? or(isNull(alarms.shelvedUntil), lte(alarms.shelvedUntil, f.now))
          : undefined,
    );
  }

  return {
    /** A new standing alarm; a source that has one already (another node raised it) answers that one. */
    async insert(row: NewAlarm): Promise<bigint> {
      const [made] = await db.insert(alarms).values(row).onConflictDoNothing().returning({ id: alarms.id });
      if (made) return made.id;
      const [standing] = await db
        .select({ id: alarms.id })
        .from(alarms)
        .where(
          and(
            row.gatewayId === null || row.gatewayId === undefined ? isNull(alarms.gatewayId) : eq(alarms.gatewayId, row.gatewayId),
            eq(alarms.addr, row.addr),
            eq(alarms.code, row.code),
            ne(alarms.state, 'normal'),
          ),
        );
      return standing!.id;
    },

    /**
     * New alarms in one statement, answering their ids in the order given. A source that has a standing alarm
     * already (another node raised it) answers that one's id.
     */
    async insertMany(rows: NewAlarm[]): Promise<bigint[]> {
      const made = await db.insert(alarms).values(rows).onConflictDoNothing().returning({
        id: alarms.id,
        gatewayId: alarms.gatewayId,
        addr: alarms.addr,
        code: alarms.code,
        raisedAt: alarms.raisedAt,
        state: alarms.state,
      });
      const keyOf = (r: { gatewayId?: bigint | null; addr: string; code: number; raisedAt: Date; state: string }) =>
        `${r.gatewayId ?? ''}/${r.addr}/${r.code}/${r.raisedAt.getTime()}/${r.state}`;
      const ids = new Map(made.map((r) => [keyOf(r), r.id]));
      const answer: bigint[] = [];
      for (const row of rows) answer.push(ids.get(keyOf(row)) ?? (await this.insert(row)));
      return answer;
    },

    /**
     * The engine's changes to alarms it keeps: one `update ... from (values ...)` per set of changed columns, so
     * a storm's thousand changes are a statement or two.
     */
    async updateMany(changes: Array<{ id: bigint; patch: AlarmPatch }>): Promise<void> {
      const groups = new Map<string, Array<{ id: bigint; patch: AlarmPatch }>>();
      for (const change of changes) {
        const fields = (Object.keys(change.patch) as Array<keyof AlarmPatch>).sort().join(',');
        if (!fields) continue;
        const group = groups.get(fields) ?? [];
        group.push(change);
        groups.set(fields, group);
      }
      for (const [fields, group] of groups) {
        const names = fields.split(',') as Array<keyof AlarmPatch>;
        const columns = names.map((name) => sql.identifier(PATCH_COLUMNS[name][0]));
        const rows = group.map(
          ({ id, patch }) =>
            sql`(${id}::bigint, ${sql.join(
              names.map((name) => sql`${patch[name] ?? null}::${sql.raw(PATCH_COLUMNS[name][1])}`),
              sql`, `,
            )})`,
        );
        await db.execute(sql`
          update ${alarms} as a set ${sql.join(
            columns.map((c) => sql`${c} = v.${c}`),
            sql`, `,
          )}
          from (values ${sql.join(rows, sql`, `)}) as v(id, ${sql.join(columns, sql`, `)})
          where a.id = v.id`);
      }
    },

    /** The engine's change to an alarm it keeps (no caller reaches it: the id comes from the engine). */
    async updateAnyTenant(id: bigint, patch: AlarmPatch): Promise<void> {
      await db.update(alarms).set(patch).where(eq(alarms.id, id));
    },

    /** Every alarm not yet over, of every account: the engine takes them back at start. */
    standingAnyTenant(): Promise<AlarmRow[]> {
      return db.select().from(alarms).where(ne(alarms.state, 'normal'));
    },

    /** The faults open in the fault list, of every account: a node taking the engine over matches them. */
    async openFaultsAnyTenant() {
      const rows = await db
        .select({
          tenantId: alerts.tenantId,
          gatewayId: alerts.gatewayId,
          gatewayName: alerts.gatewayName,
          deviceId: alerts.deviceId,
          addr: alerts.addr,
          name: alerts.name,
          projectId: alerts.projectId,
          mapId: alerts.mapId,
          code: alerts.code,
          raisedAt: alerts.raisedAt,
        })
        .from(alerts)
        .where(and(isNull(alerts.clearedAt), sql`${alerts.gatewayId} is not null`));
      return rows.map((row) => ({ ...row, gatewayId: row.gatewayId! }));
    },

    /** Alarms by id, of any account: the caller was checked by the node that answered it. */
    byIdsAnyTenant(ids: bigint[]): Promise<AlarmRow[]> {
      return ids.length ? db.select().from(alarms).where(inArray(alarms.id, ids)) : Promise.resolve([]);
    },

    async findAnyTenant(id: bigint): Promise<AlarmRow | undefined> {
      const [row] = await db.select().from(alarms).where(eq(alarms.id, id));
      return row;
    },

    async page(f: AlarmFilter & { limit: number; offset: number }): Promise<{ rows: AlarmRow[]; total: number }> {
      const rows = await db
        .select()
        .from(alarms)
        .where(where(f))
        .orderBy(desc(alarms.raisedAt), desc(alarms.id))
        .limit(f.limit)
        .offset(f.offset);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(alarms)
        .where(where(f));
      return { rows, total: count?.n ?? 0 };
    },

    /** Unacknowledged, unshelved alarms by severity, and how many are shelved. */
    async summary(q: { tenantId: bigint; mapIds?: bigint[]; now: Date }) {
      const rows = await db
        .select({
          severity: alarms.severity,
          unacked: sql<number>`count(*) filter (where ${alarms.ackedAt} is null and (${alarms.shelvedUntil} is null or ${alarms.shelvedUntil} <= ${q.now}))::int`,
          shelved: sql<number>`count(*) filter (where ${alarms.shelvedUntil} > ${q.now})::int`,
        })
        .from(alarms)
        .where(and(visible(q.tenantId, q.mapIds), ne(alarms.state, 'normal')))
        .groupBy(alarms.severity);
      return rows;
    },

    /** Of these ids, the standing alarms of the account (and, for a limited sub-account, on its maps). */
    owned(q: { tenantId: bigint; mapIds?: bigint[]; ids: bigint[] }): Promise<AlarmRow[]> {
      return db
        .select()
        .from(alarms)
        .where(and(visible(q.tenantId, q.mapIds), inArray(alarms.id, q.ids)));
    },

    audience(q: { tenantId: bigint; mapId: bigint | null }) {
      return usersSeeingMap(db, q);
    },

    async codeSettings(q: { projectId: bigint }): Promise<AlarmCodeSetting[]> {
      const rows = await db
        .select()
        .from(alarmCodeSettings)
        .where(eq(alarmCodeSettings.projectId, q.projectId))
        .orderBy(asc(alarmCodeSettings.code));
      return rows.map(({ code, severity, onDelaySec, offDelaySec, chatterCount, chatterWindowSec }) => ({
        code,
        severity,
        onDelaySec,
        offDelaySec,
        chatterCount,
        chatterWindowSec,
      }));
    },

    async rules(q: { projectId: bigint }): Promise<StoredRule[]> {
      return db.select().from(alarmRules).where(eq(alarmRules.projectId, q.projectId)).orderBy(asc(alarmRules.position));
    },

    async ruleAnyTenant(id: bigint): Promise<StoredRule | undefined> {
      const [row] = await db.select().from(alarmRules).where(eq(alarmRules.id, id));
      return row;
    },

    /**
     * Replaces a project's settings. Rules keep their ids by position, so mails planned for a rule step follow
     * what the rule says when they go.
     */
    async saveSettings(q: { tenantId: bigint; projectId: bigint; codes: AlarmCodeSetting[]; rules: AlarmRule[] }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(alarmCodeSettings).where(eq(alarmCodeSettings.projectId, q.projectId));
        if (q.codes.length) {
          await tx.insert(alarmCodeSettings).values(q.codes.map((c) => ({ ...c, tenantId: q.tenantId, projectId: q.projectId })));
        }
        const existing = await tx
          .select({ id: alarmRules.id, position: alarmRules.position })
          .from(alarmRules)
          .where(eq(alarmRules.projectId, q.projectId));
        const byPosition = new Map(existing.map((r) => [r.position, r.id]));
        for (const [position, rule] of q.rules.entries()) {
          const fields = { name: rule.name, severities: rule.severities, steps: rule.steps, lang: rule.lang };
          const id = byPosition.get(position);
          if (id === undefined) await tx.insert(alarmRules).values({ ...fields, position, tenantId: q.tenantId, projectId: q.projectId });
          else await tx.update(alarmRules).set(fields).where(eq(alarmRules.id, id));
        }
        await tx.delete(alarmRules).where(and(eq(alarmRules.projectId, q.projectId), sql`${alarmRules.position} >= ${q.rules.length}`));
      });
    },
  };
}
export type AlarmsRepo = ReturnType<typeof createAlarmsRepo>;
