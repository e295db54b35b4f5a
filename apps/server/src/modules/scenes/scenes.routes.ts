import { SCENE_IMAGE, sceneEndpoints as E, type Lang, type Localised, type SceneKind, type SceneView } from '@lumigrid/contract';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { AppError } from '../../http/app-error.ts';
import { sendImage } from '../../http/send-image.ts';
import { uploadRoute } from '../../http/single-file-upload.ts';
import { requestLang } from '../../http/envelope.ts';
import { sendTable, workbookName, type SheetColumn } from '../../lib/excel.ts';
import type { ScenesService } from './scenes.service.ts';

const KIND_TEXT: Record<SceneKind, Localised> = {
  manual: { en: 'Normal scene', cn: '普通场景', tc: '普通場景', ja: '通常シーン' },
  schedule: { en: 'Schedule', cn: '定时', tc: '定時', ja: 'スケジュール' },
  groupSchedule: { en: 'Group schedule', cn: '分组定时', tc: '群組定時', ja: 'グループスケジュール' },
  sun: { en: 'Sunrise/sunset', cn: '日出日落', tc: '日出日落', ja: '日の出・日の入り' },
  sequence: { en: 'Sequence', cn: '序列', tc: '序列', ja: 'シーケンス' },
  once: { en: 'Run once', cn: '单次执行', tc: '單次執行', ja: '1回のみ実行' },
};

const HEADERS = {
  sheet: { en: 'Scenes', cn: '场景', tc: '場景', ja: 'シーン' },
  name: { en: 'Name', cn: '名称', tc: '名稱', ja: '名前' },
  kind: { en: 'Type', cn: '类型', tc: '類型', ja: '種類' },
  devices: { en: 'Devices', cn: '设备数', tc: '設備數', ja: 'デバイス数' },
  groups: { en: 'Groups', cn: '分组数', tc: '群組數', ja: 'グループ数' },
  gateways: { en: 'Gateways', cn: '网关', tc: '閘道', ja: 'ゲートウェイ' },
  nextRun: { en: 'Next run (UTC)', cn: '下次执行 (UTC)', tc: '下次執行 (UTC)', ja: '次回実行 (UTC)' },
  lastRun: { en: 'Last run (UTC)', cn: '上次执行 (UTC)', tc: '上次執行 (UTC)', ja: '前回実行 (UTC)' },
  state: { en: 'State', cn: '状态', tc: '狀態', ja: '状態' },
  synced: { en: 'Synced', cn: '已同步', tc: '已同步', ja: '同期済み' },
  pending: { en: 'Not synced', cn: '未同步', tc: '未同步', ja: '未同期' },
} satisfies Record<string, Localised>;

/** The scene list's columns as the Excel export carries them. */
function sceneColumns(lang: Lang): SheetColumn<SceneView>[] {
  const t = (key: keyof typeof HEADERS) => HEADERS[key][lang];
  return [
    { header: t('name'), width: 28, value: (s) => s.name },
    { header: t('kind'), value: (s) => KIND_TEXT[s.kind][lang] },
    { header: t('devices'), width: 10, value: (s) => s.devices },
    { header: t('groups'), width: 10, value: (s) => s.groups },
    { header: t('gateways'), width: 32, value: (s) => s.parts.map((p) => p.gatewayName).join(', ') },
    { header: t('nextRun'), width: 20, value: (s) => (s.nextRun === null ? null : new Date(s.nextRun)) },
    { header: t('lastRun'), width: 20, value: (s) => (s.lastRun ? new Date(s.lastRun.at) : null) },
    { header: t('state'), width: 12, value: (s) => t(s.state) },
  ];
}

/** The scene calls of the endpoint table (contract endpoints/scenes.ts). */
export function registerSceneRoutes(route: RouteOf, deps: { scenes: ScenesService }) {
  const { scenes } = deps;

  route(E.page, ({ auth, body }) => scenes.page(auth, body));

  route(E.export, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const rows = await scenes.all(auth, body);
    return sendTable(reply, { ...workbookName(HEADERS.sheet[lang]), columns: sceneColumns(lang) }, [rows]);
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
