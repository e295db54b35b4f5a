import type { RolloutState, RolloutTargetState } from '@lumigrid/contract';
import { USER_AUTH } from '@lumigrid/contract';
import { and, asc, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowBytesByTenant } from '../../db/row-bytes.ts';
import { alarms, auditTrail, energyDeviceHours, firmwareRollouts, firmwareRolloutTargets, users } from '../../db/schema/index.ts';
import { deviceStateBytesByTenant } from '../device-reports/device-states.ts';
import { deviceBytesByTenant, devicesAnyTenant } from '../devices/devices.repo.ts';
import { gatewayRecordsAnyTenant } from '../gateways/gateways.repo.ts';

export type RolloutRow = typeof firmwareRollouts.$inferSelect;
export type RolloutTargetRow = typeof firmwareRolloutTargets.$inferSelect;

/** States in which a rollout still holds its gateways: another rollout may not take them. */
const ACTIVE_STATES: RolloutState[] = ['running', 'paused', 'rollingBack'];

/** Tables whose rows belong to one tenant and grow with its use: what "storage used" adds up (the owners count theirs). */
const TENANT_ROW_BYTES = () => [
  deviceBytesByTenant(),
  deviceStateBytesByTenant(),
  rowBytesByTenant(energyDeviceHours),
  rowBytesByTenant(alarms),
  rowBytesByTenant(auditTrail),
];

/** Gateways and devices, read through their owners' subqueries. */
const gateways = gatewayRecordsAnyTenant('gw');
const devices = devicesAnyTenant('d');

function countBy<K>(rows: Array<{ key: K; n: number | string }>): Map<K, number> {
  return new Map(rows.map((r) => [r.key, Number(r.n)]));
}

/**
 * The platform administrator's queries across every tenant, and the rollouts' rows. Nothing here is scoped to a
 * tenant: the service lets only the platform administrator reach it.
 */
