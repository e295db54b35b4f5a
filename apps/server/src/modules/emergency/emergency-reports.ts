import {
  durationClock,
  EMERGENCY_RESULT_TEXT,
  EMERGENCY_TEST_TEXT,
  FAULT_TEXT,
  LOG_BOOK_TYPE_TEXT,
  type EmergencyRecord,
  type Lang,
  type LogBookEntry,
  type Localised,
} from '@lumigrid/contract';
import { wallClock } from '@lumigrid/protocol';
import type { SheetColumn } from '../../lib/excel.ts';

type Texts = Record<
  | 'records'
  | 'logBook'
  | 'task'
  | 'device'
  | 'addr'
  | 'map'
  | 'test'
  | 'wave'
  | 'result'
  | 'state'
  | 'fault'
  | 'voltageBefore'
  | 'voltageAfter'
  | 'duration'
  | 'batteryVoltage'
  | 'batteryCurrent'
  | 'batteryTemperature'
  | 'batteryCells'
  | 'power'
  | 'started'
  | 'finished'
  | 'seq'
  | 'date'
  | 'type'
  | 'note'
  | 'by'
  | 'acknowledgedBy'
  | 'testing'
  | 'site'
  | 'period'
  | 'printed'
  | 'totals'
  | 'allTime'
  | 'inspector'
  | 'signature'
  | 'signDate'
  | 'entries'
  | 'noEntries'
  | 'building'
  | 'durationAchievedS'
  | 'ratedDurationS'
  | 'durationAgainstRated'
  | 'startedBy'
  | 'stoppedBy'
  | 'trigger'
  | 'manual'
  | 'scheduled'
  | 'timeZone',
  string
>;

/** Headers and labels of the emergency workbooks and the log-book PDF. */
export const EMERGENCY_REPORT_TEXTS: Record<Lang, Texts> = {
  en: {
    records: 'Emergency test records',
    logBook: 'Emergency lighting log book',
    task: 'Task',
    device: 'Luminaire',
    addr: 'Address',
    map: 'Map',
    test: 'Test',
    wave: 'Wave',
    result: 'Result',
    state: 'State code',
    fault: 'Fault',
    voltageBefore: 'Voltage before (V)',
    voltageAfter: 'Voltage after (V)',
    duration: 'Test duration (s)',
    batteryVoltage: 'Battery voltage (V)',
    batteryCurrent: 'Battery current (A)',
    batteryTemperature: 'Battery temperature (°C)',
    batteryCells: 'Battery cells',
    power: 'Power (W)',
    started: 'Started',
    finished: 'Finished',
    seq: 'No.',
    date: 'Date',
    type: 'Type',
    note: 'Note',
    by: 'By',
    acknowledgedBy: 'Acknowledged by',
    testing: 'Testing',
    site: 'Site',
    period: 'Period',
    printed: 'Printed',
    totals: 'Totals',
    allTime: 'All entries',
    inspector: 'Inspector',
    signature: 'Signature',
    signDate: 'Date',
    entries: 'entries',
    noEntries: 'No entries in this period.',
    building: 'Building',
    durationAchievedS: 'Duration achieved (s)',
    ratedDurationS: 'Rated duration (s)',
    durationAgainstRated: 'Duration (achieved / rated)',
    startedBy: 'Started by',
    stoppedBy: 'Stopped by',
    trigger: 'Started',
    manual: 'By hand',
    scheduled: 'Scheduled',
    timeZone: 'Time zone',
  },
  cn: {
    records: '应急测试记录',
    logBook: '应急照明日志',
    task: '任务',
    device: '灯具',
    addr: '地址',
    map: '地图',
    test: '测试',
    wave: '批次',
    result: '结果',
    state: '状态码',
    fault: '故障',
    voltageBefore: '测试前电压 (V)',
    voltageAfter: '测试后电压 (V)',
    duration: '测试时长 (秒)',
    batteryVoltage: '电池电压 (V)',
    batteryCurrent: '电池电流 (A)',
    batteryTemperature: '电池温度 (°C)',
    batteryCells: '电池节数',
    power: '功率 (W)',
    started: '开始时间',
    finished: '结束时间',
    seq: '序号',
    date: '日期',
    type: '类型',
    note: '备注',
    by: '操作人',
    acknowledgedBy: '确认人',
    testing: '测试中',
    site: '场所',
    period: '期间',
    printed: '打印时间',
    totals: '合计',
    allTime: '全部记录',
    inspector: '检查员',
    signature: '签名',
    signDate: '日期',
    entries: '条',
    noEntries: '该期间没有记录。',
    building: '建筑',
    durationAchievedS: '实际持续时间 (秒)',
    ratedDurationS: '额定持续时间 (秒)',
    durationAgainstRated: '持续时间 (实际 / 额定)',
    startedBy: '启动人',
    stoppedBy: '停止人',
    trigger: '启动方式',
    manual: '手动',
    scheduled: '计划',
    timeZone: '时区',
  },
  tc: {
    records: '應急測試記錄',
    logBook: '應急照明日誌',
    task: '任務',
    device: '燈具',
    addr: '位址',
    map: '地圖',
    test: '測試',
    wave: '批次',
    result: '結果',
    state: '狀態碼',
    fault: '故障',
    voltageBefore: '測試前電壓 (V)',
    voltageAfter: '測試後電壓 (V)',
    duration: '測試時長 (秒)',
    batteryVoltage: '電池電壓 (V)',
    batteryCurrent: '電池電流 (A)',
    batteryTemperature: '電池溫度 (°C)',
    batteryCells: '電池節數',
    power: '功率 (W)',
    started: '開始時間',
    finished: '結束時間',
    seq: '序號',
    date: '日期',
    type: '類型',
    note: '備註',
    by: '操作人',
    acknowledgedBy: '確認人',
    testing: '測試中',
    site: '場所',
    period: '期間',
    printed: '列印時間',
    totals: '合計',
    allTime: '全部記錄',
    inspector: '檢查員',
    signature: '簽名',
    signDate: '日期',
    entries: '筆',
    noEntries: '該期間沒有記錄。',
    building: '建築',
    durationAchievedS: '實際持續時間 (秒)',
    ratedDurationS: '額定持續時間 (秒)',
    durationAgainstRated: '持續時間 (實際 / 額定)',
    startedBy: '啟動人',
    stoppedBy: '停止人',
    trigger: '啟動方式',
    manual: '手動',
    scheduled: '排程',
    timeZone: '時區',
  },
  ja: {
    records: '非常用点検記録',
    logBook: '非常用照明点検記録簿',
    task: 'タスク',
    device: '照明器具',
    addr: 'アドレス',
    map: 'マップ',
    test: '点検',
    wave: 'グループ',
    result: '結果',
    state: '状態コード',
    fault: '故障',
    voltageBefore: '点検前電圧 (V)',
    voltageAfter: '点検後電圧 (V)',
    duration: '点検時間 (秒)',
    batteryVoltage: 'バッテリー電圧 (V)',
    batteryCurrent: 'バッテリー電流 (A)',
    batteryTemperature: 'バッテリー温度 (°C)',
    batteryCells: 'バッテリーセル数',
    power: '電力 (W)',
    started: '開始',
    finished: '終了',
    seq: '番号',
    date: '日時',
    type: '種別',
    note: '備考',
    by: '記入者',
    acknowledgedBy: '確認者',
    testing: '点検中',
    site: '施設',
    period: '期間',
    printed: '印刷日時',
    totals: '合計',
    allTime: 'すべての記録',
    inspector: '点検者',
    signature: '署名',
    signDate: '日付',
    entries: '件',
    noEntries: 'この期間の記録はありません。',
    building: '建物',
    durationAchievedS: '実測点灯時間 (秒)',
    ratedDurationS: '定格点灯時間 (秒)',
    durationAgainstRated: '点灯時間 (実測 / 定格)',
    startedBy: '開始者',
    stoppedBy: '停止者',
    trigger: '開始方法',
    manual: '手動',
    scheduled: '定期',
    timeZone: 'タイムゾーン',
  },
};

