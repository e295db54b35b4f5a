import {
  EMERGENCY_RESULT_TEXT,
  EMERGENCY_TEST_TEXT,
  FAULT_TEXT,
  LANG_TAGS,
  RECIPIENT_LIMITS,
  savingRate,
  type Lang,
  type ReportContent,
  type ReportUnit,
} from '@lumigrid/contract';
import ExcelJS from 'exceljs';
import { fillText, serverTexts } from '../../i18n/server-texts.ts';
import type { RecipientsRepo } from './recipients.repo.ts';
import type { LocalDate } from './report-schedule.ts';
import { addDays, isoDate } from './report-schedule.ts';

type FaultRow = Awaited<ReturnType<RecipientsRepo['faults']>>['list'][number];

/** What one report holds, read for its period. */
export interface ReportData {
  recipientName: string;
  projectName: string;
  unit: ReportUnit;
  lang: Lang;
  timeZone: string;
  contents: readonly ReportContent[];
  firstDay: LocalDate;
  /** The day after the last day covered. */
  endDay: LocalDate;
  energy: Array<{ day: string; energyWh: number; savedWh: number }>;
  faults: { byCode: Array<{ code: number; count: number }>; list: FaultRow[] };
  /** Emergency test runs started in the period (at most FAULTS_LISTED), oldest first. */
  emergency: Awaited<ReturnType<RecipientsRepo['emergencyRuns']>>;
}

export interface ReportMail {
  subject: string;
  text: string;
  html: string;
  attachment: { filename: string; content: Buffer };
}

