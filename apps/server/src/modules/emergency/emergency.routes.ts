import { emergencyEndpoints as E, type LogBookReportBody } from '@lumigrid/contract';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../http/auth.ts';
import type { RouteOf } from '../../http/endpoint-route.ts';
import { requestLang } from '../../http/envelope.ts';
import { serverTexts } from '../../i18n/server-texts.ts';
import { sendTable, workbookName } from '../../lib/excel.ts';
import { logBookColumns, recordColumns } from './emergency-reports.ts';
import type { EmergencyService } from './emergency.service.ts';
import { sendLogBookPdf } from './log-book-pdf.ts';

const day = (at: Date) => at.toISOString().slice(0, 10);

/** The emergency calls of the endpoint table (contract endpoints/emergency.ts). */
export function registerEmergencyRoutes(route: RouteOf, deps: { emergency: EmergencyService }) {
  const { emergency } = deps;

  route(E.tasks, ({ auth, body }) => emergency.tasks(auth, body));
  route(E.save, ({ auth, body }) => emergency.save(auth, body));
  route(E.execute, ({ auth, params }) => emergency.execute(auth, params));
  route(E.get, ({ auth, params }) => emergency.get(auth, params));
  route(E.tree, ({ auth, params }) => emergency.tree(auth, params));
  route(E.mapState, ({ auth, params }) => emergency.mapState(auth, params.id));
  route(E.runs, ({ auth, body }) => emergency.runs(auth, body));
  route(E.runDetails, ({ auth, body }) => emergency.runDetails(auth, body));
  route(E.deviceRecords, ({ auth, body }) => emergency.deviceRecords(auth, body));
  route(E.logBook, ({ auth, body }) => emergency.logBook(auth, body));
  route(E.acknowledge, ({ auth, body }) => emergency.acknowledge(auth, body));
  route(E.repair, ({ auth, body }) => emergency.repair(auth, body));
  route(E.compliance, ({ auth, body }) => emergency.compliance(auth, body));

  route(E.report, async ({ auth, body, request, reply }) => {
    const lang = requestLang(request);
    const batches = await emergency.report(auth, body);
    const t = serverTexts(lang).emergencyReport;
    return sendTable(reply, { ...workbookName(t.records), columns: recordColumns(lang) }, batches);
  });

  /** A log book's report, with the reader's language and its texts (the workbook and the PDF). */
  async function logBookReport(auth: AuthContext, body: LogBookReportBody, request: FastifyRequest) {
    const lang = requestLang(request);
    return { lang, t: serverTexts(lang).emergencyReport, book: await emergency.logBookReport(auth, body) };
  }

  route(E.logBookExcel, async ({ auth, body, request, reply }) => {
    const { lang, t, book } = await logBookReport(auth, body, request);
    return sendTable(
      reply,
      { ...workbookName(t.logBook, `${book.project.name} ${day(book.printedAt)}`), columns: logBookColumns(lang, book.timeZone) },
      book.entries,
    );
  });

  route(E.logBookPdf, async ({ auth, body, request, reply }) => {
    const { lang, t, book } = await logBookReport(auth, body, request);
    return sendLogBookPdf(
      reply,
      {
        lang,
        site: book.project.name,
        from: body.from,
        to: body.to,
        printedAt: book.printedAt,
        timeZone: book.timeZone,
        totals: book.totals,
        entries: book.entries,
      },
      `${t.logBook} ${book.project.name} ${day(book.printedAt)}.pdf`,
    );
  });
}
