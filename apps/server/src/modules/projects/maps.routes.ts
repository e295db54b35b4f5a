import fastifyMultipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  EmptySchema,
  Envelope,
  IdSchema,
  MapAddBodySchema,
  MapDevicePageSchema,
  MapDeviceSchema,
  MapDevicesBodySchema,
  MapIdQuerySchema,
  MapImageSchema,
  MapInfoSchema,
  MapMoveBodySchema,
  MapSearchBodySchema,
  MapSearchPageSchema,
  MapUpdateBodySchema,
  PROJECT_LIMITS,
} from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { BEARER, type Authenticate, requireAuth } from '../../http/guards.ts';
import type { App } from '../../http/types.ts';
import { ACCESS } from '../../http/route-docs.ts';
import { MAP_IMAGE_FILE_PATTERN } from './map-image.ts';
import type { MapsService } from './maps.service.ts';

const tags = ['maps'];
const BuildId = { ...IdSchema, description: 'A building id of the caller\u2019s account' };
const MapId = { ...IdSchema, description: 'A map id of the caller\u2019s account' };
const { write: WRITE, read: READ } = ACCESS;

declare module 'fastify' {
  interface FastifyRequest {
    /** The floor plan of a map/v1/upload_map request, read before validation. */
    mapUpload?: Buffer;
  }
}

/** Multipart errors of @fastify/multipart: a file over 5 MB, or more parts, files or fields than one upload has. */
const TOO_LARGE = 'FST_REQ_FILE_TOO_LARGE';
const TOO_MANY = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * Reads the multipart upload (one `file` part, an optional `id` field) into memory, at most 5 MB, before
 * validation; the body the schema validates is then just `{ id }`.
 */
async function readUpload(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError(100013);
  let id: string | undefined;
  let data: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file' && !data) data = bytes;
      } else if (part.fieldname === 'id' && typeof part.value === 'string' && part.value !== '') {
        id = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === TOO_LARGE) throw new AppError(100014, '5 MB');
    if (code && TOO_MANY.has(code)) throw new AppError(100001, 'one file and an id at most');
    if (error instanceof AppError) throw error;
    throw new AppError(100013);
  }
  if (!data) throw new AppError(100013);
  request.mapUpload = data;
  request.body = id === undefined ? {} : { id };
}