const kwh = (wh: number) => Math.round(wh) / 1000;
/** Saved over what would have been used without savings, as a share for a percent-formatted cell. */
const savedShare = (usedWh: number, savedWh: number) => (savingRate(usedWh, savedWh) ?? 0) / 100;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A time as the recipient reads it: its zone, its language. */
function localTime(at: Date, lang: Lang, timeZone: string): string {
  return new Intl.DateTimeFormat(LANG_TAGS[lang], { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

export function periodLabel(firstDay: LocalDate, endDay: LocalDate): string {
  const last = addDays(endDay, -1);
  const first = isoDate(firstDay);
  return first === isoDate(last) ? first : `${first} \u2013 ${isoDate(last)}`;
}

/** A fault's text in the recipient's language. */
export function faultName(code: number, lang: Lang): string {
  return FAULT_TEXT[code]?.[lang] ?? String(code);
}

/** The report as a mail: a short HTML summary (and its plain text) with a workbook of a sheet per content. */
export async function buildReportMail(data: ReportData): Promise<ReportMail> {
  const t = serverTexts(data.lang).reportMail;
  const period = periodLabel(data.firstDay, data.endDay);
  const totalUsed = data.energy.reduce((sum, d) => sum + d.energyWh, 0);
  const totalSaved = data.energy.reduce((sum, d) => sum + d.savedWh, 0);
  const faultTotal = data.faults.byCode.reduce((sum, f) => sum + f.count, 0);
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

  const book = new ExcelJS.Workbook();
  book.created = new Date(0);
  const sheet = (name: string, headers: Array<[string, number]>) => {
    const s = book.addWorksheet(name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    s.columns = headers.map(([header, width]) => ({ header, width }));
    s.getRow(1).font = { bold: true };
    return s;
  };
  const lines: string[] = [fillText(t.intro, { name: data.recipientName, project: data.projectName, period })];
  const html: string[] = [`<p>${escapeHtml(lines[0]!)}</p>`];

  for (const content of data.contents) {
    if (content === 'energy') {
      const s = sheet(t.energy, [
        [t.day, 14],
        [t.usedKwh, 16],
        [t.savedKwh, 16],
        [t.savingRate, 14],
      ]);
      for (const d of data.energy) s.addRow([d.day, kwh(d.energyWh), kwh(d.savedWh), savedShare(d.energyWh, d.savedWh)]);
      s.addRow([t.total, kwh(totalUsed), kwh(totalSaved), savedShare(totalUsed, totalSaved)]).font = { bold: true };
      s.getColumn(4).numFmt = '0.0%';
      const summary =
        data.energy.length === 0
          ? t.noEnergy
          : `${t.usedKwh}: ${kwh(totalUsed)} \u00b7 ${t.savedKwh}: ${kwh(totalSaved)} \u00b7 ${t.savingRate}: ${percent(savedShare(totalUsed, totalSaved))}`;
      lines.push(`${t.energy}: ${summary}`);
      html.push(`<h3>${escapeHtml(t.energy)}</h3><p>${escapeHtml(summary)}</p>`);
    }
    if (content === 'faults') {
      const s = sheet(t.faults, [
        [t.raisedAt, 20],
        [t.device, 24],
        [t.gateway, 20],
        [t.code, 8],
        [t.fault, 24],
        [t.clearedAt, 20],
      ]);
      for (const f of data.faults.list) {
        s.addRow([
          localTime(f.raisedAt, data.lang, data.timeZone),
          f.name,
          f.gatewayName,
          f.code,
          faultName(f.code, data.lang),
          f.clearedAt ? localTime(f.clearedAt, data.lang, data.timeZone) : '',
        ]);
      }
      const byCode = data.faults.byCode.map((f) => `${faultName(f.code, data.lang)} (${f.code}): ${f.count}`);
      lines.push(`${t.faults}: ${fillText(t.faultCount, { count: faultTotal })}`, ...byCode.map((b) => `  ${b}`));
      html.push(
        `<h3>${escapeHtml(t.faults)}</h3><p>${escapeHtml(fillText(t.faultCount, { count: faultTotal }))}</p>`,
        byCode.length ? `<ul>${byCode.map((b) => `<li>${escapeHtml(b)}</li>`).join('')}</ul>` : '',
      );
      if (faultTotal > data.faults.list.length) {
        const more = fillText(t.moreFaults, { shown: data.faults.list.length, total: faultTotal });
        s.addRow([more]);
        lines.push(`  ${more}`);
        html.push(`<p>${escapeHtml(more)}</p>`);
      }
    }
    if (content === 'emergency') {
      const widths = [20, 22, 16, 12, 10, 10, 10];
      const s = sheet(
        t.emergency,
        t.emergencyColumns.map((header, i) => [header, widths[i]!] as [string, number]),
      );
      if (data.emergency.length === 0) {
        s.addRow([t.noEmergency]);
        lines.push(`${t.emergency}: ${t.noEmergency}`);
        html.push(`<h3>${escapeHtml(t.emergency)}</h3><p>${escapeHtml(t.noEmergency)}</p>`);
      } else {
        const summary: string[] = [];
        for (const run of data.emergency) {
          const result = run.result ? EMERGENCY_RESULT_TEXT[run.result][data.lang] : t.testing;
          const test = EMERGENCY_TEST_TEXT[run.test][data.lang];
          s.addRow([localTime(run.startedAt, data.lang, data.timeZone), run.taskName, test, result, run.total, run.passed, run.failed]);
          summary.push(
            `${localTime(run.startedAt, data.lang, data.timeZone)} ${run.taskName} (${test}): ${result}, ${run.passed}/${run.total}`,
          );
        }
        lines.push(`${t.emergency}:`, ...summary.map((line) => `  ${line}`));
        html.push(`<h3>${escapeHtml(t.emergency)}</h3><ul>${summary.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`);
      }
    }
  }
  lines.push('', t.attached, `${t.timeZone}: ${data.timeZone}`);
  html.push(`<p>${escapeHtml(t.attached)}</p><p style="color:#888">${escapeHtml(`${t.timeZone}: ${data.timeZone}`)}</p>`);

  const content = Buffer.from(await book.xlsx.writeBuffer());
  return {
    subject: fillText(t.subject[data.unit], { project: data.projectName, period }),
    text: lines.join('\n'),
    html: `<!doctype html><html lang="${LANG_TAGS[data.lang]}"><body>${html.join('')}</body></html>`,
    attachment: { filename: `report-${isoDate(data.firstDay)}.xlsx`, content },
  };
}

/** A real-time fault mail: the faults raised since the recipient's last one. */
export function buildFaultMail(input: { projectName: string; lang: Lang; timeZone: string; faults: FaultRow[] }) {
  const t = serverTexts(input.lang).reportMail;
  const rows = input.faults.map(
    (f) =>
      `${localTime(f.raisedAt, input.lang, input.timeZone)}  ${f.name} (${f.gatewayName}): ${faultName(f.code, input.lang)} [${f.code}]`,
  );
  const text = [fillText(t.faultIntro, { project: input.projectName }), ...rows, '', `${t.timeZone}: ${input.timeZone}`].join('\n');
  const items = rows.map((r) => `<li>${escapeHtml(r)}</li>`).join('');
  const html = `<!doctype html><html lang="${LANG_TAGS[input.lang]}"><body><p>${escapeHtml(fillText(t.faultIntro, { project: input.projectName }))}</p><ul>${items}</ul></body></html>`;
  return { subject: fillText(t.faultSubject, { project: input.projectName, count: rows.length }), text, html };
}

export const FAULTS_LISTED = RECIPIENT_LIMITS.faultsListed;
