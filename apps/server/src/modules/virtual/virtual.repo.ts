import type { DeviceParams, ParamClass, SceneAction } from '@lumigrid/contract';
import { and, asc, count, eq, inArray, isNotNull, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  deviceParamTemplates,
  groupDevices,
  groups,
  paramTemplates,
  sceneMembers,
  scenes,
  virtualDevices,
  virtualGroupMembers,
  virtualSceneMembers,
  type RelationHandover,
} from '../../db/schema/index.ts';
import { devicesAnyTenant } from '../devices/devices.repo.ts';
import { gatewaysAnyTenant } from '../gateways/gateways.repo.ts';
import { mapPlaces } from '../projects/maps.repo.ts';

/** Devices, gateways and maps, read through their owners' subqueries. */
const device = devicesAnyTenant();
const gateway = gatewaysAnyTenant();
const map = mapPlaces();

/** What the virtual device screens show of a gateway. */
const gatewayFacts = { id: gateway.id, name: gateway.name, mac: gateway.mac, online: gateway.online, mapId: gateway.mapId };

export type TemplateRow = typeof paramTemplates.$inferSelect;
export type TemplateUsage = TemplateRow & { virtualDevices: number; devices: number };
export type VirtualRow = typeof virtualDevices.$inferSelect & { gatewayName: string; relatedName: string | null };

/** The virtual devices a tenant sees: its own, on gateways still bound to it (an unbound gateway takes its stand-ins out of sight). */
const ownVirtual = (tenantId: bigint) =>
  and(
    eq(virtualDevices.tenantId, tenantId),
    sql`exists (select 1 from ${gateway} where ${gateway.id} = ${virtualDevices.gatewayId} and ${gateway.tenantId} = ${tenantId})`,
  );

/**
 * Queries of parameter templates and virtual devices. It writes only its own tables; devices, groups and
 * scenes are read here for facts and changed through their services.
 */
