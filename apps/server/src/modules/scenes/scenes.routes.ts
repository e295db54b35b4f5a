import { SCENE_IMAGE, sceneEndpoints as E, type Lang, type SceneView } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { AppError } from '../../http/app-error.ts';
import { sendImage } from '../../http/send-image.ts';
import { uploadRoute } from '../../http/single-file-upload.ts';
import { requestLang } from '../../http/envelope.ts';
import { serverTexts } from '../../i18n/server-texts.ts';
import { sendTable, workbookName, type SheetColumn } from '../../lib/excel.ts';
import type { ScenesService } from './scenes.service.ts';

/** The scene list's columns as the Excel export carries them. */
function sceneColumns(lang: Lang): SheetColumn<SceneView>[] {
  const t = serverTexts(lang).sceneExport;
  return [
    { header: t.name, width: 28, value: (s) => s.name },
    { header: t.kind, value: (s) => t.kinds[s.kind] },
    { header: t.devices, width: 10, value: (s) => s.devices },
    { header: t.groups, width: 10, value: (s) => s.groups },
    { header: t.gateways, width: 32, value: (s) => s.parts.map((p) => p.gatewayName).join(', ') },
    { header: t.nextRun, width: 20, value: (s) => (s.nextRun === null ? null : new Date(s.nextRun)) },
    { header: t.lastRun, width: 20, value: (s) => (s.lastRun ? new Date(s.lastRun.at) : null) },
    { header: t.state, width: 12, value: (s) => t[s.state] },
  ];
}

/** The scene calls of the endpoint table (contract endpoints/scenes.ts). */
export function registerSceneRoutes(route: RouteOf, deps: { scenes: ScenesService }) {
  const { scenes } = deps;

  route(E.page, ({ auth, body }) => scenes.page(auth, body));

  route(E.export, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const rows = await scenes.all(auth, body);
    return sendTable(reply, { ...workbookName(serverTexts(lang).sceneExport.sheet), columns: sceneColumns(lang) }, [rows]);
  });

  route(E.get, ({ auth, params }) => scenes.get(auth, params.id));

  route(E.add, ({ auth, body }) => scenes.add(auth, body));

  route(E.update, ({ auth, body }) => scenes.update(auth, body));

  route(E.removeSlice, async ({ auth, params }) => {
    await scenes.removeSlice(auth, params.id);
    return null;
  });

  route(E.remove, async ({ auth, params }) => {
    await scenes.remove(auth, params.id);
    return null;
  });

  uploadRoute(route, E.uploadImage, { maxBytes: SCENE_IMAGE.maxBytes, fields: ['id'] }, ({ auth, body }, file) =>
    scenes.setImage(auth, body.id, file),
  );

  route(E.removeImage, ({ auth, params }) => scenes.removeImage(auth, params.id));

  route(E.image, async ({ params, reply }) => {
    const found = await scenes.imageFile(params.file);
    if (!found) throw new AppError(100002);
    return sendImage(reply, found);
  });

  route(E.manuals, ({ auth, params }) => scenes.manuals(auth, params.id));

  route(E.execute, ({ auth, params }) => scenes.execute(auth, params.id));

  route(E.runs, ({ auth, body }) => scenes.runs(auth, body));

  route(E.week, ({ auth, body }) => scenes.week(auth, body));

  route(E.settings, ({ auth, params }) => scenes.settings(auth, params.projectId));

  route(E.saveSettings, ({ auth, body }) => scenes.saveSettings(auth, body));

  route(E.linkages, ({ auth, params }) => scenes.linkages(auth, params.mapId));

  route(E.saveLinkage, ({ auth, body }) => scenes.saveLinkage(auth, body));

  route(E.removeLinkage, async ({ auth, params }) => {
    await scenes.removeLinkage(auth, params.id);
    return null;
  });

  route(E.inputScene, ({ auth, body }) => scenes.inputScene(auth, body));

  route(E.panelKeys, ({ auth, params }) => scenes.panelKeys(auth, params.id));

  route(E.executeAuto, ({ auth, body }) => scenes.executeAuto(auth, body));
}
