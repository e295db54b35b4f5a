import { authEndpoints, projectEndpoints, recipientEndpoints, type RecipientAddBody } from '@lumigrid/contract';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { alerts, energyMapDays, jobs, mailRecipients, users } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { SERVICE_DATABASES, api, apiData, expectError, login, sendCode, startApp, type Harness } from '../../test/harness.ts';
import { startSmtpSink, type ReceivedMail } from '../../test/smtp-sink.ts';
import { rowsOf } from '../../test/workbook.ts';
import { REPORT_JOB, reportJobKey } from './recipients.service.ts';

const MINUTE = 60_000;
const OWNER = 'report-owner@example.com';

/** Each recipient its own address, so the sink tells their mails apart. */
const MAIL = {
  daily: 'daily@example.com',
  weekly: 'weekly@example.com',
  monthly: 'monthly@example.com',
  yearly: 'yearly@example.com',
};

async function sheetRows(mail: ReceivedMail): Promise<Record<string, unknown[][]>> {
  const book = new ExcelJS.Workbook();
  const file = mail.attachments.find((a) => a.filename?.endsWith('.xlsx'));
  expect(file, 'an .xlsx attachment').toBeDefined();
  await book.xlsx.load(file!.content as unknown as ArrayBuffer);
  const sheets: Record<string, unknown[][]> = {};
  book.eachSheet((sheet) => {
    sheets[sheet.name] = rowsOf(sheet);
  });
  return sheets;
}

