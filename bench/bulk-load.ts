import { spawn } from 'node:child_process';
import pg from 'pg';
import { copyRows } from '../apps/server/src/db/copy.ts';

/** The raw client under Drizzle: PGlite and pg.Pool both answer query(text, params) with { rows }. */
export interface SqlClient {
  query<T>(text: string, params?: unknown[], options?: { blob?: Blob }): Promise<{ rows: T[] }>;
}

/** One raw load of the same rows into the same table. */
export interface BulkLoad {
  method: string;
  rows: number;
  seconds: number;
  rowsPerS: number;
}

const COLUMN_LIST = ['gateway_id', 'tenant_id', 'addr', 'kind', 'online', 'fault', 'state', 'reported_at', 'received_at'];
const COLUMNS = COLUMN_LIST.join(', ');

interface Row {
  gateway_id: string;
  tenant_id: string | null;
  addr: string;
  kind: string;
  online: boolean;
  fault: number;
  state: string;
  reported_at: string;
  received_at: string;
}

const csvQuote = (s: string) => `"${s.replaceAll('"', '""')}"`;

function toCsv(rows: Row[]): string {
  return rows
    .map(
      (r) =>
        `${r.gateway_id},${r.tenant_id ?? ''},${r.addr},${r.kind},${r.online ? 't' : 'f'},${r.fault},${csvQuote(r.state)},${r.reported_at},${r.received_at}\n`,
    )
    .join('');
}

async function timed(method: string, rows: number, load: () => Promise<void>): Promise<BulkLoad> {
  const start = performance.now();
  await load();
  const seconds = (performance.now() - start) / 1000;
  return { method, rows, seconds: Math.round(seconds * 1000) / 1000, rowsPerS: Math.round(rows / seconds) };
}

/** Multi-row INSERT statements of `perStatement` rows, one after another, each committing on its own. */
async function multiRowInsert(sql: SqlClient, rows: Row[], perStatement: number): Promise<void> {
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const params: unknown[] = [];
    const tuples = chunk.map((r) => {
      const at = params.length;
      params.push(r.gateway_id, r.tenant_id, r.addr, r.kind, r.online, r.fault, r.state, r.reported_at, r.received_at);
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, $${at + 7}::jsonb, $${at + 8}, $${at + 9})`;
    });
    await sql.query(`insert into device_reports (${COLUMNS}) values ${tuples.join(', ')}`, params);
  }
}

/** COPY FROM STDIN through pg-copy-streams on one of the pool's connections, as the report writer copies. */
async function streamCopy(pool: pg.Pool, rows: Row[]): Promise<void> {
  const client = await pool.connect();
  try {
    const values = rows.map((r) => [r.gateway_id, r.tenant_id, r.addr, r.kind, r.online, r.fault, r.state, r.reported_at, r.received_at]);
    await copyRows(client, 'device_reports', COLUMN_LIST, values);
  } finally {
    client.release();
  }
}

/** COPY FROM STDIN through Debian's psql client, a process of its own. */
function psqlCopy(url: string, csv: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'psql',
      [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\copy device_reports (${COLUMNS}) from stdin with (format csv)`],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited ${code}: ${stderr}`))));
    child.stdin.end(csv);
  });
}

function hasPsql(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('psql', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/**
 * Loads the rows of device_reports after `afterId` again into device_reports, raw: PGlite's COPY FROM
 * '/dev/blob'; on PostgreSQL COPY FROM STDIN through pg-copy-streams and, when psql is on the machine, through
 * psql; on both, multi-row INSERTs.
 */
export async function bulkLoad(q: {
  kind: 'pglite' | 'postgres';
  sql: SqlClient;
  afterId: string;
  postgresUrl?: string;
}): Promise<BulkLoad[]> {
  const { rows } = await q.sql.query<Row>(
    `select gateway_id::text, tenant_id::text, addr, kind, online, fault, state::text as state, reported_at::text, received_at::text
     from device_reports where id > $1 order by id`,
    [q.afterId],
  );
  const csv = toCsv(rows);
  const results: BulkLoad[] = [];
  if (q.kind === 'pglite') {
    results.push(
      await timed("COPY FROM '/dev/blob' (PGlite)", rows.length, () =>
        q.sql
          .query(`copy device_reports (${COLUMNS}) from '/dev/blob' with (format csv)`, [], { blob: new Blob([csv]) })
          .then(() => undefined),
      ),
    );
  } else {
    // The copied rows' text, like the writer's, is built inside the timing.
    if (q.sql instanceof pg.Pool)
      results.push(await timed('COPY FROM STDIN (pg-copy-streams)', rows.length, () => streamCopy(q.sql as pg.Pool, rows)));
    if (q.postgresUrl && (await hasPsql()))
      results.push(await timed('COPY FROM STDIN (psql)', rows.length, () => psqlCopy(q.postgresUrl!, csv)));
  }
  results.push(await timed('multi-row INSERT (1000 rows/statement)', rows.length, () => multiRowInsert(q.sql, rows, 1000)));
  return results;
}
