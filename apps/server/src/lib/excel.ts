import { XLSX_MIME } from '@lumigrid/contract';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

/** One column of an exported table: its header in the reader's language and how a row fills it. */
export interface SheetColumn<Row> {
  header: string;
  /** Width in characters. */
  width?: number;
  value: (row: Row) => string | number | Date | null;
}

/** A one-sheet workbook of a table, header row bold and frozen, as the tables of the interface export. */
export async function tableWorkbook<Row>(sheetName: string, columns: SheetColumn<Row>[], rows: readonly Row[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.created = new Date(0);
  const sheet = book.addWorksheet(sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((c) => c.value(row)));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Answers a workbook as a download; the name is ASCII-safe with the full name in filename*. */
export function sendWorkbook(reply: FastifyReply, data: Buffer, fileName: string) {
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(data);
}
