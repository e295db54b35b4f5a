// Fails when folders of a workspace import each other, directly or round a longer loop, or when a page imports
// another page: each folder must sit above or below another, never both. Tests and their fixtures are left out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
/** Folders that count as one unit: a domain of the server, a feature or page area of the web. */
const WORKSPACES = [
  { src: 'apps/server/src', units: ['modules/*'] },
  { src: 'apps/web/src', units: ['features/*', 'pages/*'] },
  { src: 'apps/gateway-sim/src', units: [] },
  { src: 'packages/contract/src', units: [] },
  { src: 'packages/protocol/src', units: [] },
];
const isTestFile = (path: string) => /\.test\.tsx?$|\.fixtures\.ts$|test-support\.ts$|test-clients\.ts$|(^|\/)test\//.test(path);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

function unitOf(relPath: string, units: string[]): string {
  const parts = relPath.split('/');
  // A file directly in src is a unit of its own: the composition root (app.ts) sits above what config.ts is below.
  if (parts.length === 1) return parts[0]!.replace(/\.tsx?$/, '');
  for (const pattern of units) {
    const [head] = pattern.split('/');
    if (parts[0] === head && parts.length > 2) return `${head}/${parts[1]}`;
  }
  return parts[0]!;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const seen = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    seen.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!seen.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, seen.get(next)!));
    }
    if (low.get(node) === seen.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!seen.has(node)) visit(node);
  return found;
}

const problems: string[] = [];
for (const { src, units } of WORKSPACES) {
  const base = join(root, src);
  const graph = new Map<string, Set<string>>();
  const edges = new Map<string, string>();
  for (const file of files(base)) {
    const rel = relative(base, file);
    if (isTestFile(rel)) continue;
    const from = unitOf(rel, units);
    if (!graph.has(from)) graph.set(from, new Set());
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      const target = relative(base, resolve(dirname(file), spec!));
      if (target.startsWith('..')) continue;
      const to = unitOf(target, units);
      if (to === from) continue;
      graph.get(from)!.add(to);
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, rel);
      if (from.startsWith('pages/') && to.startsWith('pages/')) problems.push(`${src}: a page imports another page: ${rel} -> ${target}`);
    }
  }
  for (const component of cycles(graph)) {
    const members = new Set(component);
    const links = [...edges.entries()].filter(([key]) => {
      const [a = '', b = ''] = key.split(' -> ');
      return members.has(a) && members.has(b);
    });
    problems.push(`${src}: folders import each other: ${component.join(', ')}\n${links.map(([k, f]) => `    ${k} (${f})`).join('\n')}`);
  }
}

if (problems.length) {
  console.error(`Import cycles between folders:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('import cycles: none');
