import fastifyMultipart from '@fastify/multipart';
import { PROJECT_LIMITS, mapEndpoints as E } from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';
import type { MapsService } from './maps.service.ts';

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

/** The map calls of the endpoint table (contract endpoints/maps.ts), the floor-plan upload and the route that serves plans. */
export function registerMapRoutes(route: RouteOf, deps: { maps: MapsService }) {
  const { maps } = deps;

  route(E.getMap, ({ auth, params }) => maps.getMap(auth, params.id, params.mapId));

  route(E.addMap, ({ auth, body }) => maps.addMap(auth, body));

  route(E.updateMap, ({ auth, body }) => maps.updateMap(auth, body));

  route(E.deleteMap, async ({ auth, params }) => {
    await maps.deleteMap(auth, params.buildId, params.mapId);
    return null;
  });

  route(E.moveMap, ({ auth, body }) => maps.moveMap(auth, body));

  route(E.searchMaps, ({ auth, body }) => maps.searchMaps(auth, body));

  route(E.listDevices, ({ auth, body }) => maps.listDevices(auth, body));

  route(E.devicesOf, ({ auth, params }) => maps.devicesOf(auth, params.id));

  route(E.removeImage, ({ auth, query }) => maps.removeImage(auth, query.id));

  route(E.image, async ({ params, reply }) => {
    const found = await maps.imageFile(params.file);
    if (!found) throw new AppError(100002);
    return reply
      .header('content-type', found.contentType)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(found.data);
  });

  // Multipart is accepted by this one route only, in its own plugin scope.
  void route.scope(async (scopedRoute, scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: PROJECT_LIMITS.mapImage.maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 50 },
    });
    scopedRoute(E.upload, ({ auth, body, request }) => maps.upload(auth, { data: request.mapUpload!, mapId: body.id }), {
      preValidation: readUpload,
    });
  });
}
