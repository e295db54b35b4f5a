import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { energyDeviceHours, libraryTypes } from '../../db/schema/index.ts';
import { devicesAnyTenant } from '../devices/devices.repo.ts';

export type LibraryTypeRow = typeof libraryTypes.$inferSelect;
export type LibraryTypeValues = Pick<LibraryTypeRow, 'name' | 'type' | 'initialPower' | 'lifespan' | 'partNumber'>;

/** A library row with how many of the account's devices carry its part number. */
export type LibraryTypeWithCount = LibraryTypeRow & { devices: number };

/** The queries of the device library; every one takes the tenant. */
export function createLibraryRepo(db: Db) {
  const mine = (tenantId: bigint, id: bigint) => and(eq(libraryTypes.tenantId, tenantId), eq(libraryTypes.id, id));
  // Written out: drizzle may render the outer columns unqualified, which the inner alias would capture.
  const deviceCount = sql<number>`(select count(*)::int from ${devicesAnyTenant()} where d.tenant_id = "library_types"."tenant_id" and upper(trim(d.model)) = "library_types"."part_number")`;

  return {
    async list({ tenantId }: { tenantId: bigint }): Promise<LibraryTypeWithCount[]> {
      return db
        .select({ ...libraryColumns(), devices: deviceCount })
        .from(libraryTypes)
        .where(eq(libraryTypes.tenantId, tenantId))
        .orderBy(asc(libraryTypes.name), asc(libraryTypes.id));
    },

    async find({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<LibraryTypeWithCount | undefined> {
      const [row] = await db
        .select({ ...libraryColumns(), devices: deviceCount })
        .from(libraryTypes)
        .where(mine(tenantId, id));
      return row;
    },

    async count({ tenantId }: { tenantId: bigint }): Promise<number> {
      const [row] = await db.select({ n: count() }).from(libraryTypes).where(eq(libraryTypes.tenantId, tenantId));
      return row?.n ?? 0;
    },

    /** Whether another type of the account has the name or the part number. */
    async clash(q: { tenantId: bigint; name: string; partNumber: string; except?: bigint }): Promise<'name' | 'partNumber' | undefined> {
      const others = and(eq(libraryTypes.tenantId, q.tenantId), q.except === undefined ? undefined : ne(libraryTypes.id, q.except));
      const [byName] = await db
        .select({ id: libraryTypes.id })
        .from(libraryTypes)
        .where(and(others, eq(libraryTypes.name, q.name)));
      if (byName) return 'name';
      const [byPart] = await db
        .select({ id: libraryTypes.id })
        .from(libraryTypes)
        .where(and(others, eq(libraryTypes.partNumber, q.partNumber)));
      return byPart ? 'partNumber' : undefined;
    },

    async insert(values: LibraryTypeValues & { tenantId: bigint }): Promise<LibraryTypeRow> {
      const [row] = await db.insert(libraryTypes).values(values).returning();
      return row!;
    },

    async update({
      tenantId,
      id,
      values,
    }: {
      tenantId: bigint;
      id: bigint;
      values: Partial<LibraryTypeValues & Pick<LibraryTypeRow, 'icon'>>;
    }) {
      const [row] = await db.update(libraryTypes).set(values).where(mine(tenantId, id)).returning();
      return row;
    },

    /**
     * Deletes a type unless a device of the account carries its part number, in one statement, so a device
     * imported meanwhile cannot be left without its type. Answers the row deleted, 'used', or undefined.
     */
    async removeUnused({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<LibraryTypeRow | 'used' | undefined> {
      const [gone] = await db
        .delete(libraryTypes)
        .where(
          and(
            mine(tenantId, id),
            sql`not exists (select 1 from ${devicesAnyTenant()} where d.tenant_id = ${tenantId} and upper(trim(d.model)) = "library_types"."part_number")`,
          ),
        )
        .returning();
      if (gone) return gone;
      return (await this.find({ tenantId, id })) ? 'used' : undefined;
    },

    /**
     * The library type and burning hours of each device: the type its part number matches, and the hours it
     * was switched on as its energy readings counted them (null before any).
     */
    async lifeOf({ tenantId, deviceIds }: { tenantId: bigint; deviceIds: bigint[] }) {
      if (deviceIds.length === 0) return [];
      const burned = db
        .select({ deviceId: energyDeviceHours.deviceId, onS: sql<number>`sum(${energyDeviceHours.onS})`.as('on_s') })
        .from(energyDeviceHours)
        .where(and(eq(energyDeviceHours.tenantId, tenantId), inArray(energyDeviceHours.deviceId, deviceIds)))
        .groupBy(energyDeviceHours.deviceId)
        .as('burned');
      const device = devicesAnyTenant();
      // The part number a device carries, as the library stores part numbers.
      const partNumber = sql<string>`upper(trim(${device.model}))`;
      return db
        .select({
          deviceId: device.id,
          typeName: libraryTypes.name,
          lifespan: libraryTypes.lifespan,
          onS: burned.onS,
        })
        .from(device)
        .leftJoin(libraryTypes, and(eq(libraryTypes.tenantId, device.tenantId), eq(libraryTypes.partNumber, partNumber)))
        .leftJoin(burned, eq(burned.deviceId, device.id))
        .where(and(eq(device.tenantId, tenantId), inArray(device.id, deviceIds)));
    },
  };
}

function libraryColumns() {
  return {
    id: libraryTypes.id,
    tenantId: libraryTypes.tenantId,
    name: libraryTypes.name,
    type: libraryTypes.type,
    icon: libraryTypes.icon,
    initialPower: libraryTypes.initialPower,
    lifespan: libraryTypes.lifespan,
    partNumber: libraryTypes.partNumber,
    createdAt: libraryTypes.createdAt,
  };
}

export type LibraryRepo = ReturnType<typeof createLibraryRepo>;
