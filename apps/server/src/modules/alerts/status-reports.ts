import {
  DEVICE_KIND_TEXT,
  DISPLAY_TEXT,
  FAULT_TEXT,
  deviceType,
  type Alert,
  type Device,
  type DeviceKindName,
  type Lang,
  type Localised,
} from '@lumigrid/contract';
import { workbookName, type SheetColumn } from '../../lib/excel.ts';

const HEADERS = {
  failSheet: { en: 'Failures', cn: '故障报表', tc: '故障報表', ja: '故障レポート' },
  statusSheet: { en: 'Device status', cn: '设备状态', tc: '設備狀態', ja: 'デバイス状態' },
  mapSheet: { en: 'Devices', cn: '设备', tc: '設備', ja: 'デバイス' },
  device: { en: 'Device', cn: '设备', tc: '設備', ja: 'デバイス' },
  name: { en: 'Name', cn: '名称', tc: '名稱', ja: '名前' },
  typeCode: { en: 'Type code', cn: '类型编码', tc: '類型編碼', ja: '種類コード' },
  kind: { en: 'Kind', cn: '种类', tc: '種類', ja: '種別' },
  mac: { en: 'MAC', cn: 'MAC', tc: 'MAC', ja: 'MAC' },
  code: { en: 'Fault code', cn: '故障码', tc: '故障碼', ja: '故障コード' },
  meaning: { en: 'Fault', cn: '故障', tc: '故障', ja: '故障内容' },
  project: { en: 'Project', cn: '项目', tc: '專案', ja: 'プロジェクト' },
  building: { en: 'Building', cn: '建筑', tc: '建築', ja: '建物' },
  map: { en: 'Map', cn: '地图', tc: '地圖', ja: 'マップ' },
  gateway: { en: 'Gateway', cn: '网关', tc: '閘道', ja: 'ゲートウェイ' },
  raisedAt: { en: 'Raised (UTC)', cn: '发生时间 (UTC)', tc: '發生時間 (UTC)', ja: '発生日時 (UTC)' },
  clearedAt: { en: 'Cleared (UTC)', cn: '恢复时间 (UTC)', tc: '恢復時間 (UTC)', ja: '復旧日時 (UTC)' },
  state: { en: 'State', cn: '处理状态', tc: '處理狀態', ja: '対応状況' },
  pending: { en: 'Pending', cn: '待处理', tc: '待處理', ja: '未対応' },
  handled: { en: 'Handled', cn: '已处理', tc: '已處理', ja: '対応済み' },
  handledBy: { en: 'Handled by', cn: '处理人', tc: '處理人', ja: '対応者' },
  handledAt: { en: 'Handled (UTC)', cn: '处理时间 (UTC)', tc: '處理時間 (UTC)', ja: '対応日時 (UTC)' },
  note: { en: 'Note', cn: '备注', tc: '備註', ja: 'メモ' },
  display: { en: 'State', cn: '状态', tc: '狀態', ja: '状態' },
  online: { en: 'Online', cn: '在线', tc: '在線', ja: 'オンライン' },
  yes: { en: 'Yes', cn: '是', tc: '是', ja: 'はい' },
  no: { en: 'No', cn: '否', tc: '否', ja: 'いいえ' },
  power: { en: 'Power (W)', cn: '功率 (W)', tc: '功率 (W)', ja: '電力 (W)' },
  voltage: { en: 'Voltage (V)', cn: '电压 (V)', tc: '電壓 (V)', ja: '電圧 (V)' },
  current: { en: 'Current (A)', cn: '电流 (A)', tc: '電流 (A)', ja: '電流 (A)' },
  energy: { en: 'Energy (kWh)', cn: '电能 (kWh)', tc: '電能 (kWh)', ja: '電力量 (kWh)' },
  battery: { en: 'Battery (%)', cn: '电池 (%)', tc: '電池 (%)', ja: 'バッテリー (%)' },
  temperature: { en: 'Temperature (°C)', cn: '温度 (°C)', tc: '溫度 (°C)', ja: '温度 (°C)' },
  lastUpdate: { en: 'Last report (UTC)', cn: '最后上报 (UTC)', tc: '最後上報 (UTC)', ja: '最終報告 (UTC)' },
} satisfies Record<string, Localised>;

