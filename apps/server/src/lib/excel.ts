import { PassThrough } from 'node:stream';
import { XLSX_MIME } from '@lumigrid/contract';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { sendDownload } from './download.ts';

/** One column of an exported table: its header in the reader's language and how a row fills it. */
export interface SheetColumn<Row> {
  header: string;
  /** Width in characters. */
  width?: number;
  value: (row: Row) => string | number | Date | null;
}

/** A one-sheet workbook's names: the sheet's, and the file's after it, with a suffix (a date range, say) when given. */
export function workbookName(sheetName: string, suffix = ''): { sheetName: string; fileName: string } {
  return { sheetName, fileName: `${sheetName}${suffix ? ` ${suffix}` : ''}.xlsx` };
}

/** The rows of a table as they come, a batch at a time, so a long report never sits in memory whole. */
export type RowBatches<Row> = AsyncIterable<readonly Row[]> | Iterable<readonly Row[]>;

/**
 * Answers a one-sheet workbook of a table as a download, header row bold and frozen, written row by row into
 * the response as the batches arrive. Everything that can refuse the request (permissions, filters) must have
 * run before: once this starts, the status is sent. A failure half-way aborts the response, so the reader gets
 * a broken download rather than a short report that looks whole.
 */
export function sendTable<Row>(
  reply: FastifyReply,
  table: { fileName: string; sheetName: string; columns: SheetColumn<Row>[] },
  batches: RowBatches<Row>,
): FastifyReply {
  const body = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: body, useStyles: true, useSharedStrings: false });
  book.created = new Date(0);
  const sheet = book.addWorksheet(table.sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = table.columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  void (async () => {
    for await (const batch of batches) {
      for (const row of batch) sheet.addRow(table.columns.map((c) => c.value(row))).commit();
    }
    sheet.commit();
    await book.commit();
  })().catch((err: unknown) => {
    reply.log.error({ err }, 'spreadsheet not written');
    body.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return sendDownload(reply, { body, mime: XLSX_MIME, fileName: table.fileName });
}
