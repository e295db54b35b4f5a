import {
  OPERATE_AUTH,
  REDACTED,
  SECRET_FIELD,
  accountEndpoints,
  allEndpoints,
  auditEndpoints,
  authEndpoints,
  endpointId,
  isAudited,
  projectEndpoints,
  redactSecrets,
  type EndpointSpec,
} from '@lumigrid/contract';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, users } from '../../db/schema/index.ts';
import type { AuditDraft } from '../../http/audit-entry.ts';
import { auditDraft } from '../../test/audit.fixtures.ts';
import { memoryLogger } from '../../test/gateway-link.fixtures.ts';
import { ADMIN_PASSWORD, DATABASES, api, apiData, call, login, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';
import { subAccount, treeFactory } from '../../test/projects.fixtures.ts';
import { createAuditRepo } from './audit.repo.ts';
import { createAuditWriter } from './audit-writer.ts';

const audited = allEndpoints().filter(isAudited);

/** Every field name a schema has, at any depth. */
function fieldNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return into;
  const s = schema as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    into.add(name);
    fieldNames(child, into);
  }
  for (const child of [s.items, ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) fieldNames(child, into);
  return into;
}

describe('which calls the audit trail records (contract isAudited)', () => {
  it('records every call but GET and the searches of read authority, and the GET deletions and commands', () => {
    expect(audited.length).toBeGreaterThan(100);
    for (const e of allEndpoints()) {
      const where = `${e.method} ${e.path} (${e.access})`;
      if (e.audit?.record !== undefined) continue;
      if (e.method !== 'GET' && e.access !== 'read') expect(isAudited(e), where).toBe(true);
      if (e.method === 'GET' && (e.access === 'write' || e.access === 'control')) expect(isAudited(e), where).toBe(true);
      if (e.access === 'read') expect(isAudited(e), where).toBe(false);
    }
    expect(isAudited(auditEndpoints.page)).toBe(false);
    expect(isAudited(accountEndpoints.removeAvatar)).toBe(true);
  });

  it('names every endpoint by its place in the table, and audit targets only fields the request has', () => {
    const wrong: string[] = [];
    for (const e of allEndpoints()) {
      if (!endpointId(e)) wrong.push(`${e.path}: no id`);
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = e[part] as { properties?: Record<string, unknown> } | undefined;
        for (const field of Object.keys(e.audit?.targets?.[part] ?? {}))
          if (!schema?.properties?.[field]) wrong.push(`${e.method} ${e.path}: ${part}.${field}`);
      }
    }
    for (const e of allEndpoints().filter((x) => x.audit?.before)) {
      const names = Object.values({ ...e.objects?.params, ...e.objects?.body, ...e.audit?.targets?.body });
      if (!names.includes(e.audit!.before!)) wrong.push(`${e.method} ${e.path}: before ${e.audit!.before} names no object`);
    }
    expect(wrong).toEqual([]);
    expect(endpointId(auditEndpoints.page)).toBe('audit.page');
  });

  it('redacts every secret field the audited endpoints take, and nothing that is no secret', () => {
    const names = new Set<string>();
    for (const e of audited) for (const part of [e.params, e.query, e.body]) fieldNames(part, names);
    const secret = [...names].filter((n) => SECRET_FIELD.test(n)).sort();
    // The secrets the table takes today: a new one must match the rule (or this list grows knowingly).
    for (const name of ['password', 'oldPassword', 'newPassword', 'code', 'captcha']) expect(secret).toContain(name);
    for (const name of ['name', 'account', 'mail', 'phone', 'id', 'projectId', 'remarks', 'companyCode', 'faultCode'])
      expect(SECRET_FIELD.test(name), name).toBe(false);
    const body = Object.fromEntries([...names].map((n) => [n, 'value-of-' + n]));
    const redacted = redactSecrets({ nested: [body] }) as { nested: Array<Record<string, string>> };
    for (const name of names) expect(redacted.nested[0]![name], name).toBe(SECRET_FIELD.test(name) ? REDACTED : `value-of-${name}`);
    expect(body.password ?? 'value-of-password').toBe('value-of-password');
  });
});

