import { Type, type Static } from 'typebox';
import { IdSchema, PAGE_SIZE, Nullable, PageOf } from './common.ts';
import type { Localised } from './lang.ts';

/**
 * Projects, buildings and maps (spec sections 3, 5 and 7): the installation tree. Names are counted in
 * characters (code points), not weighted: spec section 5 weights Chinese characters for account names only
 * (docs/decisions.md).
 */
export const PROJECT_LIMITS = {
  /** Project, building and map names: 1-50 characters. */
  name: { min: 1, max: 50 },
  /** Project address: 1-100 characters when given. */
  address: { min: 1, max: 100 },
  longitude: { min: -180, max: 180 },
  latitude: { min: -90, max: 90 },
  /** Longitude and latitude carry at most two decimals. */
  coordinateDecimals: 2,
  /** Kg CO2 a kWh emits, for the carbon saved (spec section 5); out of range answers 100020. */
  carbonFactor: { min: 0.0001, max: 100000 },
  /**
   * A new project's carbon factor: roughly a mixed grid's, so the energy page shows a figure from the first day
   * until the project sets its own grid's.
   */
  defaultCarbonFactor: 0.5,
  /** Map opacity in percent; 100 is fully opaque. */
  opacity: { min: 0, max: 100, default: 100 },
  /** Floor-plan uploads: jpg, png or pdf (first page rendered to png) up to 5 MB. */
  mapImage: { maxBytes: 5 * 1024 * 1024, types: ['image/jpeg', 'image/png', 'application/pdf'] },
  /** Uploaded floor plans no map uses yet, per account (100019), and how long such an upload is kept. */
  unusedUploads: { max: 10, keptMs: 60 * 60_000 },
  /** Longest side of the picture a pdf's first page is rendered to, in pixels. */
  pdfRenderMaxSide: 4096,
  pageSize: PAGE_SIZE,
} as const;

/** Names of the default project, building and map every account has, in the account's language. */
export const DEFAULT_NAMES: { project: Localised; build: Localised; map: Localised } = {
  project: { en: 'Default project', cn: '默认项目', tc: '預設項目', ja: '既定のプロジェクト' },
  build: { en: 'Default building', cn: '默认建筑', tc: '預設建築', ja: '既定の建物' },
  map: { en: 'Default map', cn: '默认地图', tc: '預設地圖', ja: '既定のマップ' },
};

