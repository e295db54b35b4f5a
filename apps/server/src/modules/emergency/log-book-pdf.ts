import { existsSync } from 'node:fs';
import { EMERGENCY_TEST_TEXT, LOG_BOOK_TYPE_TEXT, PDF_MIME, type Lang, type LogBookEntry } from '@lumigrid/contract';
import type { FastifyReply } from 'fastify';
import PDFDocument from 'pdfkit';
import { serverTexts } from '../../i18n/server-texts.ts';
import { sendDownload } from '../../lib/download.ts';
import { logByText, logDurationText, logResultText, siteTime } from './emergency-reports.ts';

/** Debian's fonts-noto-cjk: Chinese and Japanese in one face. Without it the PDF falls back to Helvetica (Latin only). */
const CJK_FONT = { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' };

export interface LogBookPdf {
  lang: Lang;
  site: string;
  from?: string;
  to?: string;
  printedAt: Date;
  /** The site's IANA zone: every time in the book is on its wall clock. */
  timeZone: string;
  totals: Array<{ type: string; result: string | null; n: number }>;
  entries: AsyncIterable<readonly LogBookEntry[]>;
}

/**
 * Streams a project's log book as an A4 landscape PDF an inspector can sign: the site, its time zone and the period,
 * the entries in order as a table (continued over pages, the header repeated), totals by type, and signature and date
 * lines. Each entry has what EN 50172 and EN 62034 ask a log book to show (docs/operations.md "The log book and the
 * standards"): when, the test kind, the luminaire and where it is, the result and fault, the duration achieved
 * against the duration asked for, the note (what was done), and who started or stopped the test by hand or wrote the
 * entry. Times are on the site's wall clock, the zone named in the header and the date column.
 */
export function sendLogBookPdf(reply: FastifyReply, book: LogBookPdf, fileName: string): FastifyReply {
  const t = serverTexts(book.lang).emergencyReport;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    bufferPages: true,
    info: { Title: `${t.logBook} - ${book.site}` },
  });
  const font = existsSync(CJK_FONT.path) ? 'body' : 'Helvetica';
  if (font === 'body') doc.registerFont('body', CJK_FONT.path, CJK_FONT.family);
  doc.font(font);

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const zone = book.timeZone;
  const columns: Array<{ header: string; share: number; value: (e: LogBookEntry) => string }> = [
    { header: t.seq, share: 0.04, value: (e) => String(e.seq) },
    { header: `${t.date} (${zone})`, share: 0.1, value: (e) => siteTime(e.at, zone) },
    { header: t.type, share: 0.08, value: (e) => LOG_BOOK_TYPE_TEXT[e.type][book.lang] },
    { header: t.test, share: 0.08, value: (e) => (e.test ? EMERGENCY_TEST_TEXT[e.test][book.lang] : '') },
    { header: t.device, share: 0.13, value: (e) => [e.deviceName, e.addr].filter(Boolean).join('\n') },
    { header: `${t.building} / ${t.map}`, share: 0.1, value: (e) => [e.buildName, e.mapName].filter(Boolean).join('\n') },
    { header: t.result, share: 0.12, value: (e) => logResultText(e, book.lang) },
    { header: t.durationAgainstRated, share: 0.09, value: (e) => logDurationText(e) },
    { header: t.note, share: 0.13, value: (e) => [e.note, e.taskName].filter(Boolean).join('\n') },
    { header: t.by, share: 0.13, value: (e) => logByText(e, book.lang) },
  ];
  const widths = columns.map((c) => c.share * width);

  function row(values: string[], options: { bold?: boolean; fill?: string } = {}) {
    doc.fontSize(8);
    const height = Math.max(14, ...values.map((v, i) => doc.heightOfString(v, { width: widths[i]! - 6 }) + 6));
    if (doc.y + height > doc.page.height - doc.page.margins.bottom - 10) {
      doc.addPage();
      header();
    }
    const top = doc.y;
    if (options.fill) doc.rect(left, top, width, height).fill(options.fill).fillColor('black');
    let x = left;
    values.forEach((v, i) => {
      doc.text(v, x + 3, top + 3, { width: widths[i]! - 6, lineBreak: true });
      x += widths[i]!;
    });
    doc
      .moveTo(left, top + height)
      .lineTo(left + width, top + height)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.x = left;
    doc.y = top + height;
  }
  const header = () =>
    row(
      columns.map((c) => c.header),
      { fill: '#e8e8e8' },
    );

  doc.fontSize(16).text(t.logBook, left, doc.y);
  doc.moveDown(0.3).fontSize(10);
  doc.text(`${t.site}: ${book.site}`);
  doc.text(`${t.timeZone}: ${zone}`);
  doc.text(
    `${t.period}: ${book.from || book.to ? `${book.from ? siteTime(book.from, zone) : '…'} – ${book.to ? siteTime(book.to, zone) : '…'}` : t.allTime}`,
  );
  doc.text(`${t.printed}: ${siteTime(book.printedAt, zone)}`);
  doc.moveDown(0.6);
  header();

  void (async () => {
    let count = 0;
    for await (const batch of book.entries) {
      for (const entry of batch) {
        row(columns.map((c) => c.value(entry)));
        count++;
      }
    }
    if (count === 0) doc.fontSize(9).text(t.noEntries, left + 3, doc.y + 4, { width: width - 6 });
    if (doc.y > doc.page.height - doc.page.margins.bottom - 120) doc.addPage();
    doc.moveDown(1).fontSize(10).text(`${t.totals}: ${count} ${t.entries}`, left);
    doc.fontSize(9);
    for (const total of book.totals) {
      const label = LOG_BOOK_TYPE_TEXT[total.type as LogBookEntry['type']]?.[book.lang] ?? total.type;
      const result = total.result ? ` (${logResultText({ type: 'test', result: total.result } as LogBookEntry, book.lang)})` : '';
      doc.text(`${label}${result}: ${total.n}`, left + 12);
    }
    // Signature block: the inspector signs and dates the printed book.
    doc.moveDown(2.5).fontSize(10);
    const y = doc.y;
    const line = (x: number, label: string) => {
      doc
        .moveTo(x, y + 18)
        .lineTo(x + 200, y + 18)
        .lineWidth(0.8)
        .strokeColor('black')
        .stroke();
      doc.text(label, x, y + 22, { width: 200 });
    };
    line(left, t.inspector);
    line(left + 260, t.signature);
    line(left + 520, t.signDate);
    // "n / total" on every page, so a signed print shows no page is missing.
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      // In the bottom margin: without lifting it for the footer, pdfkit would start another page.
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .fontSize(8)
        .text(`${book.site} \u00b7 ${i + 1} / ${range.count}`, left, doc.page.height - 24, { width, align: 'right', lineBreak: false });
      doc.page.margins.bottom = bottom;
    }
    doc.end();
  })().catch((err: unknown) => {
    reply.log.error({ err }, 'log book pdf not written');
    doc.destroy(err instanceof Error ? err : new Error(String(err)));
  });

  return sendDownload(reply, { body: doc, mime: PDF_MIME, fileName });
}