export function createVirtualRepo(db: Db) {
  const virtualSelect = () =>
    db
      .select({
        virtual: virtualDevices,
        gatewayName: gateway.name,
        relatedName: device.name,
      })
      .from(virtualDevices)
      .innerJoin(gateway, eq(gateway.id, virtualDevices.gatewayId))
      .leftJoin(device, eq(device.id, virtualDevices.relatedDeviceId));

  const flatten = (
    rows: Array<{ virtual: typeof virtualDevices.$inferSelect; gatewayName: string; relatedName: string | null }>,
  ): VirtualRow[] => rows.map((r) => ({ ...r.virtual, gatewayName: r.gatewayName, relatedName: r.relatedName }));

  return {
    // --- templates ---

    async templates(q: { tenantId: bigint; type?: number; kind?: ParamClass; ids?: bigint[] }): Promise<TemplateUsage[]> {
      const where: SQL[] = [eq(paramTemplates.tenantId, q.tenantId)];
      if (q.type) where.push(eq(paramTemplates.deviceType, q.type));
      if (q.kind) where.push(eq(paramTemplates.kind, q.kind));
      if (q.ids) where.push(inArray(paramTemplates.id, q.ids.length ? q.ids : [0n]));
      const rows = await db
        .select({
          template: paramTemplates,
          virtualDevices: sql<number>`(select count(*)::int from ${virtualDevices} where (${virtualDevices.functionTemplateId} = ${paramTemplates.id} or ${virtualDevices.interfaceTemplateId} = ${paramTemplates.id}) and exists (select 1 from ${gateway} where ${gateway.id} = ${virtualDevices.gatewayId} and ${gateway.tenantId} = ${q.tenantId}))`,
          devices: sql<number>`(select count(*)::int from ${deviceParamTemplates} where ${deviceParamTemplates.templateId} = ${paramTemplates.id})`,
        })
        .from(paramTemplates)
        .where(and(...where))
        .orderBy(asc(paramTemplates.deviceType), asc(paramTemplates.name));
      return rows.map((r) => ({ ...r.template, virtualDevices: Number(r.virtualDevices), devices: Number(r.devices) }));
    },

    async countTemplates({ tenantId }: { tenantId: bigint }): Promise<number> {
      const [row] = await db.select({ n: count() }).from(paramTemplates).where(eq(paramTemplates.tenantId, tenantId));
      return Number(row?.n ?? 0);
    },

    async insertTemplate(row: {
      tenantId: bigint;
      name: string;
      kind: ParamClass;
      deviceType: number;
      params: DeviceParams;
    }): Promise<bigint> {
      const [created] = await db.insert(paramTemplates).values(row).returning({ id: paramTemplates.id });
      return created!.id;
    },

    async updateTemplate(q: { tenantId: bigint; id: bigint; name?: string; params?: DeviceParams }): Promise<void> {
      await db
        .update(paramTemplates)
        .set({
          ...(q.name === undefined ? {} : { name: q.name }),
          ...(q.params === undefined ? {} : { params: q.params }),
          updatedAt: new Date(),
        })
        .where(and(eq(paramTemplates.tenantId, q.tenantId), eq(paramTemplates.id, q.id)));
    },

    /** Virtual devices of gateways no longer the tenant's: out of sight, they must not keep a template linked. */
    async dropOrphans({ tenantId }: { tenantId: bigint }): Promise<void> {
      await db.delete(virtualDevices).where(
        and(
          eq(virtualDevices.tenantId, tenantId),
          notExists(
            db
              .select({ one: sql`1` })
              .from(gateway)
              .where(and(eq(gateway.id, virtualDevices.gatewayId), eq(gateway.tenantId, tenantId))),
          ),
        ),
      );
    },

    async removeTemplate({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<void> {
      await db.delete(paramTemplates).where(and(eq(paramTemplates.tenantId, tenantId), eq(paramTemplates.id, id)));
    },

    /** Remembers the template a device took (one per class). */
    async linkDeviceTemplate(q: { deviceId: bigint; kind: ParamClass; templateId: bigint }): Promise<void> {
      await db
        .insert(deviceParamTemplates)
        .values({ ...q, appliedAt: new Date() })
        .onConflictDoUpdate({
          target: [deviceParamTemplates.deviceId, deviceParamTemplates.kind],
          set: { templateId: q.templateId, appliedAt: new Date() },
        });
    },

    async unlinkDeviceTemplate(q: { deviceId: bigint; kind: ParamClass }): Promise<void> {
      await db
        .delete(deviceParamTemplates)
        .where(and(eq(deviceParamTemplates.deviceId, q.deviceId), eq(deviceParamTemplates.kind, q.kind)));
    },

    async deviceTemplates({ deviceId }: { deviceId: bigint }): Promise<Partial<Record<ParamClass, bigint>>> {
      const rows = await db.select().from(deviceParamTemplates).where(eq(deviceParamTemplates.deviceId, deviceId));
      return Object.fromEntries(rows.map((r) => [r.kind, r.templateId]));
    },

    // --- facts of other domains (read only) ---

    /** Devices of the tenant (on the visible maps when given): what apply and relation need. */
    async deviceFacts(q: { tenantId: bigint; ids: bigint[]; mapIds?: bigint[] }) {
      if (q.ids.length === 0) return [];
      const where: SQL[] = [eq(device.tenantId, q.tenantId), inArray(device.id, q.ids)];
      if (q.mapIds) where.push(inArray(device.mapId, q.mapIds.length ? q.mapIds : [0n]));
      return db
        .select({
          id: device.id,
          name: device.name,
          type: device.type,
          addr: device.addr,
          gatewayId: device.gatewayId,
          mapId: device.mapId,
          x: device.x,
          y: device.y,
        })
        .from(device)
        .where(and(...where));
    },

    /** Devices of a gateway and type that no virtual device stands for. */
    async relationCandidates(q: { tenantId: bigint; gatewayId: bigint; type: number; mapIds?: bigint[] }) {
      const where: SQL[] = [
        eq(device.tenantId, q.tenantId),
        eq(device.gatewayId, q.gatewayId),
        eq(device.type, q.type),
        notExists(
          db
            .select({ one: sql`1` })
            .from(virtualDevices)
            .where(eq(virtualDevices.relatedDeviceId, device.id)),
        ),
      ];
      if (q.mapIds) where.push(or(isNull(device.mapId), inArray(device.mapId, q.mapIds.length ? q.mapIds : [0n]))!);
      return db
        .select({ id: device.id, name: device.name, type: device.type, addr: device.addr, mapId: device.mapId })
        .from(device)
        .where(and(...where))
        .orderBy(asc(device.name), asc(device.id));
    },

    async groupIdsOf({ deviceId }: { deviceId: bigint }): Promise<bigint[]> {
      const rows = await db.select({ id: groupDevices.groupId }).from(groupDevices).where(eq(groupDevices.deviceId, deviceId));
      return rows.map((r) => r.id);
    },

    async sceneIdsOf({ deviceId }: { deviceId: bigint }): Promise<bigint[]> {
      const rows = await db.selectDistinct({ id: sceneMembers.sceneId }).from(sceneMembers).where(eq(sceneMembers.deviceId, deviceId));
      return rows.map((r) => r.id);
    },

    async gateway({ tenantId, id }: { tenantId: bigint; id: bigint }) {
      const [row] = await db
        .select({
          ...gatewayFacts,
          projectId: map.projectId,
        })
        .from(gateway)
        .innerJoin(map, eq(map.id, gateway.mapId))
        .where(and(eq(gateway.tenantId, tenantId), eq(gateway.id, id)))
        .limit(1);
      return row;
    },

    /** The gateways standing on maps of a project, with how many virtual devices of one map each holds. */
    async projectGateways(q: { tenantId: bigint; projectId: bigint; mapId: bigint }) {
      return db
        .select({
          ...gatewayFacts,
          virtualDevices: sql<number>`(select count(*)::int from ${virtualDevices} where ${virtualDevices.gatewayId} = ${gateway.id} and ${virtualDevices.mapId} = ${q.mapId})`,
        })
        .from(gateway)
        .innerJoin(map, eq(map.id, gateway.mapId))
        .where(and(eq(gateway.tenantId, q.tenantId), eq(map.projectId, q.projectId)))
        .orderBy(asc(gateway.name), asc(gateway.id));
    },

    async groupFacts({ tenantId, ids }: { tenantId: bigint; ids: bigint[] }) {
      if (ids.length === 0) return [];
      return db
        .select({ id: groups.id, name: groups.name, gatewayId: groups.gatewayId, mapId: groups.mapId })
        .from(groups)
        .where(and(eq(groups.tenantId, tenantId), inArray(groups.id, ids)));
    },

    async sceneFacts({ tenantId, ids }: { tenantId: bigint; ids: bigint[] }) {
      if (ids.length === 0) return [];
      return db
        .select({ id: scenes.id, name: scenes.name, projectId: scenes.projectId, steps: sql<number>`jsonb_array_length(${scenes.holds})` })
        .from(scenes)
        .where(and(eq(scenes.tenantId, tenantId), inArray(scenes.id, ids)));
    },

    // --- virtual devices ---

    async virtuals(q: {
      tenantId: bigint;
      ids?: bigint[];
      mapId?: bigint;
      gatewayId?: bigint;
      related?: boolean;
      mapIds?: bigint[];
    }): Promise<VirtualRow[]> {
      const where: SQL[] = [ownVirtual(q.tenantId)!];
      if (q.ids) where.push(inArray(virtualDevices.id, q.ids.length ? q.ids : [0n]));
      if (q.mapId !== undefined) where.push(eq(virtualDevices.mapId, q.mapId));
      if (q.gatewayId !== undefined) where.push(eq(virtualDevices.gatewayId, q.gatewayId));
      if (q.related !== undefined)
        where.push(q.related ? isNotNull(virtualDevices.relatedDeviceId) : isNull(virtualDevices.relatedDeviceId));
      if (q.mapIds) where.push(inArray(virtualDevices.mapId, q.mapIds.length ? q.mapIds : [0n]));
      return flatten(
        await virtualSelect()
          .where(and(...where))
          .orderBy(asc(virtualDevices.name), asc(virtualDevices.id)),
      );
    },

    async virtualOfDevice({ tenantId, deviceId }: { tenantId: bigint; deviceId: bigint }): Promise<VirtualRow | undefined> {
      const [row] = flatten(
        await virtualSelect()
          .where(and(eq(virtualDevices.tenantId, tenantId), eq(virtualDevices.relatedDeviceId, deviceId)))
          .limit(1),
      );
      return row;
    },

    async groupsOf({ virtualIds }: { virtualIds: bigint[] }) {
      if (virtualIds.length === 0) return [];
      return db
        .select({ virtualId: virtualGroupMembers.virtualId, id: groups.id, name: groups.name })
        .from(virtualGroupMembers)
        .innerJoin(groups, eq(groups.id, virtualGroupMembers.groupId))
        .where(inArray(virtualGroupMembers.virtualId, virtualIds))
        .orderBy(asc(groups.name));
    },

    async scenesOf({ virtualIds }: { virtualIds: bigint[] }) {
      if (virtualIds.length === 0) return [];
      return db
        .select({
          virtualId: virtualSceneMembers.virtualId,
          sceneId: virtualSceneMembers.sceneId,
          step: virtualSceneMembers.step,
          action: virtualSceneMembers.action,
          name: scenes.name,
        })
        .from(virtualSceneMembers)
        .innerJoin(scenes, eq(scenes.id, virtualSceneMembers.sceneId))
        .where(inArray(virtualSceneMembers.virtualId, virtualIds))
        .orderBy(asc(scenes.name));
    },

    async countOnMap({ mapId }: { mapId: bigint }): Promise<number> {
      const [row] = await db.select({ n: count() }).from(virtualDevices).where(eq(virtualDevices.mapId, mapId));
      return Number(row?.n ?? 0);
    },

    async insertVirtuals(rows: Array<typeof virtualDevices.$inferInsert>): Promise<bigint[]> {
      const created = await db.insert(virtualDevices).values(rows).returning({ id: virtualDevices.id });
      return created.map((r) => r.id);
    },

    async updateVirtual(q: {
      tenantId: bigint;
      id: bigint;
      set: Partial<Pick<typeof virtualDevices.$inferInsert, 'name' | 'x' | 'y' | 'functionTemplateId' | 'interfaceTemplateId'>>;
      groupIds?: bigint[];
      scenes?: Array<{ sceneId: bigint; step: number; action: SceneAction }>;
    }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(virtualDevices)
          .set({ ...q.set, updatedAt: new Date() })
          .where(and(eq(virtualDevices.tenantId, q.tenantId), eq(virtualDevices.id, q.id)));
        if (q.groupIds) {
          await tx.delete(virtualGroupMembers).where(eq(virtualGroupMembers.virtualId, q.id));
          if (q.groupIds.length) await tx.insert(virtualGroupMembers).values(q.groupIds.map((groupId) => ({ virtualId: q.id, groupId })));
        }
        if (q.scenes) {
          await tx.delete(virtualSceneMembers).where(eq(virtualSceneMembers.virtualId, q.id));
          if (q.scenes.length) await tx.insert(virtualSceneMembers).values(q.scenes.map((s) => ({ virtualId: q.id, ...s })));
        }
      });
    },

    async removeVirtual({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<void> {
      await db.delete(virtualDevices).where(and(eq(virtualDevices.tenantId, tenantId), eq(virtualDevices.id, id)));
    },

    /** Records or ends a relation (deviceId null). */
    async setRelation(q: { tenantId: bigint; id: bigint; deviceId: bigint | null; handover: RelationHandover | null }): Promise<void> {
      await db
        .update(virtualDevices)
        .set({
          relatedDeviceId: q.deviceId,
          relatedAt: q.deviceId === null ? null : new Date(),
          handover: q.handover,
          updatedAt: new Date(),
        })
        .where(and(eq(virtualDevices.tenantId, q.tenantId), eq(virtualDevices.id, q.id)));
    },
  };
}
export type VirtualRepo = ReturnType<typeof createVirtualRepo>;