/** True when a coordinate has at most two decimals (spec section 5). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

const Name = Type.String({
  minLength: PROJECT_LIMITS.name.min,
  maxLength: PROJECT_LIMITS.name.max,
  description: '1-50 characters; leading and trailing spaces are dropped',
});
const Address = Type.String({ maxLength: PROJECT_LIMITS.address.max, description: 'Up to 100 characters; empty clears it' });
const Longitude = Type.Number({
  minimum: PROJECT_LIMITS.longitude.min,
  maximum: PROJECT_LIMITS.longitude.max,
  description: '-180 to 180, at most two decimals',
});
const Latitude = Type.Number({
  minimum: PROJECT_LIMITS.latitude.min,
  maximum: PROJECT_LIMITS.latitude.max,
  description: '-90 to 90, at most two decimals',
});
// Bounds are checked by the service, so an out-of-range factor answers its own code (100020), not 100001.
const CarbonFactor = Type.Number({ description: 'Kg CO2 per kWh, 0.0001-100000' });
const Opacity = Type.Integer({
  minimum: PROJECT_LIMITS.opacity.min,
  maximum: PROJECT_LIMITS.opacity.max,
  description: 'Floor-plan opacity in percent, 0-100',
});
const Page = Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, description: 'Page number, from 1' }));
const PageSize = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: PROJECT_LIMITS.pageSize.max,
    default: PROJECT_LIMITS.pageSize.default,
    description: 'Rows per page, 1-200',
  }),
);

/** A project (spec section 3: name, address, parent project), with the counts the list screen shows. */
export const ProjectSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  address: Nullable(Type.String(), 'The address, or null'),
  parentId: Nullable(IdSchema, 'The parent project, or null for a top-level project'),
  longitude: Nullable(Type.Number(), 'Longitude, or null'),
  latitude: Nullable(Type.Number(), 'Latitude, or null'),
  carbonFactor: Type.Number({ description: 'Kg CO2 per kWh used, for the carbon the energy page says was saved' }),
  isDefault: Type.Boolean({ description: "The account's default project: it cannot be deleted" }),
  buildCount: Type.Integer({ description: 'Buildings directly in this project' }),
  mapCount: Type.Integer({ description: "Maps in this project's buildings" }),
  timeZone: Type.String({
    description: "The site's IANA time zone, which its times are shown in: the one most of its gateways keep, UTC when none has one",
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Project = Static<typeof ProjectSchema>;

/** A building (spec section 3: name, parent building) inside one project. */
export const BuildingSchema = Type.Object({
  id: IdSchema,
  projectId: IdSchema,
  name: Type.String(),
  parentId: Nullable(IdSchema, 'The parent building in the same project, or null'),
  isDefault: Type.Boolean({ description: "The account's default building: it cannot be deleted" }),
  mapCount: Type.Integer({ description: 'Maps in this building' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Building = Static<typeof BuildingSchema>;

/** A map (spec section 3: name, imported image, opacity) inside one building. */
export const MapInfoSchema = Type.Object({
  id: IdSchema,
  projectId: IdSchema,
  buildId: IdSchema,
  name: Type.String(),
  image: Nullable(Type.String(), 'URL of the floor plan (png or jpeg; a pdf is stored as its first page in png), or null'),
  imageWidth: Nullable(Type.Integer(), 'Floor-plan width in pixels, or null'),
  imageHeight: Nullable(Type.Integer(), 'Floor-plan height in pixels, or null'),
  opacity: Opacity,
  isDefault: Type.Boolean({ description: "The account's default map: it cannot be deleted" }),
  deviceCount: Type.Integer({ description: 'Devices placed on this map' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type MapInfo = Static<typeof MapInfoSchema>;

/** A map in search results: with the names of its project and building (as the gateway sync item of spec section 3). */
export const MapSearchItemSchema = Type.Object({
  ...MapInfoSchema.properties,
  projectName: Type.String(),
  buildName: Type.String(),
});
export type MapSearchItem = Static<typeof MapSearchItemSchema>;

/** GET project_user/v1/projects/{id}: a project with its direct sub-projects and buildings. */
export const ProjectDetailSchema = Type.Object({
  project: ProjectSchema,
  children: Type.Array(ProjectSchema, { description: 'Direct sub-projects' }),
  builds: Type.Array(BuildingSchema, { description: 'All buildings of the project; nest them by parentId' }),
});
export type ProjectDetail = Static<typeof ProjectDetailSchema>;

/** GET project_user/v1/{projectId}/builds/{buildId}: a building with its maps. */
export const BuildingDetailSchema = Type.Object({
  build: BuildingSchema,
  maps: Type.Array(MapInfoSchema),
});
export type BuildingDetail = Static<typeof BuildingDetailSchema>;

/** A building in the tree, with its maps. */
export const TreeBuildingSchema = Type.Object({ ...BuildingSchema.properties, maps: Type.Array(MapInfoSchema) });
export type TreeBuilding = Static<typeof TreeBuildingSchema>;

/** A project in the tree, with its buildings (flat: nest them by parentId). */
export const TreeProjectSchema = Type.Object({ ...ProjectSchema.properties, builds: Type.Array(TreeBuildingSchema) });
export type TreeProject = Static<typeof TreeProjectSchema>;

/**
 * GET project_user/v1/{id}/sub_links: the tree under a project (the project, every sub-project at any
 * depth, their buildings and maps), or with id 0 the whole tree of the account. Levels are flat lists
 * linked by parentId; `nestByParent` turns one into a tree.
 */
export const ProjectTreeSchema = Type.Object({
  projects: Type.Array(TreeProjectSchema, { description: 'Projects, parents before children' }),
});
export type ProjectTree = Static<typeof ProjectTreeSchema>;

/** An item of a flat list with its children nested under it. */
export type Nested<T> = T & { children: Array<Nested<T>> };

/** Nests a flat list by parentId; items whose parent is missing become roots. Order is kept. */
export function nestByParent<T extends { id: string; parentId: string | null }>(items: T[]): Array<Nested<T>> {
  const nodes = new Map<string, Nested<T>>(items.map((item) => [item.id, { ...item, children: [] }]));
  const roots: Array<Nested<T>> = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** POST project_user/v1/all_project_message: the project list, searched and paged. */
export const ProjectSearchBodySchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: PROJECT_LIMITS.name.max, description: 'Part of the name or address; empty finds all' })),
  page: Page,
  pageSize: PageSize,
});
export type ProjectSearchBody = Static<typeof ProjectSearchBodySchema>;

export const ProjectPageSchema = PageOf(ProjectSchema);
export type ProjectPage = Static<typeof ProjectPageSchema>;

/** Where a project stands and its grid's carbon factor: optional when a project is added and when it is updated. */
const siteFields = {
  longitude: Type.Optional(Nullable(Longitude, 'Longitude, or null')),
  latitude: Type.Optional(Nullable(Latitude, 'Latitude, or null')),
  carbonFactor: Type.Optional(CarbonFactor),
};

/** POST project/v1/add */
export const ProjectAddBodySchema = Type.Object({
  name: Name,
  address: Type.Optional(Address),
  parentId: Type.Optional(Nullable(IdSchema, 'The parent project, or null / absent for a top-level project')),
  ...siteFields,
});
export type ProjectAddBody = Static<typeof ProjectAddBodySchema>;

/** POST project/v1/update: every field given replaces the stored one; absent fields stay. */
export const ProjectUpdateBodySchema = Type.Object({
  id: IdSchema,
  name: Type.Optional(Name),
  address: Type.Optional(Address),
  parentId: Type.Optional(Nullable(IdSchema, 'The new parent project; null makes it top-level')),
  ...siteFields,
});
export type ProjectUpdateBody = Static<typeof ProjectUpdateBodySchema>;

/** POST build/v1/add */
export const BuildingAddBodySchema = Type.Object({
  projectId: IdSchema,
  name: Name,
  parentId: Type.Optional(Nullable(IdSchema, 'The parent building in the same project, or null')),
});
export type BuildingAddBody = Static<typeof BuildingAddBodySchema>;

/** POST build/v1/update: rename or re-parent inside the same project. */
export const BuildingUpdateBodySchema = Type.Object({
  id: IdSchema,
  name: Type.Optional(Name),
  parentId: Type.Optional(Nullable(IdSchema, 'The new parent building in the same project; null makes it top-level')),
});
export type BuildingUpdateBody = Static<typeof BuildingUpdateBodySchema>;

/** POST build/v1/delete */
export const BuildingDeleteBodySchema = Type.Object({ id: IdSchema });
export type BuildingDeleteBody = Static<typeof BuildingDeleteBodySchema>;

/** POST map/v1/add: `image` is the `image` field of an upload_map answer made without a map id. */
export const MapAddBodySchema = Type.Object({
  buildId: IdSchema,
  name: Name,
  opacity: Type.Optional(Opacity),
  image: Type.Optional(Nullable(Type.String({ maxLength: 200 }), 'An uploaded floor plan (upload_map answer `image`), or null')),
});
export type MapAddBody = Static<typeof MapAddBodySchema>;

/** POST map/v1/update: rename, set the opacity, or set / replace the floor plan (null removes it). */
export const MapUpdateBodySchema = Type.Object({
  id: IdSchema,
  name: Type.Optional(Name),
  opacity: Type.Optional(Opacity),
  image: Type.Optional(Nullable(Type.String({ maxLength: 200 }), 'An uploaded floor plan (upload_map answer `image`); null removes it')),
});
export type MapUpdateBody = Static<typeof MapUpdateBodySchema>;

/** PUT map/v1/move: moves a map into another building of the account (any project). */
export const MapMoveBodySchema = Type.Object({ id: IdSchema, buildId: IdSchema });
export type MapMoveBody = Static<typeof MapMoveBodySchema>;

/** POST map/v1/search: maps of the account by name, optionally within a project or building. */
export const MapSearchBodySchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: PROJECT_LIMITS.name.max, description: 'Part of the map name; empty finds all' })),
  projectId: Type.Optional(IdSchema),
  buildId: Type.Optional(IdSchema),
  page: Page,
  pageSize: PageSize,
});
export type MapSearchBody = Static<typeof MapSearchBodySchema>;

export const MapSearchPageSchema = PageOf(MapSearchItemSchema);
export type MapSearchPage = Static<typeof MapSearchPageSchema>;

/** GET map/v1/delete_map?id=: removes a map's floor plan (the map stays). */
export const MapIdQuerySchema = Type.Object({ id: IdSchema });
export type MapIdQuery = Static<typeof MapIdQuerySchema>;

/**
 * POST map/v1/upload_map (multipart/form-data): `file` is the floor plan; an optional `id` field (sent
 * before the file) attaches it to that map at once. Without `id`, pass `image` to map/v1/add or update.
 */
export const MapImageSchema = Type.Object({
  image: Type.String({ description: 'The stored file name; give it to map/v1/add or map/v1/update' }),
  url: Type.String({ description: 'Where the picture is served (once ready)' }),
  state: Type.Union([Type.Literal('ready'), Type.Literal('rendering')], {
    description: "'rendering' while a slow pdf's first page is still being drawn: follow it with upload_state; 0 sizes until then",
  }),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer({ description: 'Bytes stored' }),
  contentType: Type.Union([Type.Literal('image/png'), Type.Literal('image/jpeg')]),
  sourceType: Type.Union([Type.Literal('image/png'), Type.Literal('image/jpeg'), Type.Literal('application/pdf')], {
    description: 'What was uploaded',
  }),
  map: Nullable(MapInfoSchema, 'The map, when the upload named one'),
});
export type MapImage = Static<typeof MapImageSchema>;

/** A device placed on a map, as the map's device list shows it. */
export const MapDeviceSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  type: Type.Integer({ description: 'Device type code' }),
  typeStatus: Type.Integer({ description: '0 normal, 2 offline' }),
  status: Type.String({ description: 'The colon-separated status string of spec section 3' }),
  map_id: IdSchema,
  build_id: IdSchema,
});
export type MapDevice = Static<typeof MapDeviceSchema>;

