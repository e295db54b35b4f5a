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
import { serverTexts } from '../../i18n/server-texts.ts';
import type { SheetColumn } from '../../lib/excel.ts';

const local = (text: Localised | undefined, lang: Lang) => (text ? text[lang] : '');

/** A record's outcome in words. */
export function recordResultText(record: Pick<EmergencyRecord, 'passed' | 'faultCode' | 'finishedAt'>, lang: Lang): string {
  if (record.finishedAt === null) return serverTexts(lang).emergencyReport.testing;
  if (record.passed) return EMERGENCY_RESULT_TEXT.pass[lang];
  return record.faultCode !== null ? EMERGENCY_RESULT_TEXT.failed[lang] : EMERGENCY_RESULT_TEXT.stopped[lang];
}

/** The columns of download_emergency_report. */
export function recordColumns(lang: Lang): SheetColumn<EmergencyRecord>[] {
  const t = serverTexts(lang).emergencyReport;
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
  const t = serverTexts(lang).emergencyReport;
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
  const t = serverTexts(lang).emergencyReport;
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
