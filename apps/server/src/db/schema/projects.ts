import { sql } from 'drizzle-orm';
import { PROJECT_LIMITS } from '@lumigrid/contract';
import { type AnyPgColumn, boolean, doublePrecision, index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, linkTable, mayReferTo, refersTo, timestamps } from './columns.ts';
import { tenantRowKeys } from './tenant-columns.ts';
import { users } from './users.ts';

/**
 * The installation tree: projects > buildings > maps. Every row carries its tenant (the owning account), and
 * every query filters by it (ARCHITECTURE.md section 4). Each account has exactly one default project,
 * building and map (partial unique indexes), created race-safely with ON CONFLICT DO NOTHING.
 */
export const projects = pgTable(
  'projects',
  {
    ...tenantRowKeys(),
    /** The parent project of the same tenant, or null at the top. */
    parentId: mayReferTo('parent_id', (): AnyPgColumn => projects.id, 'restrict'),
    name: text('name').notNull(),
    address: text('address'),
    longitude: doublePrecision('longitude'),
    latitude: doublePrecision('latitude'),
    /** Kg CO2 per kWh, for the carbon saved on the energy page. */
    carbonFactor: doublePrecision('carbon_factor').notNull().default(PROJECT_LIMITS.defaultCarbonFactor),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    // Project names are unique within an account (110007).
    uniqueIndex('projects_tenant_name_key').on(t.tenantId, t.name),
    uniqueIndex('projects_tenant_default_key')
      .on(t.tenantId)
      .where(sql`${t.isDefault}`),
    index('projects_tenant_parent_idx').on(t.tenantId, t.parentId),
  ],
);

export const buildings = pgTable(
  'buildings',
  {
    ...tenantRowKeys(),
    projectId: refersTo('project_id', () => projects.id, 'restrict'),
    /** The parent building in the same project, or null. */
    parentId: mayReferTo('parent_id', (): AnyPgColumn => buildings.id, 'restrict'),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    // Building names are unique within a project (110007).
    uniqueIndex('buildings_project_name_key').on(t.projectId, t.name),
    uniqueIndex('buildings_tenant_default_key')
      .on(t.tenantId)
      .where(sql`${t.isDefault}`),
    index('buildings_tenant_project_idx').on(t.tenantId, t.projectId),
  ],
);

/**
 * Uploaded floor plans. The file lives under DATA_DIR/uploads/maps with a random, unguessable name; a row
 * not referenced by any map is an upload waiting for map/v1/add or update and is swept after a day.
 */
export const mapImages = pgTable(
  'map_images',
  {
    ...tenantRowKeys(),
    file: text('file').notNull(),
    /** What is served: image/png or image/jpeg. */
    contentType: text('content_type').notNull(),
    /** What was uploaded: image/png, image/jpeg or application/pdf. */
    sourceType: text('source_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    /**
     * 'ready'; 'rendering' while a slow pdf's first page is still being drawn; 'failed' when it could not be,
     * 'too-heavy' when drawing it needed more time or memory than a plan may take.
     */
    state: text('state').notNull().default('ready'),
    /** Who uploaded it: a sub-account limited to some projects follows only its own uploads no map shows yet. */
    uploadedBy: mayReferTo('uploaded_by', () => users.id, 'set null'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('map_images_file_key').on(t.file), index('map_images_tenant_idx').on(t.tenantId, t.createdAt)],
);

export const maps = pgTable(
  'maps',
  {
    ...tenantRowKeys(),
    /** The building's project, kept here so counts and searches need no join; moves update it. */
    projectId: refersTo('project_id', () => projects.id, 'restrict'),
    buildId: refersTo('build_id', () => buildings.id, 'restrict'),
    name: text('name').notNull(),
    imageId: mayReferTo('image_id', () => mapImages.id, 'set null'),
    /** Floor-plan opacity in percent. */
    opacity: smallint('opacity').notNull().default(100),
    isDefault: boolean('is_default').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    // Map names are unique within a building (110007).
    uniqueIndex('maps_build_name_key').on(t.buildId, t.name),
    uniqueIndex('maps_tenant_default_key')
      .on(t.tenantId)
      .where(sql`${t.isDefault}`),
    uniqueIndex('maps_image_key').on(t.imageId),
    index('maps_tenant_build_idx').on(t.tenantId, t.buildId),
    index('maps_tenant_project_idx').on(t.tenantId, t.projectId),
  ],
);

/** The projects a sub-account limited to some projects may see (users.all_projects false). */
export const projectMembers = linkTable(
  'project_members',
  { key: 'userId', column: 'user_id', target: () => users.id },
  { key: 'projectId', column: 'project_id', target: () => projects.id },
);