/** POST map/v1/list/devices */
export const MapDevicesBodySchema = Type.Object({
  mapId: IdSchema,
  name: Type.Optional(Type.String({ maxLength: 50, description: 'Part of the device name' })),
  page: Page,
  pageSize: PageSize,
});
export type MapDevicesBody = Static<typeof MapDevicesBodySchema>;

/** POST map/v1/download_devices_report: the devices of one map. */
export const MapReportBodySchema = Type.Object({ mapId: IdSchema });
export type MapReportBody = Static<typeof MapReportBodySchema>;

export const MapDevicePageSchema = PageOf(MapDeviceSchema);
export type MapDevicePage = Static<typeof MapDevicePageSchema>;

const ProjectId = { ...IdSchema, description: 'A project id of the caller\u2019s account' };
const BuildId = { ...IdSchema, description: 'A building id of the caller\u2019s account' };
const MapId = { ...IdSchema, description: 'A map id of the caller\u2019s account' };

/** {id}: a project. */
export const ProjectIdParamsSchema = Type.Object({ id: ProjectId });
export type ProjectIdParams = Static<typeof ProjectIdParamsSchema>;

/** {id}: the project; {buildId}: a building of it. */
export const BuildingParamsSchema = Type.Object({ id: ProjectId, buildId: BuildId });
export type BuildingParams = Static<typeof BuildingParamsSchema>;

