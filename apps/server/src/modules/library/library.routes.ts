import { LIBRARY_LIMITS, libraryEndpoints as E } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { sendImage } from '../../http/send-image.ts';
import { uploadRoute } from '../../http/single-file-upload.ts';
import { AppError } from '../../http/app-error.ts';
import type { LibraryService } from './library.service.ts';

/** The device type calls of the endpoint table (contract endpoints/library.ts). */
export function registerLibraryRoutes(route: RouteOf, deps: { library: LibraryService }) {
  const { library } = deps;

  route(E.typeTable, ({ auth }) => library.typeList(auth));

  route(E.add, ({ auth, body }) => library.add(auth, body));

  route(E.update, ({ auth, body }) => library.update(auth, body));

  route(E.remove, ({ auth, query }) => library.remove(auth, query.id));

  uploadRoute(route, E.uploadIcon, { maxBytes: LIBRARY_LIMITS.icon.maxBytes, fields: ['id'] }, ({ auth, body }, file) =>
    library.setIcon(auth, body.id, file),
  );

  route(E.removeIcon, ({ auth, params }) => library.removeIcon(auth, params.id));

  route(E.icon, async ({ params, reply }) => {
    const found = await library.iconFile(params.file);
    if (!found) throw new AppError(100002);
    return sendImage(reply, found);
  });
}