const local = (text: Localised | undefined, lang: Lang) => (text ? text[lang] : '');

/** A record's outcome in words. */
export function recordResultText(record: Pick<EmergencyRecord, 'passed' | 'faultCode' | 'finishedAt'>, lang: Lang): string {
  if (record.finishedAt === null) return EMERGENCY_REPORT_TEXTS[lang].testing;
  if (record.passed) return EMERGENCY_RESULT_TEXT.pass[lang];
  return record.faultCode !== null ? EMERGENCY_RESULT_TEXT.failed[lang] : EMERGENCY_RESULT_TEXT.stopped[lang];
}

/** The columns of download_emergency_report. */
export function recordColumns(lang: Lang): SheetColumn<EmergencyRecord>[] {
  const t = EMERGENCY_REPORT_TEXTS[lang];
  return [
    { header: t.task, width: 20, value: (r) => r.taskName },
    { header: t.device, width: 22, value: (r) => r.deviceName },
    { header: t.addr, width: 18, value: (r) => r.addr },
    { header: t.map, width: 16, value: (r) => r.mapName },
    { header: t.test, width: 14, value: (r) => EMERGENCY_TEST_TEXT[r.test][lang] },
    { header: t.wave, width: 8, value: (r) => r.wave },
    { header: t.result, width: 12, value: (r) => recordResultText(r, lang) },
    { header: t.state, width: 10, value: (r) => r.state },
    { header: t.fault, width: 24, value: (r) => (r.faultCode === null ? '' : local(FAULT_TEXT[r.faultCode], lang)) },
    { header: t.voltageBefore, value: (r) => r.voltageBefore },
    { header: t.voltageAfter, value: (r) => r.voltageAfter },
    { header: t.duration, value: (r) => (r.durationS === null ? null : Math.round(r.durationS)) },
    { header: t.batteryVoltage, value: (r) => r.batteryVoltage },
    { header: t.batteryCurrent, value: (r) => r.batteryCurrent },
    { header: t.batteryTemperature, value: (r) => r.batteryTemperature },
    { header: t.batteryCells, width: 12, value: (r) => r.batteryCells },
    { header: t.power, width: 12, value: (r) => r.powerW },
    { header: t.started, width: 20, value: (r) => (r.startedAt ? new Date(r.startedAt) : null) },
    { header: t.finished, width: 20, value: (r) => (r.finishedAt ? new Date(r.finishedAt) : null) },
  ];
}

