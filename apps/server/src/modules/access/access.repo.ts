import type { ResourceKind } from '@lumigrid/contract';
import { and, eq, inArray, type SQL, type Subquery } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { OwnedReads } from '../../db/owned-reads.ts';
import {
  buildings,
  emergencyTasks,
  groups,
  libraryTypes,
  mailRecipients,
  paramTemplates,
  projects,
  pushApps,
  pushNews,
  scenes,
  virtualDevices,
} from '../../db/schema/index.ts';

/**
 * Where an object of each kind lives: its table, its id and account columns, and what limits a sub-account
 * given some projects: the object's project, its map (an object on no map is hidden from it), or nothing
 * (account-wide objects such as library types).
 */
interface ResourceTable {
  table: PgTable | Subquery;
  id: AnyPgColumn;
  tenantId: AnyPgColumn;
  scope?: { by: 'project' | 'map'; column: AnyPgColumn };
}

const byProject = (column: AnyPgColumn) => ({ by: 'project', column }) as const;
const byMap = (column: AnyPgColumn) => ({ by: 'map', column }) as const;

/** Maps, gateways and devices are read through their owners' subqueries: their owners call this module. */
function resourcesOf(reads: OwnedReads): Record<ResourceKind, ResourceTable> {
  const map = reads.maps('m');
  const gateway = reads.gateways('gw');
  const device = reads.devices('d');
  return {
    project: { table: projects, id: projects.id, tenantId: projects.tenantId, scope: byProject(projects.id) },
    building: { table: buildings, id: buildings.id, tenantId: buildings.tenantId, scope: byProject(buildings.projectId) },
    map: { table: map, id: map.id, tenantId: map.tenantId, scope: byMap(map.id) },
    gateway: { table: gateway, id: gateway.id, tenantId: gateway.tenantId, scope: byMap(gateway.mapId) },
    device: { table: device, id: device.id, tenantId: device.tenantId, scope: byMap(device.mapId) },
    group: { table: groups, id: groups.id, tenantId: groups.tenantId, scope: byMap(groups.mapId) },
    scene: { table: scenes, id: scenes.id, tenantId: scenes.tenantId, scope: byProject(scenes.projectId) },
    virtualDevice: { table: virtualDevices, id: virtualDevices.id, tenantId: virtualDevices.tenantId, scope: byMap(virtualDevices.mapId) },
    paramTemplate: { table: paramTemplates, id: paramTemplates.id, tenantId: paramTemplates.tenantId },
    libraryType: { table: libraryTypes, id: libraryTypes.id, tenantId: libraryTypes.tenantId },
    emergencyTask: {
      table: emergencyTasks,
      id: emergencyTasks.id,
      tenantId: emergencyTasks.tenantId,
      scope: byProject(emergencyTasks.projectId),
    },
    recipient: {
      table: mailRecipients,
      id: mailRecipients.id,
      tenantId: mailRecipients.tenantId,
      scope: byProject(mailRecipients.projectId),
    },
    pushApp: { table: pushApps, id: pushApps.id, tenantId: pushApps.tenantId },
    pushNews: { table: pushNews, id: pushNews.id, tenantId: pushNews.tenantId },
  };
}

/** The projects and maps a limited sub-account is given; absent for a caller who sees the whole account. */
export interface ScopeIds {
  projectIds: readonly bigint[];
  mapIds: readonly bigint[];
}

/**
 * The access module's queries: one bulk query per kind answers which ids of a set are the account's and in
 * the caller's scope. It reads every domain's table by design (the core ones through `reads`); it only ever
 * selects ids.
 */
export function createAccessRepo(db: Db, reads: OwnedReads) {
  const resources = resourcesOf(reads);
  return {
    async allowedIds(kind: ResourceKind, q: { tenantId: bigint; ids: readonly bigint[]; scope?: ScopeIds }): Promise<bigint[]> {
      if (q.ids.length === 0) return [];
      const resource = resources[kind];
      const where: SQL[] = [eq(resource.tenantId, q.tenantId), inArray(resource.id, [...q.ids])];
      if (resource.scope && q.scope) {
        const within = resource.scope.by === 'project' ? q.scope.projectIds : q.scope.mapIds;
        // inArray of nothing is false: a sub-account given no map sees nothing that stands on a map.
        where.push(inArray(resource.scope.column, [...within]));
      }
      const rows = (await db
        .select({ id: resource.id })
        .from(resource.table)
        .where(and(...where))) as Array<{ id: bigint }>;
      return rows.map((row) => row.id);
    },
  };
}
export type AccessRepo = ReturnType<typeof createAccessRepo>;
