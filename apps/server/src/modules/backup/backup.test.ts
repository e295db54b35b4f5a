import { mkdtemp, mkdir, readFile, rm, symlink, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SYNC_STATUS, USER_AUTH, backupEndpoints, userEndpoints, type BackupProgress } from '@lumigrid/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import type { App } from '../../http/types.ts';
import { ADMIN_PASSWORD, DATABASES, api, apiData, expectError, login, startApp } from '../../test/harness.ts';
import { poll } from '../../test/poll.ts';
import { readManifest } from './backup-archive.ts';
import { readCatalogue } from './backup.repo.ts';
import { createBackupService } from './backup.service.ts';

const GATEWAY_MAC = 'A4C138000001';

interface Server {
  app: App;
  database: Database;
  dataDir: string;
  close(): Promise<void>;
}

/** A server-mode app on a fresh database (PGlite or its own PostgreSQL database) with its own data folder. */
async function startServer(kind: 'pglite' | 'postgres', backupRoot: string, mode: 'server' | 'saas' = 'server'): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lumigrid-backup-data-'));
  // The job runner stays still, so nothing but the test writes while tables are compared.
  const h = await startApp(kind, { MODE: mode, DATA_DIR: dataDir, BACKUP_ROOT: backupRoot }, { jobs: { start: false } });
  return {
    app: h.app,
    database: h.database,
    dataDir,
    async close() {
      await h.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const text = async <T>(db: Database['db'], query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** Every row of every table as PostgreSQL's own JSON of the row, in key order: an independent view of the data. */
async function tableRows(db: Database['db']): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const table of await readCatalogue(db)) {
    const order = table.orderBy.map((c) => `"${c}"`).join(', ');
    const rows = await text<{ row: string }>(db, sql.raw(`select to_jsonb(t)::text as row from "${table.name}" t order by ${order}`));
    out.set(
      table.name,
      rows.map((r) => r.row),
    );
  }
  return out;
}

async function waitForJob(app: App, token: string, id: string): Promise<BackupProgress> {
  let last: BackupProgress | undefined;
  await poll(
    async () => {
      last = await apiData(app, backupEndpoints.progress, { params: { id } }, { token });
      return last.state !== 'running';
    },
    `job ${id}`,
    { timeoutMs: 60_000, everyMs: 25 },
  );
  return last!;
}

/** A tar.gz with one byte of one entry's content changed (the gzip itself stays valid). */
function tampered(archive: Buffer, needle: string, replacement: string): Buffer {
  const tar = gunzipSync(archive);
  const at = tar.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not in the archive`);
  tar.write(replacement, at);
  return gzipSync(tar);
}

describe.each(DATABASES)('backup and restore on %s', (kind) => {
  let root: string;
  let a: Server;
  let adminA: string;
  let archive: string;
  let snapshotRows: Map<string, string[]>;
  /** Audit entries in the archive: those written before the snapshot (the backup call's own comes after it). */
  let auditRows: number;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lumigrid-backup-root-'));
    await mkdir(join(root, 'nightly', 'old'), { recursive: true });
    a = await startServer(kind, root);
    adminA = await login({ app: a.app } as never, 'admin', ADMIN_PASSWORD);
    // An account with its default project, building and map, signed in: rows in most tables of the schema.
    await apiData(
      a.app,
      userEndpoints.add,
      { body: { userAuth: USER_AUTH.account, account: 'backup-owner', password: 'Owner-Pass-2026', name: 'Backup owner' } },
      { token: adminA },
    );
    await login({ app: a.app } as never, 'backup-owner', 'Owner-Pass-2026');
    // An uploaded picture, and a month of the partitioned energy table (partitions are made at run time).
    await mkdir(join(a.dataDir, 'uploads', 'maps'), { recursive: true });
    await writeFile(join(a.dataDir, 'uploads', 'maps', `${'ab'.repeat(16)}.png`), Buffer.from('a floor plan'));
    // A gateway in the pool that acknowledged version 3, with a jsonb column to carry through.
    await a.database.db.execute(
      sql`insert into gateways (mac, info, config_version, synced_version, sync_status) values (${GATEWAY_MAC}, ${JSON.stringify({ model: 'LG-1', configVersion: 3 })}::jsonb, 3, 3, ${SYNC_STATUS.synced})`,
    );
    await a.database.db.execute(
      sql.raw(`create table energy_readings_backup_test partition of energy_readings for values from ('2026-01-01') to ('2027-01-01')`),
    );
  });
  afterAll(async () => {
    await a?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('lists the directories below the backup root and nothing outside it (300006)', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'lumigrid-outside-'));
    await symlink(outside, join(root, 'escape'));
    const top = await apiData(a.app, backupEndpoints.directorys, { body: {} }, { token: adminA });
    expect(top.directories.map((d) => d.path)).toEqual(['nightly']);
    const nested = await apiData(a.app, backupEndpoints.directorys, { body: { path: 'nightly' } }, { token: adminA });
    expect(nested.directories).toEqual([{ name: 'old', path: 'nightly/old' }]);
    expectError(await api(a.app, backupEndpoints.directorys, { body: { path: 'missing' } }, { token: adminA }), 300006);
    expectError(await api(a.app, backupEndpoints.directorys, { body: { path: 'escape' } }, { token: adminA }), 300006);
    expectError(await api(a.app, backupEndpoints.backup, { body: { path: 'escape' } }, { token: adminA }), 300006);
    const traversal = await api(a.app, backupEndpoints.directorys, { body: { path: '../..' } }, { token: adminA });
    expect(traversal.body.code).toBe(100001);
    await rm(join(root, 'escape'));
    await rm(outside, { recursive: true });
  });

  it('takes a consistent snapshot while writers keep inserting, one job at a time', async () => {
    // Each writer transaction inserts a pair (an outbox message and a captcha) and a reading: a snapshot that
    // read the tables at different moments would hold a message without its captcha, or a gap.
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const n = written;
        await a.database.db.transaction(async (tx) => {
          await tx.execute(
            sql`insert into outbox (channel, recipient, subject, body) values ('mail', 'load@example.com', ${`load-${n}`}, 'x')`,
          );
          await tx.execute(sql`insert into captchas (id, answer_hash, expires_at) values (${`load-${n}`}, 'h', now())`);
          await tx.execute(
            sql`insert into energy_readings (device_id, read_at, energy_wh) values (${n}, '2026-06-01T00:00:00Z', ${n + 0.5})`,
          );
        });
        written++;
        await new Promise((wake) => setImmediate(wake));
      }
    })();
    await poll(() => written >= 20, 'writers to get going');
    const started = await apiData(a.app, backupEndpoints.backup, { body: { path: 'nightly' } }, { token: adminA });
    expectError(await api(a.app, backupEndpoints.backup, { body: { path: 'nightly' } }, { token: adminA }), 300007);
    const writtenAtStart = written;
    const done = await waitForJob(a.app, adminA, started.id);
    expect(done).toMatchObject({ state: 'succeeded', percent: 100, code: null });
    await poll(() => written > writtenAtStart + 20, 'writers to go on after the backup');
    stop = true;
    await writer;
    archive = join(root, 'nightly', done.file);

    const manifest = await readManifest(archive);
    const rowsOf = (name: string) => manifest.tables.find((t) => t.name === name)!.rows;
    const loadRows = rowsOf('captchas');
    auditRows = rowsOf('audit_trail');
    expect(loadRows).toBeGreaterThanOrEqual(20);
    expect(loadRows).toBeLessThan(written);
    expect(rowsOf('energy_readings')).toBe(loadRows);
    expect(manifest.files).toEqual([expect.objectContaining({ path: `uploads/maps/${'ab'.repeat(16)}.png`, size: 12 })]);
    // Every table of the schema, including ones this module knows nothing of.
    const catalogue = await readCatalogue(a.database.db);
    expect(manifest.tables.map((t) => t.name)).toEqual(catalogue.map((t) => t.name));

    // The state at the snapshot: now, less what the writers added after it (the first loadRows pairs are in).
    const isLate = (row: string) => {
      const m = /"(?:subject|id)": "load-(\d+)"|"device_id": (\d+), "energy_wh"/.exec(row);
      return m !== null && Number(m[1] ?? m[2]) >= loadRows;
    };
    snapshotRows = new Map([...(await tableRows(a.database.db))].map(([t, rows]) => [t, rows.filter((r) => !isLate(r))]));
    expect(snapshotRows.get('captchas')).toHaveLength(loadRows);
    expect(snapshotRows.get('outbox')!.filter((r) => r.includes('"load-'))).toHaveLength(loadRows);

    const listed = await apiData(a.app, backupEndpoints.backupMsg, { query: { path: 'nightly' } }, { token: adminA });
    expect(listed.list).toEqual([
      expect.objectContaining({ file: done.file, tables: catalogue.length, files: 1, filesBytes: 12, restorable: true, database: kind }),
    ]);
    expect(listed.list[0]!.size).toBeGreaterThan(0);
    expect(listed.list[0]!.rows).toBe(manifest.tables.reduce((sum, t) => sum + t.rows, 0));
  });

  it(
    'restores into a fresh server: every table row by row as at the snapshot, the files, everyone signed out',
    { timeout: 90_000 },
    async () => {
      const b = await startServer(kind, root);
      try {
        const adminB = await login({ app: b.app } as never, 'admin', ADMIN_PASSWORD);
        // After the backup the gateway went on to run version 7 (known to this server before the restore).
        await b.database.db.execute(sql`insert into gateways (mac, config_version, synced_version) values (${GATEWAY_MAC}, 7, 7)`);
        const started = await apiData(
          b.app,
          backupEndpoints.restore,
          { body: { path: 'nightly', file: archive.split('/').pop()! } },
          { token: adminB },
        );
        // The restore ends every session it brought back; this one it replaced with them.
        await poll(
          async () => {
            const [s] = await text<{ open: number; all: number }>(
              b.database.db,
              sql`select count(*) filter (where revoked_at is null)::int as open, count(*)::int as all from sessions`,
            );
            return s!.all > 0 && s!.open === 0;
          },
          'the restore to end every session',
          { timeoutMs: 60_000 },
        );
        expectError(await api(b.app, backupEndpoints.progress, { params: { id: started.id } }, { token: adminB }), 250004);
        // Signed in again (the restored administrator, whose sign-in adds a session and nothing else), the job ends.
        const again = await login({ app: b.app } as never, 'admin', ADMIN_PASSWORD);
        expect(await waitForJob(b.app, again, started.id)).toMatchObject({ state: 'succeeded', percent: 100 });
        const restored = await tableRows(b.database.db);
        for (const [table, rows] of snapshotRows) {
          if (table === 'sessions' || table === 'gateways' || table === 'known_devices' || table === 'audit_trail') continue;
          expect(restored.get(table), table).toEqual(rows);
        }
        // The audit trail is the archive's; what comes after it (the sign-in above) takes ids past the restored ones.
        expect(restored.get('audit_trail')!.slice(0, auditRows)).toEqual(snapshotRows.get('audit_trail')!.slice(0, auditRows));
        // Every gateway needs a sync, at a version past anything it ran before or after the backup.
        const withoutSync = (row: string) => {
          const { config_version: _v, sync_status: _s, updated_at: _u, ...rest } = JSON.parse(row) as Record<string, unknown>;
          return rest;
        };
        expect(restored.get('gateways')!.map(withoutSync)).toEqual(snapshotRows.get('gateways')!.map(withoutSync));
        expect(restored.get('gateways')!.map((r) => JSON.parse(r) as Record<string, unknown>)).toEqual([
          expect.objectContaining({ mac: GATEWAY_MAC, config_version: 8, synced_version: 3, sync_status: SYNC_STATUS.notSynced }),
        ]);
        // Sessions are back, all of them ended, and one new: the sign-in above.
        const sessions = restored.get('sessions')!;
        expect(sessions).toHaveLength(snapshotRows.get('sessions')!.length + 1);
        for (const row of sessions.slice(0, -1)) expect(row).toMatch(/"ended_code": 250004.*"revoked_at": "/);
        // The browsers known to each user are back, and the one that signed in above is new.
        const devices = restored.get('known_devices')!;
        expect(devices).toEqual(expect.arrayContaining(snapshotRows.get('known_devices')!));
        expect(devices).toHaveLength(snapshotRows.get('known_devices')!.length + 1);
        expect(await readFile(join(b.dataDir, 'uploads', 'maps', `${'ab'.repeat(16)}.png`), 'utf8')).toBe('a floor plan');

        // New rows take ids past the restored ones (a sequence left behind would answer a duplicate key).
        await b.database.db.execute(
          sql`insert into outbox (channel, recipient, subject, body) values ('mail', 'x@example.com', 'after', 'x')`,
        );
      } finally {
        await b.close();
      }
    },
  );

  it('refuses a truncated or tampered archive before anything changes', async () => {
    const before = await tableRows(a.database.db);
    const original = await readFile(archive);
    const cases = [
      { file: 'lumigrid-backup-20990101-000001.tar.gz', data: original.subarray(0, Math.floor(original.length * 0.6)), reason: 100803 },
      { file: 'lumigrid-backup-20990101-000002.tar.gz', data: tampered(original, 'load-1"', 'load-9"'), reason: 100803 },
      { file: 'lumigrid-backup-20990101-000003.tar.gz', data: tampered(original, '"migration": "', '"migration": "0'), reason: 100804 },
    ];
    for (const c of cases) {
      await writeFile(join(root, 'nightly', c.file), c.data);
      const started = await apiData(a.app, backupEndpoints.restore, { body: { path: 'nightly', file: c.file } }, { token: adminA });
      const done = await waitForJob(a.app, adminA, started.id);
      expect(done, c.file).toMatchObject({ state: 'failed', code: 100802, reason: c.reason });
      expect(done.msg).toContain('Recovery failed');
    }
    // Nothing changed but the audit trail, which records the refused restores after what it held; the administrator is still signed in.
    await a.app.audit.writer.flush();
    const after = await tableRows(a.database.db);
    expect(after.get('audit_trail')!.slice(0, before.get('audit_trail')!.length)).toEqual(before.get('audit_trail'));
    expect(after.get('audit_trail')!.slice(before.get('audit_trail')!.length).join('\n')).toMatch(/"endpoint": "backup.restore"/);
    after.delete('audit_trail');
    before.delete('audit_trail');
    expect(after).toEqual(before);
    expect(await readFile(join(a.dataDir, 'uploads', 'maps', `${'ab'.repeat(16)}.png`), 'utf8')).toBe('a floor plan');
    expectError(
      await api(
        a.app,
        backupEndpoints.restore,
        { body: { path: 'nightly', file: 'lumigrid-backup-20000101-000000.tar.gz' } },
        { token: adminA },
      ),
      300006,
    );
    await copyFile(archive, join(root, 'nightly', 'not-a-backup.tar.gz'));
    const listed = await apiData(a.app, backupEndpoints.backupMsg, { query: { path: 'nightly' } }, { token: adminA });
    // Listed, not-a-backup left out; whether the cut one's manifest still reads depends on where it was cut.
    expect(listed.list.map((l) => l.file).sort()).toEqual([archive.split('/').pop(), ...cases.map((c) => c.file)].sort());
    // Only an archive a restore would take is offered: the cut, the changed and the other-schema ones are not.
    const restorable = new Map(listed.list.map((l) => [l.file, l.restorable]));
    expect(restorable.get(archive.split('/').pop()!)).toBe(true);
    for (const c of cases) expect(restorable.get(c.file), c.file).not.toBe(true);
  });
});

describe('the backup service', () => {
  it('answers 100805 in SaaS mode before it looks at any directory, job or table', async () => {
    const untouchable = new Proxy({}, { get: () => () => expect.fail('touched in SaaS mode') }) as never;
    const sut = createBackupService({
      database: untouchable,
      config: { mode: 'saas', dataDir: '/nonexistent' },
      folders: untouchable,
      jobs: untouchable,
      aftermath: untouchable,
      clock: untouchable,
      logger: untouchable,
    });
    const admin = { userId: 1n, tenantId: 1n, userAuth: USER_AUTH.admin, operateAuth: 0, lang: 'ja', sessionId: 1n } as const;
    const calls = [
      () => sut.directorys(admin, {}),
      () => sut.backup(admin, { path: '' }),
      () => sut.backupMsg(admin, { path: '' }),
      () => sut.restore(admin, { path: '', file: 'lumigrid-backup-20260101-000000.tar.gz' }),
      () => sut.progress(admin, '0123456789abcdef'),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 100805 });
  });
});