/** What an entry says in the result column: the outcome, or the fault of a failure. */
export function logResultText(entry: Pick<LogBookEntry, 'type' | 'result' | 'faultCode'>, lang: Lang): string {
  if (entry.type === 'failure')
    return `${EMERGENCY_RESULT_TEXT.failed[lang]}${entry.faultCode ? `: ${local(FAULT_TEXT[entry.faultCode], lang)}` : ''}`;
  // A repair names the fault it repaired, when it came from that fault's alert.
  if (entry.type === 'repair') return entry.faultCode ? local(FAULT_TEXT[entry.faultCode], lang) : '';
  return entry.result ? EMERGENCY_RESULT_TEXT[entry.result][lang] : '';
}

/** A time on the site's wall clock, `YYYY-MM-DD HH:mm`: the log book's entries read as the site lived them. */
export function siteTime(at: string | Date, timeZone: string): string {
  return new Date(wallClock(new Date(at).getTime(), timeZone)).toISOString().slice(0, 16).replace('T', ' ');
}

/** A test's duration achieved against the duration it asked for (EN 50172: the rated duration of a duration test). */
export function logDurationText(entry: Pick<LogBookEntry, 'durationS' | 'ratedDurationS'>): string {
  if (entry.ratedDurationS === null) return entry.durationS === null ? '' : durationClock(entry.durationS);
  return `${entry.durationS === null ? '\u2014' : durationClock(entry.durationS)} / ${durationClock(entry.ratedDurationS)}`;
}

/**
 * Who the entry names, one line each: for a test or failure who started the run by hand (or that its recurrence
 * did) and who stopped it; for a repair or acknowledgement who wrote it; and who acknowledged a failure.
 */
export function logByText(entry: LogBookEntry, lang: Lang): string {
  const t = EMERGENCY_REPORT_TEXTS[lang];
  const lines: string[] = [];
  if (entry.trigger === 'schedule') lines.push(t.scheduled);
  if (entry.startedBy) lines.push(`${t.startedBy}: ${entry.startedBy}`);
  if (entry.stoppedBy) lines.push(`${t.stoppedBy}: ${entry.stoppedBy}`);
  if (entry.by) lines.push(entry.by);
  if (entry.acknowledged) lines.push(`${t.acknowledgedBy}: ${entry.acknowledged.by}`);
  return lines.join('\n');
}

/** The columns of the log book's workbook: what the PDF shows, a field a column, times in the site's zone. */
export function logBookColumns(lang: Lang, timeZone: string): SheetColumn<LogBookEntry>[] {
  const t = EMERGENCY_REPORT_TEXTS[lang];
  return [
    { header: t.seq, width: 8, value: (e) => e.seq },
    { header: `${t.date} (${timeZone})`, width: 20, value: (e) => siteTime(e.at, timeZone) },
    { header: t.type, width: 16, value: (e) => LOG_BOOK_TYPE_TEXT[e.type][lang] },
    { header: t.test, width: 14, value: (e) => (e.test ? EMERGENCY_TEST_TEXT[e.test][lang] : '') },
    { header: t.device, width: 22, value: (e) => e.deviceName },
    { header: t.addr, width: 18, value: (e) => e.addr },
    { header: t.building, width: 16, value: (e) => e.buildName },
    { header: t.map, width: 16, value: (e) => e.mapName },
    { header: t.result, width: 24, value: (e) => logResultText(e, lang) },
    { header: t.durationAchievedS, width: 14, value: (e) => (e.durationS === null ? null : Math.round(e.durationS)) },
    { header: t.ratedDurationS, width: 14, value: (e) => e.ratedDurationS },
    { header: t.note, width: 30, value: (e) => e.note },
    { header: t.task, width: 20, value: (e) => e.taskName },
    { header: t.trigger, width: 12, value: (e) => (e.trigger === null ? '' : e.trigger === 'manual' ? t.manual : t.scheduled) },
    { header: t.startedBy, width: 16, value: (e) => e.startedBy },
    { header: t.stoppedBy, width: 16, value: (e) => e.stoppedBy },
    { header: t.by, width: 16, value: (e) => e.by },
    { header: t.acknowledgedBy, width: 16, value: (e) => e.acknowledged?.by ?? '' },
  ];
}
