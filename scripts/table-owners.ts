// Fails when a server file outside a table's owning domain writes one of the platform's core tables, or names one
// that it did not name before: the others read through the owner's queries (docs/architecture.md "Owners").
// The files that still read a core table directly are listed below, so the list can only shrink: a file that
// stops naming its table must leave the list too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const SERVER = 'apps/server/src';

interface CoreTable {
  /** The name the schema exports (drizzle) and the table's name in SQL. */
  drizzle: string;
  sql: string;
  /** The domain folder that writes it and answers the others' questions about it. */
  owner: string;
  /** Other files that write it, and why they may. */
  coWriters: Record<string, string>;
  /** Files outside the owner that still read it directly (to move behind the owner's queries). */
  readers: string[];
}

const CORE: CoreTable[] = [
  {
    drizzle: 'devices',
    sql: 'devices',
    owner: 'modules/devices',
    coWriters: {
      'modules/gateways/gateways.repo.ts': "a gateway's import and unbinding add and remove its devices in the gateway's transaction",
    },
    readers: ['modules/access/access.repo.ts', 'modules/device-reports/telemetry.repo.ts', 'modules/energy/energy.repo.ts'],
  },
  {
    drizzle: 'deviceStates',
    sql: 'device_states',
    owner: 'modules/device-reports',
    coWriters: {},
    readers: [],
  },
  {
    drizzle: 'gateways',
    sql: 'gateways',
    owner: 'modules/gateways',
    coWriters: {
      'modules/device-reports/device-reports.repo.ts': "the ingest's batch also moves the gateways' last-seen time",
      'modules/scenes/scenes.repo.ts': "a scene's upload bumps its gateway's configuration version in the scene's transaction",
    },
    readers: [
      'modules/access/access.repo.ts',
      'modules/device-reports/event-writer.ts',
      'modules/device-reports/telemetry.repo.ts',
      'modules/devices/devices.repo.ts',
      'modules/devices/map-devices.ts',
      'modules/energy/energy.repo.ts',
      'modules/projects/site-time-zone.ts',
    ],
  },
  {
    drizzle: 'maps',
    sql: 'maps',
    owner: 'modules/projects',
    coWriters: {},
    readers: ['modules/access/access.repo.ts'],
  },
];

const isLeftOut = (path: string) => /\.test\.tsx?$|\.fixtures\.ts$|(^|\/)test\/|^db\/(schema|migrations)\//.test(path);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * The source's template literals, where its SQL text is (sql`...`), without comments and plain strings: a log line
 * or a metric's help text that says "from gateways" reads nothing.
 */
function templateText(path: string, source: string): string {
  const parts: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      parts.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(path, source, ts.ScriptTarget.Latest));
  return parts.join('\n');
}

/** Whether the source names the table: the schema's export (imported) or the table in SQL text. */
function names(source: string, sqlText: string, table: CoreTable): boolean {
  const imported = new RegExp(`import\\s*{[^}]*\\b${table.drizzle}\\b[^}]*}\\s*from\\s*'[^']*db/schema[^']*'`).test(source);
  const inSql = new RegExp(`\\b(from|join|into|update)\\s+${table.sql}\\b`, 'i').test(sqlText);
  return imported || inSql;
}

/** Whether the source writes the table: drizzle's insert, update or delete of it, or the same in SQL text. */
function writes(source: string, sqlText: string, table: CoreTable): boolean {
  return (
    new RegExp(`\\.(insert|update|delete)\\(\\s*${table.drizzle}\\s*\\)`).test(source) ||
    new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+${table.sql}\\b`, 'i').test(sqlText)
  );
}

const problems: string[] = [];
const listed = new Map<string, Set<string>>(CORE.map((t) => [t.sql, new Set(t.readers)]));
for (const path of files(join(root, SERVER))) {
  const rel = relative(join(root, SERVER), path);
  if (isLeftOut(rel)) continue;
  const source = readFileSync(path, 'utf8');
  const sqlText = templateText(path, source);
  for (const table of CORE) {
    if (rel.startsWith(`${table.owner}/`)) continue;
    if (writes(source, sqlText, table) && !(rel in table.coWriters))
      problems.push(`${SERVER}/${rel} writes ${table.sql}, which ${table.owner} owns: ask its repo to`);
    const reads = names(source, sqlText, table) && !(rel in table.coWriters);
    const known = listed.get(table.sql)!;
    if (reads && !known.has(rel)) problems.push(`${SERVER}/${rel} names ${table.sql}: read it through ${table.owner}'s queries`);
    if (!reads && known.has(rel))
      problems.push(`${SERVER}/${rel} no longer names ${table.sql}: take it off the list in scripts/table-owners.ts`);
    known.delete(rel);
  }
}
for (const [table, left] of listed)
  for (const rel of left) problems.push(`${SERVER}/${rel} is listed as reading ${table} but does not exist: take it off the list`);

if (problems.length > 0) {
  console.error(`table owners: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`table owners: ${CORE.map((t) => `${t.sql} (${t.owner}, ${t.readers.length} readers left)`).join(', ')}`);
