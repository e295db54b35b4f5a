import { XLSX_MIME, type EndpointSpec, type Lang } from '@lumigrid/contract';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { App } from '../http/types.ts';

/** A sheet's rows as their cells' values, the first column first (ExcelJS counts from 1); empty rows are left out. */
export function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/**
 * A workbook export as the browser downloads it: `body` posted as `token`, headers in `lang`. Checks that a
 * named workbook came back and answers its first sheet's rows.
 */
export async function downloadWorkbook(app: App, endpoint: EndpointSpec, body: object, { token, lang }: { token: string; lang: Lang }) {
  const res = await app.inject({
    method: 'POST',
    url: endpoint.path,
    payload: body,
    headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe(XLSX_MIME);
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.xlsx"; filename\*=UTF-8''/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return rowsOf(book.worksheets[0]!);
}