export function createPlatformRepo(db: Db) {
  return {
    async tenantsAnyTenant() {
      return db
        .select({ id: users.id, account: users.account, name: users.name, enabled: users.enabled })
        .from(users)
        .where(and(eq(users.userAuth, USER_AUTH.account), isNull(users.deletedAt)))
        .orderBy(asc(users.account));
    },

    async gatewayPresenceAnyTenant() {
      return db
        .select({ tenantId: gateways.tenantId, online: gateways.online, n: sql<number>`count(*)::int` })
        .from(gateways)
        .groupBy(gateways.tenantId, gateways.online);
    },

    async devicesByTenantAnyTenant() {
      return countBy(
        await db
          .select({ key: devices.tenantId, n: sql<number>`count(*)::int` })
          .from(devices)
          .groupBy(devices.tenantId),
      );
    },

    async openAlarmsByTenantAnyTenant() {
      return countBy(
        await db
          .select({ key: alarms.tenantId, n: sql<number>`count(*)::int` })
          .from(alarms)
          .where(ne(alarms.state, 'normal'))
          .groupBy(alarms.tenantId),
      );
    },

    /** The bytes each tenant's rows take in TENANT_ROW_BYTES (pg_column_size of whole rows). */
    async storageByTenantAnyTenant(): Promise<Map<bigint, number>> {
      const total = new Map<bigint, number>();
      for (const query of TENANT_ROW_BYTES()) {
        const rows = await db.select().from(query.as('bytes'));
        for (const row of rows) if (row.key !== null) total.set(row.key, (total.get(row.key) ?? 0) + Number(row.n));
      }
      return total;
    },

    async databaseBytesAnyTenant(): Promise<number> {
      const result = (await db.execute(sql`select pg_database_size(current_database())::bigint as bytes`)) as unknown as {
        rows: Array<{ bytes: string | number | bigint }>;
      };
      return Number(result.rows[0]?.bytes ?? 0);
    },

    /** The gateway firmware in the fleet by model and version. */
    async fleetVersionsAnyTenant() {
      const version = sql<string>`coalesce(${gateways.info}->'versions'->>'gateway', '')`;
      const model = sql<string>`coalesce(${gateways.info}->>'model', '')`;
      return db
        .select({ model, version, count: sql<number>`count(*)::int` })
        .from(gateways)
        .groupBy(model, version)
        .orderBy(model, version);
    },

    /** The gateways a selection matches, in MAC order, with the version of the part they run. */
    async matchingGatewaysAnyTenant(q: { target: string; tenantIds: bigint[]; versions: string[]; models: string[] }) {
      const running = sql<string>`coalesce(${gateways.info}->'versions'->>${q.target}, '')`;
      const model = sql<string>`coalesce(${gateways.info}->>'model', '')`;
      const where: SQL[] = [];
      const { tenantIds, versions, models } = q;
      if (tenantIds.length > 0) where.push(inArray(gateways.tenantId, tenantIds));
      if (versions.length > 0) where.push(inArray(running, versions));
      if (models.length > 0) where.push(inArray(model, models));
      return db
        .select({ id: gateways.id, mac: gateways.mac, running })
        .from(gateways)
        .where(where.length > 0 ? and(...where) : undefined)
        .orderBy(asc(gateways.mac));
    },

    /** The MACs among these that a rollout not yet ended holds. */
    async heldByActiveRolloutAnyTenant(macs: string[]): Promise<string[]> {
      if (macs.length === 0) return [];
      const rows = await db
        .selectDistinct({ mac: firmwareRolloutTargets.mac })
        .from(firmwareRolloutTargets)
        .innerJoin(firmwareRollouts, eq(firmwareRollouts.id, firmwareRolloutTargets.rolloutId))
        .where(and(inArray(firmwareRolloutTargets.mac, macs), inArray(firmwareRollouts.state, ACTIVE_STATES)));
      return rows.map((r) => r.mac);
    },

    async insertRollout(
      row: typeof firmwareRollouts.$inferInsert,
      targets: Array<Omit<typeof firmwareRolloutTargets.$inferInsert, 'rolloutId'>>,
    ): Promise<RolloutRow> {
      return db.transaction(async (tx) => {
        const [made] = await tx.insert(firmwareRollouts).values(row).returning();
        await tx.insert(firmwareRolloutTargets).values(targets.map((t) => ({ ...t, rolloutId: made!.id })));
        return made!;
      });
    },

    async rollout(id: bigint): Promise<RolloutRow | undefined> {
      const [row] = await db.select().from(firmwareRollouts).where(eq(firmwareRollouts.id, id));
      return row;
    },

    async rollouts(limit: number): Promise<RolloutRow[]> {
      return db.select().from(firmwareRollouts).orderBy(desc(firmwareRollouts.id)).limit(limit);
    },

    async targets(rolloutId: bigint): Promise<RolloutTargetRow[]> {
      return db
        .select()
        .from(firmwareRolloutTargets)
        .where(eq(firmwareRolloutTargets.rolloutId, rolloutId))
        .orderBy(asc(firmwareRolloutTargets.wave), asc(firmwareRolloutTargets.mac));
    },

    /** Target counts per state for each rollout given. */
    async countsAnyTenant(rolloutIds: bigint[]) {
      if (rolloutIds.length === 0) return [];
      return db
        .select({ rolloutId: firmwareRolloutTargets.rolloutId, state: firmwareRolloutTargets.state, n: sql<number>`count(*)::int` })
        .from(firmwareRolloutTargets)
        .where(inArray(firmwareRolloutTargets.rolloutId, rolloutIds))
        .groupBy(firmwareRolloutTargets.rolloutId, firmwareRolloutTargets.state);
    },

    /** The names, owners and models shown beside each target. */
    async targetGatewaysAnyTenant(ids: bigint[]) {
      if (ids.length === 0) return [];
      return db
        .select({
          id: gateways.id,
          name: gateways.name,
          tenant: sql<string>`coalesce(${users.account}, '')`,
          model: sql<string>`coalesce(${gateways.info}->>'model', '')`,
          timezone: gateways.timezone,
          online: gateways.online,
          fwUpdateId: gateways.fwUpdateId,
          fwResult: gateways.fwResult,
        })
        .from(gateways)
        .leftJoin(users, eq(users.id, gateways.tenantId))
        .where(inArray(gateways.id, ids));
    },

    /**
     * Changes a rollout's state from one of `from`; answers the row after it, or undefined when it was not in
     * one of them (another call or node moved it first).
     */
    async moveRollout(
      id: bigint,
      from: RolloutState[],
      change: Partial<Pick<RolloutRow, 'state' | 'pauseReason' | 'currentWave' | 'finishedAt'>> & { updatedAt: Date },
    ): Promise<RolloutRow | undefined> {
      const [row] = await db
        .update(firmwareRollouts)
        .set(change)
        .where(and(eq(firmwareRollouts.id, id), inArray(firmwareRollouts.state, from)))
        .returning();
      return row;
    },

    /**
     * Moves a rollout from one of `from` to `state` and starts a new chain of steps (raises `step`, so the old
     * chain's next job finds itself outdated); answers the row after it, or undefined when it was not in `from`.
     */
    async restartRollout(
      id: bigint,
      from: RolloutState[],
      change: Pick<RolloutRow, 'state'> & Partial<Pick<RolloutRow, 'pauseReason' | 'finishedAt' | 'acceptedWave'>> & { updatedAt: Date },
    ): Promise<RolloutRow | undefined> {
      const [row] = await db
        .update(firmwareRollouts)
        .set({ ...change, step: sql`${firmwareRollouts.step} + 1` })
        .where(and(eq(firmwareRollouts.id, id), inArray(firmwareRollouts.state, from)))
        .returning();
      return row;
    },

    /** Raises the step from `step` to `step + 1`; answers false when another run did it already. */
    async advanceStep(id: bigint, step: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(firmwareRollouts)
        .set({ step: step + 1, updatedAt: at })
        .where(and(eq(firmwareRollouts.id, id), eq(firmwareRollouts.step, step)))
        .returning({ id: firmwareRollouts.id });
      return rows.length > 0;
    },

    /** Moves one target on, only from the state the caller saw (a second run of the same step changes nothing). */
    async moveTarget(
      rolloutId: bigint,
      mac: string,
      from: RolloutTargetState,
      change: Partial<Pick<RolloutTargetRow, 'state' | 'updateId' | 'errorCode' | 'startedAt' | 'finishedAt'>>,
    ): Promise<boolean> {
      const rows = await db
        .update(firmwareRolloutTargets)
        .set(change)
        .where(
          and(eq(firmwareRolloutTargets.rolloutId, rolloutId), eq(firmwareRolloutTargets.mac, mac), eq(firmwareRolloutTargets.state, from)),
        )
        .returning({ mac: firmwareRolloutTargets.mac });
      return rows.length > 0;
    },

    /** The firmware update each of these gateways runs or ran last (gateways.fw_*), by MAC. */
    async firmwareOfAnyTenant(macs: string[]) {
      if (macs.length === 0) return [];
      return db
        .select({
          mac: gateways.mac,
          fwUpdateId: gateways.fwUpdateId,
          fwVersion: gateways.fwVersion,
          fwResult: gateways.fwResult,
          timezone: gateways.timezone,
        })
        .from(gateways)
        .where(inArray(gateways.mac, macs));
    },
  };
}

export type PlatformRepo = ReturnType<typeof createPlatformRepo>;