type Header = keyof typeof HEADERS;

/** The kind of a device type code in the reader's language; empty for a code no kind has. */
function kindText(type: number, lang: Lang): string {
  const kind = deviceType(type)?.kind;
  return kind && Object.hasOwn(DEVICE_KIND_TEXT, kind) ? DEVICE_KIND_TEXT[kind as DeviceKindName][lang] : '';
}

const at = (iso: string | null) => (iso === null ? null : new Date(iso));

/** The name of a report's sheet and file. */
export function reportName(report: 'failSheet' | 'statusSheet' | 'mapSheet', lang: Lang, suffix = '') {
  return workbookName(HEADERS[report][lang], suffix);
}

/** The failure report (download_fail_report): the fault list's columns. */
export function alertColumns(lang: Lang): SheetColumn<Alert>[] {
  const t = (key: Header) => HEADERS[key][lang];
  return [
    { header: t('device'), width: 26, value: (a) => a.name },
    { header: t('code'), width: 10, value: (a) => a.code },
    { header: t('meaning'), width: 24, value: (a) => FAULT_TEXT[a.code]?.[lang] ?? '' },
    { header: t('project'), value: (a) => a.projectName },
    { header: t('building'), value: (a) => a.buildName },
    { header: t('map'), value: (a) => a.mapName },
    { header: t('gateway'), width: 22, value: (a) => a.gatewayName },
    { header: t('raisedAt'), width: 20, value: (a) => at(a.raisedAt) },
    { header: t('clearedAt'), width: 20, value: (a) => at(a.clearedAt) },
    { header: t('state'), width: 12, value: (a) => t(a.state) },
    { header: t('handledBy'), value: (a) => a.handledBy },
    { header: t('handledAt'), width: 20, value: (a) => at(a.handledAt) },
    { header: t('note'), width: 40, value: (a) => a.note },
  ];
}

/** The device status report (download_status_report) and a map's devices report: a device, its state and readings. */
export function deviceColumns(lang: Lang): SheetColumn<Device>[] {
  const t = (key: Header) => HEADERS[key][lang];
  return [
    { header: t('name'), width: 26, value: (d) => d.name },
    { header: t('typeCode'), width: 10, value: (d) => d.type },
    { header: t('kind'), width: 22, value: (d) => kindText(d.type, lang) },
    { header: t('mac'), width: 20, value: (d) => d.addr },
    { header: t('gateway'), width: 22, value: (d) => d.gatewayName },
    { header: t('map'), value: (d) => d.mapName },
    { header: t('display'), width: 16, value: (d) => DISPLAY_TEXT[d.display][lang] },
    { header: t('online'), width: 10, value: (d) => t(d.display === 'offline' ? 'no' : 'yes') },
    { header: t('code'), width: 10, value: (d) => d.fault },
    { header: t('meaning'), width: 24, value: (d) => (d.fault ? (FAULT_TEXT[d.fault]?.[lang] ?? '') : '') },
    { header: t('power'), width: 11, value: (d) => d.power },
    { header: t('voltage'), width: 11, value: (d) => d.voltage },
    { header: t('current'), width: 11, value: (d) => d.current },
    { header: t('energy'), width: 12, value: (d) => (d.energyWh === null ? null : Math.round(d.energyWh) / 1000) },
    { header: t('battery'), width: 11, value: (d) => d.battery },
    { header: t('temperature'), width: 12, value: (d) => d.temperature },
    { header: t('lastUpdate'), width: 20, value: (d) => at(d.lastUpdate) },
  ];
}
