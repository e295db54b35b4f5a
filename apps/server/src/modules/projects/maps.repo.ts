import { and, asc, count, eq, getTableColumns, ilike, inArray, gte, isNull, lt, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { buildings, mapImages, maps, projects } from '../../db/schema/index.ts';
import type { StatsPlace } from './project-access.ts';
import { likePattern } from './projects.repo.ts';
import { placeLevelQueries } from './place-level.ts';

export type MapImageRow = typeof mapImages.$inferSelect;
/** A map with its floor plan's file and size (null without one). */
export type MapRow = typeof maps.$inferSelect & {
  imageFile: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
};

const mapColumns = {
  ...getTableColumns(maps),
  imageFile: mapImages.file,
  imageWidth: mapImages.width,
  imageHeight: mapImages.height,
};

/** Queries on maps and their floor plans; every query filters by the tenant. */
export function createMapsRepo(db: Db) {
  const unused = sql`not exists (select 1 from ${maps} m where m.image_id = ${mapImages}.id)`;
  const mapLevel = placeLevelQueries(db, maps);
  const selectMaps = () => db.select(mapColumns).from(maps).leftJoin(mapImages, eq(mapImages.id, maps.imageId));

  return {
    /** Whose a map is, for events that know only the map (webhooks' device events); crosses accounts. */
    async placeAnyTenant({ id }: { id: bigint }): Promise<{ tenantId: bigint; projectId: bigint } | undefined> {
      const [row] = await db.select({ tenantId: maps.tenantId, projectId: maps.projectId }).from(maps).where(eq(maps.id, id));
      return row;
    },

    async findMap({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<MapRow | undefined> {
      const [row] = await selectMaps()
        .where(and(eq(maps.tenantId, tenantId), eq(maps.id, id)))
        .limit(1);
      return row;
    },

    findDefaultMap: mapLevel.findDefault,

    /** The maps of some buildings (or of every building of the tenant): one query for a whole tree level. */
    async mapsOf({ tenantId, buildIds }: { tenantId: bigint; buildIds?: bigint[] }): Promise<MapRow[]> {
      if (buildIds && buildIds.length === 0) return [];
      return selectMaps()
        .where(and(eq(maps.tenantId, tenantId), buildIds ? inArray(maps.buildId, buildIds) : undefined))
        .orderBy(asc(maps.id));
    },

    async searchMaps(q: {
      tenantId: bigint;
      /** The projects a limited sub-account sees; every project of the tenant when absent. */
      projectIds?: bigint[];
      text?: string;
      projectId?: bigint;
      buildId?: bigint;
      offset: number;
      limit: number;
    }) {
      const where = and(
        eq(maps.tenantId, q.tenantId),
        q.projectIds !== undefined ? inArray(maps.projectId, q.projectIds) : undefined,
        q.text ? ilike(maps.name, likePattern(q.text)) : undefined,
        q.projectId !== undefined ? eq(maps.projectId, q.projectId) : undefined,
        q.buildId !== undefined ? eq(maps.buildId, q.buildId) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(maps).where(where);
      const rows = await db
        .select({ ...mapColumns, projectName: projects.name, buildName: buildings.name })
        .from(maps)
        .leftJoin(mapImages, eq(mapImages.id, maps.imageId))
        .innerJoin(projects, eq(projects.id, maps.projectId))
        .innerJoin(buildings, eq(buildings.id, maps.buildId))
        .where(where)
        .orderBy(asc(maps.id))
        .offset(q.offset)
        .limit(q.limit);
      return { total: total?.n ?? 0, rows };
    },

    /** Inserts a map; answers undefined when a unique index refused it (name, default or image taken). */
    async insertMap(values: typeof maps.$inferInsert) {
      const [row] = await db.insert(maps).values(values).onConflictDoNothing().returning({ id: maps.id });
      return row;
    },

    updateMap: (q: {
      tenantId: bigint;
      id: bigint;
      set: Partial<Pick<typeof maps.$inferInsert, 'name' | 'opacity' | 'imageId' | 'buildId' | 'projectId'>>;
    }) => mapLevel.update(q),

    async deleteMap({ tenantId, id }: { tenantId: bigint; id: bigint }) {
      const rows = await db
        .delete(maps)
        .where(and(eq(maps.tenantId, tenantId), eq(maps.id, id), eq(maps.isDefault, false)))
        .returning({ id: maps.id, imageId: maps.imageId });
      return rows[0];
    },

    async insertImage(values: typeof mapImages.$inferInsert): Promise<MapImageRow> {
      const [row] = await db.insert(mapImages).values(values).returning();
      return row!;
    },

    /** An uploaded floor plan of the tenant not yet used by another map (for add and update). */
    async findFreeImage({ tenantId, file, mapId }: { tenantId: bigint; file: string; mapId?: bigint }): Promise<MapImageRow | undefined> {
      const [row] = await db
        .select(getTableColumns(mapImages))
        .from(mapImages)
        .leftJoin(maps, eq(maps.imageId, mapImages.id))
        .where(
          and(
            eq(mapImages.tenantId, tenantId),
            eq(mapImages.file, file),
            eq(mapImages.state, 'ready'),
            mapId === undefined ? isNull(maps.id) : sql`(${maps.id} is null or ${maps.id} = ${mapId})`,
          ),
        )
        .limit(1);
      return row;
    },

    /** A floor plan by its file name, for serving. The name is the secret (128 random bits). */
    /** Finishes a slow upload: its size once drawn, or 'failed' or 'too-heavy'. */
    async finishImage(q: { id: bigint; set: Partial<Pick<typeof mapImages.$inferInsert, 'state' | 'width' | 'height' | 'size'>> }) {
      const [row] = await db.update(mapImages).set(q.set).where(eq(mapImages.id, q.id)).returning();
      return row;
    },

    /** The map a stored plan is on, if any. */
    async mapShowing({ tenantId, imageId }: { tenantId: bigint; imageId: bigint }) {
      const [row] = await db
        .select({ id: maps.id })
        .from(maps)
        .where(and(eq(maps.tenantId, tenantId), eq(maps.imageId, imageId)))
        .limit(1);
      return row;
    },

    async findImageByFile({ file }: { file: string }): Promise<MapImageRow | undefined> {
      const [row] = await db.select().from(mapImages).where(eq(mapImages.file, file)).limit(1);
      return row;
    },

    async deleteImage({ tenantId, id }: { tenantId: bigint; id: bigint }): Promise<string | undefined> {
      const [row] = await db
        .delete(mapImages)
        .where(and(eq(mapImages.tenantId, tenantId), eq(mapImages.id, id)))
        .returning({ file: mapImages.file });
      return row?.file;
    },

    /** How many uploads of the tenant made since `since` no map uses yet (the upload quota). */
    async countUnusedImages({ tenantId, since }: { tenantId: bigint; since: Date }): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(mapImages)
        .where(and(eq(mapImages.tenantId, tenantId), gte(mapImages.createdAt, since), unused));
      return row?.n ?? 0;
    },

    /** Removes every account's uploads older than `before` that no map uses; answers their files. */
    async sweepUnusedImagesAnyTenant({ before }: { before: Date }): Promise<string[]> {
      const rows = await db
        .delete(mapImages)
        .where(and(lt(mapImages.createdAt, before), unused))
        .returning({ file: mapImages.file });
      return rows.map((r) => r.file);
    },
  };
}

export type MapsRepo = ReturnType<typeof createMapsRepo>;

const placeColumns = {
  id: maps.id,
  tenantId: maps.tenantId,
  name: maps.name,
  buildId: maps.buildId,
  projectId: maps.projectId,
  imageId: maps.imageId,
};

/**
 * Every account's maps with their place, as a subquery named `alias` (columns id, tenant_id, name, build_id,
 * project_id, image_id) that another domain joins on its own rows' map id, in drizzle or in SQL text.
 */
export function mapPlaces(alias = 'm') {
  return new QueryBuilder().select(placeColumns).from(maps).as(alias);
}

/** The ids of the account's maps in a project's buildings, as a subquery (`inArray(column, mapIdsOfProject(...))`). */
export function mapIdsOfProject(q: { tenantId: bigint; projectId: bigint }) {
  return new QueryBuilder()
    .select({ id: maps.id })
    .from(maps)
    .innerJoin(buildings, eq(buildings.id, maps.buildId))
    .where(and(eq(buildings.tenantId, q.tenantId), eq(buildings.projectId, q.projectId)));
}

/** The account's maps a statistics read takes (a project's, a building's or one map, within what the caller sees), as `mapPlaces`. */
export function mapsOfPlace(p: StatsPlace, alias = 'm') {
  return new QueryBuilder()
    .select(placeColumns)
    .from(maps)
    .where(
      and(
        eq(maps.tenantId, p.tenantId),
        eq(maps.projectId, p.projectId),
        p.buildId === undefined ? undefined : eq(maps.buildId, p.buildId),
        p.mapId === undefined ? undefined : eq(maps.id, p.mapId),
        p.mapIds === undefined ? undefined : p.mapIds.length > 0 ? inArray(maps.id, p.mapIds) : sql`false`,
      ),
    )
    .as(alias);
}

/** Every account's maps, whole rows, as a subquery named `alias`: what the audit reads an edit's values before it from. */
export function mapRecordsAnyTenant(alias = 'm') {
  return new QueryBuilder().select(getTableColumns(maps)).from(maps).as(alias);
}