/** {id}: a project, or 0 for every project of the account. */
export const ProjectTreeParamsSchema = Type.Object({
  id: { ...IdSchema, description: 'A project id, or 0 for every project of the account' },
});
export type ProjectTreeParams = Static<typeof ProjectTreeParamsSchema>;

/** {id}: the project the map belongs to (through its building); {mapId}: the map. */
export const ProjectMapParamsSchema = Type.Object({ id: ProjectId, mapId: MapId });
export type ProjectMapParams = Static<typeof ProjectMapParamsSchema>;

/** {buildId}: the building the map belongs to; {mapId}: the map. */
export const BuildingMapParamsSchema = Type.Object({ buildId: BuildId, mapId: MapId });
export type BuildingMapParams = Static<typeof BuildingMapParamsSchema>;

/** {id}: a map. */
export const MapIdParamsSchema = Type.Object({ id: MapId });
export type MapIdParams = Static<typeof MapIdParamsSchema>;

/** Stored floor plans are named by 128 random bits in hex and their type. */
export const MAP_IMAGE_FILE_PATTERN = '^[0-9a-f]{32}\\.(png|jpg)$';

/** {file}: the name in a map's `image` URL. */
export const MapImageFileParamsSchema = Type.Object({
  file: Type.String({ pattern: MAP_IMAGE_FILE_PATTERN, description: '32 hex digits and .png or .jpg' }),
});
export type MapImageFileParams = Static<typeof MapImageFileParamsSchema>;

/** The plain fields of a floor-plan upload (multipart/form-data); the file part is read before validation. */
export const MapUploadFieldsSchema = Type.Object({
  id: Type.Optional({
    ...IdSchema,
    description: 'The map to put the floor plan on; without it, pass the answer\u2019s `image` to map/v1/add or update',
  }),
  file: Type.Optional(
    Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The floor plan: jpg, png or pdf, at most 5 MB' }),
  ),
});
export type MapUploadFields = Static<typeof MapUploadFieldsSchema>;

/** A picture served as it is. */
export const BinarySchema = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'The picture' });
