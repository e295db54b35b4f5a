import {
  DEVICE_KIND_TEXT,
  DISPLAY_TEXT,
  FAULT_TEXT,
  deviceType,
  type Alert,
  type Device,
  type DeviceKindName,
  type Lang,
} from '@lumigrid/contract';
import { serverTexts } from '../../i18n/server-texts.ts';
import { workbookName, type SheetColumn } from '../../lib/excel.ts';

/** The kind of a device type code in the reader's language; empty for a code no kind has. */
function kindText(type: number, lang: Lang): string {
  const kind = deviceType(type)?.kind;
  return kind && Object.hasOwn(DEVICE_KIND_TEXT, kind) ? DEVICE_KIND_TEXT[kind as DeviceKindName][lang] : '';
}

const at = (iso: string | null) => (iso === null ? null : new Date(iso));

/** The name of a report's sheet and file. */
export function reportName(report: 'failSheet' | 'statusSheet' | 'mapSheet', lang: Lang, suffix = '') {
  return workbookName(serverTexts(lang).statusReport[report], suffix);
}

/** The failure report (download_fail_report): the fault list's columns. */
export function alertColumns(lang: Lang): SheetColumn<Alert>[] {
  const t = serverTexts(lang).statusReport;
  return [
    { header: t.device, width: 26, value: (a) => a.name },
    { header: t.code, width: 10, value: (a) => a.code },
    { header: t.meaning, width: 24, value: (a) => FAULT_TEXT[a.code]?.[lang] ?? '' },
    { header: t.project, value: (a) => a.projectName },
    { header: t.building, value: (a) => a.buildName },
    { header: t.map, value: (a) => a.mapName },
    { header: t.gateway, width: 22, value: (a) => a.gatewayName },
    { header: t.raisedAt, width: 20, value: (a) => at(a.raisedAt) },
    { header: t.clearedAt, width: 20, value: (a) => at(a.clearedAt) },
    { header: t.state, width: 12, value: (a) => t[a.state] },
    { header: t.handledBy, value: (a) => a.handledBy },
    { header: t.handledAt, width: 20, value: (a) => at(a.handledAt) },
    { header: t.note, width: 40, value: (a) => a.note },
  ];
}

/** The device status report (download_status_report) and a map's devices report: a device, its state and readings. */
export function deviceColumns(lang: Lang): SheetColumn<Device>[] {
  const t = serverTexts(lang).statusReport;
  return [
    { header: t.name, width: 26, value: (d) => d.name },
    { header: t.typeCode, width: 10, value: (d) => d.type },
    { header: t.kind, width: 22, value: (d) => kindText(d.type, lang) },
    { header: t.mac, width: 20, value: (d) => d.addr },
    { header: t.gateway, width: 22, value: (d) => d.gatewayName },
    { header: t.map, value: (d) => d.mapName },
    { header: t.display, width: 16, value: (d) => DISPLAY_TEXT[d.display][lang] },
    { header: t.online, width: 10, value: (d) => (d.display === 'offline' ? t.no : t.yes) },
    { header: t.code, width: 10, value: (d) => d.fault },
    { header: t.meaning, width: 24, value: (d) => (d.fault ? (FAULT_TEXT[d.fault]?.[lang] ?? '') : '') },
    { header: t.power, width: 11, value: (d) => d.power },
    { header: t.voltage, width: 11, value: (d) => d.voltage },
    { header: t.current, width: 11, value: (d) => d.current },
    { header: t.energy, width: 12, value: (d) => (d.energyWh === null ? null : Math.round(d.energyWh) / 1000) },
    { header: t.battery, width: 11, value: (d) => d.battery },
    { header: t.temperature, width: 12, value: (d) => d.temperature },
    { header: t.lastUpdate, width: 20, value: (d) => at(d.lastUpdate) },
  ];
}
