import { PROJECT_LIMITS, mapEndpoints as E } from '@lumigrid/contract';
import { AppError } from '../../http/app-error.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { sendImage } from '../../http/send-image.ts';
import { uploadRoute } from '../../http/single-file-upload.ts';
import type { MapsService } from './maps.service.ts';

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

  route(E.uploadState, ({ auth, params }) => maps.uploadState(auth, params.file));

  route(E.image, async ({ params, reply }) => {
    const found = await maps.imageFile(params.file);
    if (!found) throw new AppError(100002);
    return sendImage(reply, found);
  });

  uploadRoute(route, E.upload, { maxBytes: PROJECT_LIMITS.mapImage.maxBytes, fields: ['id'] }, ({ auth, body }, file) =>
    maps.upload(auth, { data: file, mapId: body.id }),
  );
}
