// Fails when a server file outside a table's owning domain writes one of the platform's core tables, or names it at
// all (imports its drizzle table or reads it in SQL text): the others read through the owner's exported queries and
// subqueries, or through `db/owned-reads.ts` where the owner imports them (docs/architecture.md "Owners").
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
}

const CORE: CoreTable[] = [
  {
    drizzle: 'devices',
    sql: 'devices',
    owner: 'modules/devices',
    coWriters: {
      'modules/gateways/gateways.repo.ts': "a gateway's import and unbinding add and remove its devices in the gateway's transaction",
    },
  },
  {
    drizzle: 'deviceStates',
    sql: 'device_states',
    owner: 'modules/device-reports',
    coWriters: {},
  },
  {
    drizzle: 'gateways',
    sql: 'gateways',
    owner: 'modules/gateways',
    coWriters: {
      'modules/device-reports/device-reports.repo.ts': "the ingest's batch also moves the gateways' last-seen time",
      'modules/scenes/scenes.repo.ts': "a scene's upload bumps its gateway's configuration version in the scene's transaction",
    },
  },
  {
    drizzle: 'maps',
    sql: 'maps',
    owner: 'modules/projects',
    coWriters: {},
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
for (const path of files(join(root, SERVER))) {
  const rel = relative(join(root, SERVER), path);
  if (isLeftOut(rel)) continue;
  const source = readFileSync(path, 'utf8');
  const sqlText = templateText(path, source);
  for (const table of CORE) {
    if (rel.startsWith(`${table.owner}/`) || rel in table.coWriters) continue;
    if (writes(source, sqlText, table)) problems.push(`${SERVER}/${rel} writes ${table.sql}, which ${table.owner} owns: ask its repo to`);
    else if (names(source, sqlText, table)) problems.push(`${SERVER}/${rel} names ${table.sql}: read it through ${table.owner}'s queries`);
  }
}

if (problems.length > 0) {
  console.error(`table owners: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`table owners: ${CORE.map((t) => `${t.sql} (${t.owner})`).join(', ')}, read elsewhere only through their owners`);