describe.each(DATABASES)('the audit trail on %s', (kind) => {
  let h: Harness;
  let owner: string;
  let other: string;
  let admin: string;
  const entries = async () => h.database.db.select().from(auditTrail).orderBy(auditTrail.id);
  /** Waits until the writer has stored every entry of the calls made so far. */
  const stored = async (atLeast: number) => {
    await poll(async () => {
      await h.app.audit.writer.flush();
      return (await entries()).length >= atLeast;
    }, `${atLeast} audit entries`);
  };
  const count = async () => (await entries()).length;
  /** Every entry of the calls answered so far, stored: their hooks run once the answer is out. */
  const settled = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await h.app.audit.writer.flush();
  };
  /** The database's refusal, as the driver's error carries it. */
  const refusal = async (query: Promise<unknown>) => {
    const error = await query.then(
      () => undefined,
      (e: unknown) => e as { message: string; cause?: { message?: string } },
    );
    return error ? (error.cause?.message ?? error.message) : 'not refused';
  };

  beforeAll(async () => {
    // The job runner stays still: it would run the retention job on its own once the clock moves a month.
    h = await startApp(kind, { AUDIT_RETENTION_DAYS: '30' }, { jobs: { start: false } });
    admin = await login(h, 'admin', ADMIN_PASSWORD);
    owner = await signUpByMail(h, 'audit-owner@example.com');
    other = await signUpByMail(h, 'audit-other@example.com');
  });
  afterAll(async () => h?.close());

  it('records a call of every audited endpoint of the table, with its outcome, and no other call', async () => {
    const answers = new Map<string, number>();
    const SAMPLE_PARAMS: Record<string, string> = { userAuth: '3', id: '987654321' };
    // Placeholder input, as the role matrix sends it: each call is refused or done, and recorded either way.
    // The caller's own session ends last (logout).
    const order = [...allEndpoints()].sort((a, b) => Number(a === authEndpoints.logout) - Number(b === authEndpoints.logout));
    const token = await signUpByMail(h, 'audit-table@example.com');
    await settled();
    const before = await count();
    for (const spec of order) {
      const url = spec.path.replace(/:(\w+)/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? '1');
      const sendsBody = spec.method === 'POST' || spec.method === 'PUT';
      const res = await call(h.app, spec.method, url, { token, body: sendsBody ? {} : undefined });
      expect(res.status, `${spec.method} ${spec.path}`).toBeLessThan(500);
      if (isAudited(spec)) answers.set(endpointId(spec)!, res.body?.code ?? 0);
    }
    await stored(before + answers.size);
    const rows = (await entries()).slice(before);
    const recorded = new Map(rows.map((r) => [r.endpoint, r.code]));
    const missing = audited.map((e) => endpointId(e)!).filter((id) => !recorded.has(id));
    expect(missing, 'audited endpoints without an entry').toEqual([]);
    for (const [id, code] of answers) expect(recorded.get(id), id).toBe(code);
    const unexpected = rows.filter((r) => !isAudited(endpointBy(r.endpoint)));
    expect(unexpected.map((r) => r.endpoint)).toEqual([]);
    expect(rows.length).toBe(answers.size);
  });

  it('says who, when, from where, what and with what outcome', async () => {
    const tree = treeFactory(h, owner);
    const project = await tree.project({ name: 'Audited site' });
    await apiData(
      h.app,
      projectEndpoints.updateProject,
      { body: { id: project.id, name: 'Audited site 2' } },
      {
        token: owner,
        headers: { 'x-lumigrid-client': 'web' },
        remoteAddress: '10.1.2.3',
      },
    );
    const refused = await api(h.app, projectEndpoints.deleteProject, { params: { id: '9999999' } }, { token: owner });
    expect(refused.body.code).toBe(110011);
    await poll(async () => {
      await h.app.audit.writer.flush();
      return (await entries()).some((r) => r.endpoint === 'projects.deleteProject' && r.request && r.code === 110011);
    }, 'the refused deletion');
    const rows = await entries();
    const update = rows.findLast((r) => r.endpoint === 'projects.updateProject')!;
    expect(update).toMatchObject({
      actor: 'account',
      userName: expect.stringContaining('audit-owner') as unknown as string,
      via: 'web',
      ip: '10.1.2.3',
      kind: 'projects',
      method: 'POST',
      path: '/api4/project/v1/update',
      targets: [`project:${project.id}`],
      projectId: BigInt(project.id),
      request: { body: { id: project.id, name: 'Audited site 2' } },
      before: { name: 'Audited site' },
      code: 0,
    });
    expect(update.at.toISOString()).toBe(h.clock.now().toISOString());
    const add = rows.findLast((r) => r.endpoint === 'projects.addProject')!;
    expect(add.via).toBe('api');
    const deletion = rows.findLast((r) => r.endpoint === 'projects.deleteProject')!;
    expect(deletion).toMatchObject({ code: 110011, targets: ['project:9999999'], projectId: null });

    // A deletion still says where the deleted object stood; a creation names what it created.
    const building = await tree.building({ projectId: project.id });
    await apiData(h.app, projectEndpoints.deleteBuilding, { body: { id: building.id } }, { token: owner });
    await settled();
    const after = await entries();
    expect(after.findLast((r) => r.endpoint === 'projects.deleteBuilding')).toMatchObject({
      code: 0,
      targets: [`building:${building.id}`],
      projectId: BigInt(project.id),
    });
    expect(after.findLast((r) => r.endpoint === 'projects.addBuilding')).toMatchObject({
      request: { body: { projectId: project.id }, answer: { id: building.id } },
      targets: [`project:${project.id}`],
      projectId: BigInt(project.id),
    });
  });

  it('never stores a password, a code or a token', async () => {
    const n = await count();
    await api(h.app, authEndpoints.login, { body: { account: 'audit-owner@example.com', password: 'Wrong-Secret-77' } });
    await apiData(
      h.app,
      accountEndpoints.changePassword,
      { body: { oldPassword: 'Secret-Pass1', newPassword: 'Next-Secret-88' } },
      { token: owner },
    );
    owner = await login(h, 'audit-owner@example.com', 'Next-Secret-88');
    await stored(n + 3);
    const rows = (await entries()).slice(n);
    const change = rows.find((r) => r.endpoint === 'accounts.changePassword')!;
    expect(change.request).toEqual({ body: { oldPassword: REDACTED, newPassword: REDACTED } });
    const failed = rows.find((r) => r.endpoint === 'auth.login' && r.code !== 0)!;
    expect(failed).toMatchObject({ actor: 'anonymous', userName: 'audit-owner@example.com', tenantId: null });
    const text = JSON.stringify((await entries()).map((r) => r.request));
    for (const secret of ['Wrong-Secret-77', 'Secret-Pass1', 'Next-Secret-88', ADMIN_PASSWORD, owner]) expect(text).not.toContain(secret);
  });

  it('shows an account its own and its sub-accounts\u2019 entries, a sub-account its own and its projects\u2019, the administrator all', async () => {
    const tree = treeFactory(h, owner);
    const seen = await tree.project({ name: 'Seen by the sub-account' });
    const unseen = await tree.project({ name: 'Not seen by it' });
    const sub = await subAccount(h, 'audit-owner@example.com', OPERATE_AUTH.editable, [seen.id]);
    await apiData(h.app, projectEndpoints.updateProject, { body: { id: seen.id, address: 'Seen street 1' } }, { token: owner });
    await apiData(h.app, projectEndpoints.updateProject, { body: { id: unseen.id, address: 'Unseen street 2' } }, { token: owner });
    await apiData(h.app, projectEndpoints.updateProject, { body: { id: seen.id, address: 'Sub street 3' } }, { token: sub });
    const foreign = await treeFactory(h, other).project({ name: 'Foreign' });
    await apiData(h.app, projectEndpoints.updateProject, { body: { id: foreign.id, name: 'Foreign 2' } }, { token: other });
    await settled();

    const list = async (token: string, body = {}) =>
      (await apiData(h.app, auditEndpoints.page, { body: { pageSize: 200, ...body } }, { token })).list;
    const addresses = (l: Awaited<ReturnType<typeof list>>) =>
      l.map((e) => (e.request.body as { address?: string } | undefined)?.address).filter(Boolean);

    const ownerSees = await list(owner);
    expect(addresses(ownerSees)).toEqual(['Sub street 3', 'Unseen street 2', 'Seen street 1']);
    expect(ownerSees.some((e) => e.targets.some((t) => t.id === foreign.id))).toBe(false);

    const subSees = await list(sub);
    expect(addresses(subSees)).toEqual(['Sub street 3', 'Seen street 1']);
    expect(subSees.find((e) => addresses([e])[0] === 'Sub street 3')).toMatchObject({
      actor: 'subAccount',
      projectName: 'Seen by the sub-account',
    });

    const otherSees = await list(other);
    expect(addresses(otherSees)).toEqual([]);
    expect(otherSees.some((e) => e.targets.some((t) => t.id === foreign.id))).toBe(true);

    const adminSees = await list(admin);
    expect(adminSees.some((e) => e.targets.some((t) => t.id === foreign.id))).toBe(true);
    expect(addresses(adminSees)).toContain('Unseen street 2');

    // Filters: project (one the caller may see), kind, target, outcome; another account's project answers 110011.
    expect(addresses(await list(owner, { projectId: seen.id }))).toEqual(['Sub street 3', 'Seen street 1']);
    expect(addresses(await list(owner, { kind: 'projects.updateProject', targetKind: 'project', targetId: unseen.id }))).toEqual([
      'Unseen street 2',
    ]);
    expect((await list(owner, { kind: 'devices' })).length).toBe(0);
    expect((await list(owner, { ok: false })).every((e) => e.code !== 0)).toBe(true);
    const intruding = await api(h.app, auditEndpoints.page, { body: { projectId: foreign.id } }, { token: owner });
    expect(intruding.body.code).toBe(110011);
    const device = await api(h.app, auditEndpoints.device, { params: { id: '987654321' } }, { token: owner });
    expect(device.body.code).toBe(110011);
  });

  it('exports what the list shows as an Excel workbook, headers in the caller\u2019s language', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: auditEndpoints.export.path,
      payload: { kind: 'projects' },
      headers: { authorization: `Bearer ${owner}`, 'accept-language': 'ja' },
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('日時 (UTC)');
    const listed = await apiData(h.app, auditEndpoints.page, { body: { kind: 'projects', pageSize: 200 } }, { token: owner });
    expect(sheet.rowCount - 1).toBe(listed.total);
    expect(String(sheet.getRow(2).getCell(6).value)).toBe(listed.list[0]!.endpoint);
  });
  it('stores every entry handed over, in order, by the time close() answers, each with its project and caller\u2019s name', async () => {
    const tree = treeFactory(h, owner);
    const project = await tree.project({ name: 'Written on close' });
    const building = await tree.building({ projectId: project.id });
    const [me] = await h.database.db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(eq(users.mail, 'audit-owner@example.com'));
    const { logger, lines } = memoryLogger();
    // No timer fires during the test: only a full batch (four entries) or close() writes.
    const writer = createAuditWriter({ repo: createAuditRepo(h.database.db), logger, flushMs: 3_600_000, batchSize: 4 });
    let release!: (before: Record<string, unknown>) => void;
    const draft = (n: number, fields: Partial<AuditDraft> = {}) => auditDraft('closing', n, { at: h.clock.now(), ...fields });

    // A full batch is written at once; the three entries after it wait for the timer, which close() does not wait for.
    for (const d of [
      draft(1, { targets: [`building:${building.id}`] }),
      // The project named first is not there: the building's is the entry's.
      draft(2, { targets: ['project:999999999', `building:${building.id}`] }),
      // A deletion's project, looked up before it ran (none), is kept rather than looked up again.
      draft(3, { targets: [`building:${building.id}`], project: Promise.resolve(null) }),
      draft(4, { userId: me!.id, actor: 'account' }),
    ])
      writer.sink.record(d);
    await writer.flush();
    for (const d of [
      draft(5, { before: new Promise((resolve) => (release = resolve)) }),
      draft(6, { userName: 'someone@example.com' }),
      draft(7),
    ])
      writer.sink.record(d);
    const closed = writer.close();
    release({ name: 'Old name' });
    await closed;

    const rows = (await entries()).filter((r) => r.endpoint === 'tests.closing');
    expect(rows.map((r) => [(r.request as { n: number }).n, r.projectId, r.userName, r.before])).toEqual([
      [1, BigInt(project.id), '', null],
      [2, BigInt(project.id), '', null],
      [3, null, '', null],
      [4, null, me!.name, null],
      [5, null, '', { name: 'Old name' }],
      [6, null, 'someone@example.com', null],
      [7, null, '', null],
    ]);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('refuses UPDATE and DELETE of any entry; only the retention purge removes entries, and only old ones', async () => {
    await stored(1);
    const db = h.database.db;
    expect(await refusal(db.execute(sql`update audit_trail set code = 1`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`delete from audit_trail`))).toMatch(/append-only/);
    // Setting the cutoff by hand for a recent entry does not let a plain DELETE through either.
    expect(
      await refusal(
        db.transaction(async (tx) => {
          await tx.execute(sql`select set_config('lumigrid.audit_purge_before', '1970-01-02', true)`);
          await tx.execute(sql`delete from audit_trail`);
        }),
      ),
    ).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`select audit_trail_purge(now())`))).toMatch(/at least the last day/);
    await settled();
    const total = await count();
    // The retention job, 31 days on with 30 kept: the entries written so far are older than its cutoff.
    h.clock.advance(31 * 24 * 3600_000);
    owner = await login(h, 'audit-owner@example.com', 'Next-Secret-88');
    const recent = await apiData(h.app, projectEndpoints.addProject, { body: { name: 'After the retention' } }, { token: owner });
    await poll(async () => {
      await h.app.audit.writer.flush();
      return (await entries()).some((r) => (r.request as { answer?: { id: string } }).answer?.id === recent.id);
    }, 'the entry after the cutoff');
    const { removed } = await h.app.audit.purge();
    expect(removed).toBe(total);
    const left = await entries();
    expect(left.map((r) => r.endpoint)).toEqual(['auth.login', 'projects.addProject']);
    expect(await refusal(db.execute(sql`delete from audit_trail`))).toMatch(/append-only/);
  });
});

function endpointBy(id: string): EndpointSpec {
  const spec = allEndpoints().find((e) => endpointId(e) === id);
  if (!spec) throw new Error(`no endpoint ${id}`);
  return spec;
}