/** The map calls of spec section 7 under /api4, the floor-plan upload and the route that serves plans. */
export function registerMapRoutes(app: App, deps: { maps: MapsService; authenticate: Authenticate }) {
  const { maps } = deps;
  const onRequest = requireAuth(deps.authenticate);

  app.get('/api4/project_user/v1/:id/maps/:mapId', {
    schema: {
      tags,
      summary: 'A map of a project, with its floor plan',
      description: `{id}: the project the map belongs to (through its building); {mapId}: the map. A map of another project answers 110011. ${READ}`,
      security: BEARER,
      params: Type.Object({ id: { ...IdSchema, description: 'A project id of the caller\u2019s account' }, mapId: MapId }),
      response: { 200: Envelope(MapInfoSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.getMap(caller(request), request.params.id, request.params.mapId)),
  });

  app.post('/api4/map/v1/add', {
    schema: {
      tags,
      summary: 'Create a map in a building',
      description: `Names are unique within the building (110007). \`image\`: an upload_map answer's \`image\`; an unknown or used one answers 100013. ${WRITE}`,
      security: BEARER,
      body: MapAddBodySchema,
      response: { 200: Envelope(MapInfoSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.addMap(caller(request), request.body)),
  });

  app.post('/api4/map/v1/update', {
    schema: {
      tags,
      summary: 'Rename a map, set its opacity, or set / replace / remove its floor plan',
      description: `Absent fields stay as they are; \`image: null\` removes the floor plan. ${WRITE}`,
      security: BEARER,
      body: MapUpdateBodySchema,
      response: { 200: Envelope(MapInfoSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.updateMap(caller(request), request.body)),
  });

  app.delete('/api4/map/v1/delete/:buildId/:mapId', {
    schema: {
      tags,
      summary: 'Delete a map',
      description: `{buildId}: the building the map belongs to; {mapId}: the map. Refused for the default map (280011) and a map with devices (280005). ${WRITE}`,
      security: BEARER,
      params: Type.Object({ buildId: BuildId, mapId: MapId }),
      response: { 200: Envelope(EmptySchema) },
    },
    onRequest,
    handler: async (request) => {
      await maps.deleteMap(caller(request), request.params.buildId, request.params.mapId);
      return ok(request, null);
    },
  });

  app.put('/api4/map/v1/move', {
    schema: {
      tags,
      summary: 'Move a map into another building (of any project of the account)',
      description: `\`id\`: the map; \`buildId\`: the target building. A name taken there answers 110007. ${WRITE}`,
      security: BEARER,
      body: MapMoveBodySchema,
      response: { 200: Envelope(MapInfoSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.moveMap(caller(request), request.body)),
  });

  app.post('/api4/map/v1/search', {
    schema: {
      tags,
      summary: 'Search the maps of the account by name, optionally within a project or building, paged',
      description: `\`projectId\` / \`buildId\` narrow the search; ids of another account answer 110011. ${READ}`,
      security: BEARER,
      body: MapSearchBodySchema,
      response: { 200: Envelope(MapSearchPageSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.searchMaps(caller(request), request.body)),
  });

  app.post('/api4/map/v1/list/devices', {
    schema: {
      tags,
      summary: 'The devices placed on a map, paged',
      description: `\`mapId\`: the map. ${READ}`,
      security: BEARER,
      body: MapDevicesBodySchema,
      response: { 200: Envelope(MapDevicePageSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.listDevices(caller(request), request.body)),
  });

  app.get('/api4/map/v1/devices/:id', {
    schema: {
      tags,
      summary: 'All devices placed on a map',
      description: `{id}: the map. ${READ}`,
      security: BEARER,
      params: Type.Object({ id: MapId }),
      response: { 200: Envelope(Type.Array(MapDeviceSchema)) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.devicesOf(caller(request), request.params.id)),
  });

  app.get('/api4/map/v1/delete_map', {
    schema: {
      tags,
      summary: "Remove a map's floor plan (the map stays)",
      description: `Query \`id\`: the map. ${WRITE}`,
      security: BEARER,
      querystring: MapIdQuerySchema,
      response: { 200: Envelope(MapInfoSchema) },
    },
    onRequest,
    handler: async (request) => ok(request, await maps.removeImage(caller(request), request.query.id)),
  });

  app.get('/api4/map/v1/image/:file', {
    schema: {
      tags,
      summary: 'A stored floor plan (png or jpeg)',
      description:
        '{file}: the name in a map\u2019s `image` URL. Served without a token, so <img> and Leaflet can load it: the name carries 128 random bits and is only ever given to users of the account (docs/decisions.md). Unknown names answer 404.',
      params: Type.Object({ file: Type.String({ pattern: MAP_IMAGE_FILE_PATTERN, description: '32 hex digits and .png or .jpg' }) }),
      produces: ['image/png', 'image/jpeg'],
      response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The picture' }) },
    },
    handler: async (request, reply) => {
      const found = await maps.imageFile(request.params.file);
      if (!found) throw new AppError(100002);
      return reply
        .header('content-type', found.contentType)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .send(found.data);
    },
  });

  // Multipart is accepted by this one route only, in its own plugin scope.
  app.register(async (scope) => {
    const upload = scope.withTypeProvider<TypeBoxTypeProvider>();
    await upload.register(fastifyMultipart, {
      limits: { fileSize: PROJECT_LIMITS.mapImage.maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 50 },
    });
    upload.post('/api4/map/v1/upload_map', {
      schema: {
        tags,
        summary: 'Upload a floor plan: jpg, png or pdf up to 5 MB (a pdf\u2019s first page becomes a png)',
        description: `multipart/form-data with a \`file\` part and, optionally before it, an \`id\` field naming the map to put it on. The type is read from the bytes, never the name; anything else answers 100013, a larger file 100014. ${WRITE}`,
        security: BEARER,
        consumes: ['multipart/form-data'],
        body: Type.Object({
          id: Type.Optional({
            ...IdSchema,
            description: 'The map to put the floor plan on; without it, pass the answer\u2019s `image` to map/v1/add or update',
          }),
          // Documents the file part; preValidation has taken it out of the body by the time it is validated.
          file: Type.Optional(
            Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The floor plan: jpg, png or pdf, at most 5 MB' }),
          ),
        }),
        response: { 200: Envelope(MapImageSchema) },
      },
      onRequest,
      preValidation: async (request) => {
        maps.assertCanEdit(caller(request));
        await readUpload(request);
      },
      handler: async (request) => ok(request, await maps.upload(caller(request), { data: request.mapUpload!, mapId: request.body.id })),
    });
  });
}