describe.each(SERVICE_DATABASES)('mailed reports on %s', (kind) => {
  let h: Harness;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let token: string;
  let projectId: string;
  let ids: Record<keyof typeof MAIL, string>;

  const add = (body: Omit<RecipientAddBody, 'projectId'>, lang?: 'en' | 'ja' | 'cn' | 'tc') =>
    api(h.app, recipientEndpoints.add, { body: { projectId, ...body } }, { token, lang });
  /** Moves the clock to an instant and runs what is due, as the poller would. */
  const at = async (iso: string) => {
    const target = Date.parse(iso);
    h.clock.advance(target - h.clock.now().getTime());
    await h.app.jobs.runDue();
  };
  /** Runs the clock to a minute before `due` and then to `due`, and answers the one mail sent, at `due` only. */
  const mailSentAt = async (to: keyof typeof MAIL, aMinuteBefore: string, due: string) => {
    await at(aMinuteBefore);
    expect(sink.to(MAIL[to])).toHaveLength(0);
    await at(due);
    const mails = sink.to(MAIL[to]);
    expect(mails).toHaveLength(1);
    return mails[0]!;
  };
  /** A recipient's row as stored: read from the table, since hours on the injected clock end the test's session. */
  const storedRecipient = async (which: keyof typeof MAIL) => {
    const [row] = await h.database.db
      .select()
      .from(mailRecipients)
      .where(eq(mailRecipients.id, BigInt(ids[which])));
    return row!;
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
    h = await startApp(kind, { SMTP_URL: sink.url });
    // Signed up by hand: the verification code arrives at the sink, not in the outbox.
    expect((await sendCode(h, OWNER, 'register')).body.code).toBe(0);
    const code = /\b(\d{6})\b/.exec(sink.to(OWNER).at(-1)!.text)![1]!;
    await apiData(h.app, authEndpoints.registerByMail, { body: { mail: OWNER, code, password: 'Secret-Pass1' } });
    token = await login(h, OWNER, 'Secret-Pass1');

    const tree = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token });
    const project = tree.projects.find((p) => p.isDefault)!;
    projectId = project.id;
    const build = project.builds[0]!;
    const mapId = BigInt(build.maps[0]!.id);
    const [owner] = await h.database.db.select().from(users).where(eq(users.account, OWNER));
    const tenantId = owner!.id;
    const { db } = h.database;
    await db.insert(energyMapDays).values([
      { tenantId, mapId, localDate: '2026-11-21', energyWh: 1000, savedWh: 1000, onS: 3600 },
      { tenantId, mapId, localDate: '2026-11-22', energyWh: 1500, savedWh: 500, onS: 3600 },
    ]);
    const fault = {
      tenantId,
      addr: '0001',
      name: 'Lamp A',
      gatewayName: 'GW 1',
      projectId: BigInt(projectId),
      buildId: BigInt(build.id),
      mapId,
    };
    await db.insert(alerts).values([
      { ...fault, code: 1, raisedAt: new Date('2026-11-21T10:00:00Z'), clearedAt: new Date('2026-11-21T11:00:00Z') },
      { ...fault, code: 8, raisedAt: new Date('2026-11-22T10:00:00Z') },
    ]);

    const made = async (body: Omit<RecipientAddBody, 'projectId'>) =>
      (await apiData(h.app, recipientEndpoints.add, { body: { projectId, ...body } }, { token })).id;
    const all = ['energy', 'faults', 'emergency'] as const;
    ids = {
      // 2026-11-23 is a Monday; the test clock starts at 08:00 UTC.
      daily: await made({
        name: 'Daily',
        mail: MAIL.daily,
        unit: 'day',
        sendTime: '09:00',
        timeZone: 'UTC',
        contents: [...all],
        lang: 'en',
      }),
      weekly: await made({
        name: 'Weekly',
        mail: MAIL.weekly,
        unit: 'week',
        weekday: 3,
        sendTime: '08:00',
        timeZone: 'UTC',
        contents: ['faults'],
        lang: 'en',
      }),
      monthly: await made({
        name: 'Monthly',
        mail: MAIL.monthly,
        unit: 'month',
        monthDay: 'last',
        sendTime: '18:00',
        timeZone: 'Asia/Tokyo',
        contents: ['energy', 'faults'],
        lang: 'ja',
      }),
      yearly: await made({
        name: 'Yearly',
        mail: MAIL.yearly,
        unit: 'year',
        sendTime: '00:00',
        timeZone: 'Europe/London',
        contents: ['energy'],
      }),
    };
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await sink?.close();
  });

  it('lists the recipients with their next send time in their own zone', async () => {
    const list = await apiData(h.app, recipientEndpoints.list, { query: { projectId } }, { token });
    expect(list.map((r) => [r.name, r.nextSendAt, r.monthDay, r.weekday])).toEqual([
      ['Daily', '2026-11-23T09:00:00.000Z', null, null],
      ['Weekly', '2026-11-25T08:00:00.000Z', null, 3],
      ['Monthly', '2026-11-30T09:00:00.000Z', 'last', null],
      ['Yearly', '2027-01-01T00:00:00.000Z', null, null],
    ]);
    // The caller's language when none is given.
    expect(list[3]).toMatchObject({ lang: 'en', lastSentAt: null, lastError: null, realtimeFaults: false });
  });

  it('refuses invalid recipients with localised errors', async () => {
    const base = { name: 'X', mail: 'x@example.com', sendTime: '08:00', timeZone: 'UTC', contents: ['energy' as const] };
    expectError(await add({ ...base, unit: 'month' }, 'ja'), 100303, 'ja');
    expectError(await add({ ...base, unit: 'week' }, 'cn'), 100303, 'cn');
    expectError(await add({ ...base, unit: 'day', timeZone: 'Mars/Olympus' }, 'tc'), 100302, 'tc');
    expectError(await add({ ...base, unit: 'day', contents: [] }, 'en'), 100001);
    expectError(await add({ ...base, unit: 'day', sendTime: '24:00' }), 100001);
    expectError(await add({ ...base, unit: 'day', mail: 'not-a-mail' }), 100001);
    expectError(await add({ ...base, unit: 'day', name: 'n'.repeat(51) }), 100001);
  });

  it('refuses the 51st recipient of a project', async () => {
    const { id: _id, createdAt: _at, ...copy } = await storedRecipient('daily');
    const filler = await h.database.db
      .insert(mailRecipients)
      .values(Array.from({ length: 46 }, (_, i) => ({ ...copy, name: `Filler ${i}`, nextSendAt: new Date('2099-01-01T00:00:00Z') })))
      .returning({ id: mailRecipients.id });
    const base = {
      name: 'One more',
      mail: 'more@example.com',
      unit: 'day' as const,
      sendTime: '08:00',
      timeZone: 'UTC',
      contents: ['energy' as const],
    };
    expectError(await add(base, 'ja'), 100301, 'ja');
    for (const { id } of filler) await apiData(h.app, recipientEndpoints.remove, { query: { id: String(id) } }, { token });
    expect(await apiData(h.app, recipientEndpoints.list, { query: { projectId } }, { token })).toHaveLength(4);
  });

  it('sends a daily report at its time, not before, once however often the runners look', async () => {
    await h.app.jobs.runDue();
    await at('2026-11-23T08:59:00Z');
    expect(sink.to(MAIL.daily)).toHaveLength(0);

    // A second server node on the same database runs due jobs at the same moment.
    const other: App = await buildApp({ config: h.config, database: h.database, clock: h.clock, logger: false, jobs: { start: false } });
    try {
      h.clock.advance(MINUTE);
      await Promise.all([h.app.jobs.runDue(), other.jobs.runDue(), h.app.jobs.runDue()]);
      await Promise.all([h.app.jobs.runDue(), other.jobs.runDue()]);
    } finally {
      await other.close();
    }
    const done = await h.app.jobs.find(REPORT_JOB, reportJobKey(BigInt(ids.daily), new Date('2026-11-23T09:00:00Z')));
    expect(done).toMatchObject({ state: 'done', attempts: 1 });
    const mails = sink.to(MAIL.daily);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Lumigrid daily report: Default project, 2026-11-22');
    expect(mail.html).toContain('<h3>Energy</h3>');
    expect(mail.text).toContain('Used (kWh): 1.5');
    expect(mail.text).toContain('No emergency tests recorded.');
    const sheets = await sheetRows(mail);
    expect(Object.keys(sheets)).toEqual(['Energy', 'Faults', 'Emergency tests']);
    expect(sheets.Energy).toEqual([
      ['Day', 'Used (kWh)', 'Saved (kWh)', 'Saving rate'],
      ['2026-11-22', 1.5, 0.5, 0.25],
      ['Total', 1.5, 0.5, 0.25],
    ]);
    expect(sheets.Faults!.slice(1).map((r) => [r[1], r[3], r[4]])).toEqual([['Lamp A', 8, 'LED fault']]);

    const daily = (await apiData(h.app, recipientEndpoints.list, { query: { projectId } }, { token })).find((r) => r.id === ids.daily)!;
    expect(daily).toMatchObject({ lastSentAt: '2026-11-23T09:00:00.000Z', nextSendAt: '2026-11-24T09:00:00.000Z', lastError: null });
    const next = await h.app.jobs.find(REPORT_JOB, reportJobKey(BigInt(ids.daily), new Date('2026-11-24T09:00:00Z')));
    expect(next?.state).toBe('queued');
  });

  it('sends nothing for an occurrence that was already sent, even when its job is queued again', async () => {
    const occurrence = new Date('2026-11-23T09:00:00Z');
    const key = reportJobKey(BigInt(ids.daily), occurrence);
    const requeue = () =>
      h.database.db
        .update(jobs)
        .set({ state: 'queued', finishedAt: null })
        .where(and(eq(jobs.kind, REPORT_JOB), eq(jobs.key, key)));
    // The recipient moved on: the old job is stale.
    await requeue();
    await h.app.jobs.runDue();
    expect((await h.app.jobs.find(REPORT_JOB, key))?.result).toEqual({ skipped: 'rescheduled' });
    // As if a node died after mailing and before moving the recipient on: the send record stops a second mail.
    await h.database.db
      .update(mailRecipients)
      .set({ nextSendAt: occurrence })
      .where(eq(mailRecipients.id, BigInt(ids.daily)));
    await requeue();
    await h.app.jobs.runDue();
    expect((await h.app.jobs.find(REPORT_JOB, key))?.result).toEqual({ skipped: 'sent before' });
    expect(sink.to(MAIL.daily)).toHaveLength(1);
    const daily = await storedRecipient('daily');
    expect(daily.nextSendAt.toISOString()).toBe('2026-11-24T09:00:00.000Z');
  });

  it('sends the weekly report on its weekday', async () => {
    const mail = await mailSentAt('weekly', '2026-11-25T07:59:00Z', '2026-11-25T08:00:00Z');
    expect(mail.subject).toBe('Lumigrid weekly report: Default project, 2026-11-18 \u2013 2026-11-24');
    const sheets = await sheetRows(mail);
    expect(Object.keys(sheets)).toEqual(['Faults']);
    expect(sheets.Faults!.slice(1).map((r) => r[3])).toEqual([1, 8]);
  });

  it('sends the monthly report on the last day in Tokyo, in Japanese, over the month so far', async () => {
    const mail = await mailSentAt('monthly', '2026-11-30T08:59:00Z', '2026-11-30T09:00:00Z');
    expect(mail.subject).toBe('Lumigrid 月次レポート：Default project、2026-10-31 \u2013 2026-11-29');
    expect(mail.html).toContain('lang="ja"');
    const sheets = await sheetRows(mail);
    expect(sheets['エネルギー']!.at(-1)).toEqual(['合計', 2.5, 1.5, 0.375]);
    expect(sheets['故障']!.slice(1).map((r) => r[4])).toEqual(['電源異常', 'LED故障']);
    const monthly = await storedRecipient('monthly');
    expect(monthly.nextSendAt.toISOString()).toBe('2026-12-31T09:00:00.000Z');
  });

  it('sends the yearly report on the 1st of January, and a late daily report once, then on time again', async () => {
    const dailyBefore = sink.to(MAIL.daily).length;
    await at('2026-12-31T23:59:00Z');
    expect(sink.to(MAIL.yearly)).toHaveLength(0);
    // The daily runs caught up: one mail for the occurrence that was due, none for the days skipped over.
    expect(sink.to(MAIL.daily)).toHaveLength(dailyBefore + 1);
    await at('2027-01-01T00:00:00Z');
    expect(sink.to(MAIL.yearly)).toHaveLength(1);
    expect(sink.to(MAIL.yearly)[0]!.subject).toBe('Lumigrid annual report: Default project, 2026-01-01 \u2013 2026-12-31');
    const yearly = await storedRecipient('yearly');
    expect(yearly.nextSendAt.toISOString()).toBe('2028-01-01T00:00:00.000Z');
  });
});
