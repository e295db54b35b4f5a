import { isDeepStrictEqual } from 'node:util';
import type { OpenApiDocument } from './openapi.ts';

// The breaking changes between two versions of the API document (docs/openapi/CHANGELOG.md): what stops a client
// written against the older one from working. A removed operation; an answer field removed, made optional or
// retyped (answering a type the client did not expect); a request field or query parameter newly required, retyped
// (refusing what was accepted) or removed where unknown fields are refused. Additions are not breaking.

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  additionalProperties?: boolean | Schema;
};
type Parameter = { in: string; name: string; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};

/** One breaking change: the operation it breaks (`POST /api4/zone/v1/control`) and what changed. */
export interface BreakingChange {
  operation: string;
  change: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operationsOf(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item))
      if (METHODS.includes(method)) operations.set(`${method.toUpperCase()} ${path}`, operation as Operation);
  return operations;
}

/** The alternatives of a union, or the schema itself. */
const alternatives = (schema: Schema): Schema[] => schema.anyOf ?? schema.oneOf ?? [schema];

/** The JSON types a schema admits; undefined when it admits any. */
function typesOf(schema: Schema): Set<string> | undefined {
  const types = new Set<string>();
  for (const alternative of alternatives(schema)) {
    if (alternative.anyOf || alternative.oneOf) {
      const inner = typesOf(alternative);
      if (!inner) return undefined;
      inner.forEach((t) => types.add(t));
    } else if (alternative.type !== undefined) {
      for (const t of [alternative.type].flat()) types.add(t === 'integer' ? 'number' : t);
    } else if (alternative.properties) types.add('object');
    else if (alternative.const !== undefined || alternative.enum) {
      for (const value of alternative.enum ?? [alternative.const]) types.add(value === null ? 'null' : typeof value);
    } else return undefined;
  }
  return types;
}

/** The values an enumerated schema admits; undefined when it is not an enumeration. */
function valuesOf(schema: Schema): unknown[] | undefined {
  const values: unknown[] = [];
  for (const alternative of alternatives(schema)) {
    if (alternative.enum) values.push(...alternative.enum);
    else if (alternative.const !== undefined) values.push(alternative.const);
    else if (alternative.type !== 'null') return undefined;
  }
  return values;
}

const objectPart = (schema: Schema) => alternatives(schema).find((s) => s.properties !== undefined);
const arrayPart = (schema: Schema) => alternatives(schema).find((s) => s.items !== undefined);

/**
 * Compares a schema the client reads (`answer`) or writes (`request`). An answer breaks the client when it may
 * hold what the old one could not; a request, when it refuses what the old one took.
 */
function compare(before: Schema, after: Schema, where: string, side: 'answer' | 'request', out: string[]): void {
  const [was, is] = [typesOf(before), typesOf(after)];
  const retyped = side === 'answer' ? was && (!is || [...is].some((t) => !was.has(t))) : was && is && [...was].some((t) => !is.has(t));
  if (retyped) {
    out.push(`${where} retyped from ${[...(was ?? ['any'])].join('|')} to ${[...(is ?? ['any'])].join('|')}`);
    return;
  }
  if (side === 'request') {
    const [oldValues, newValues] = [valuesOf(before), valuesOf(after)];
    const dropped = newValues && oldValues ? oldValues.filter((v) => !newValues.some((n) => isDeepStrictEqual(n, v))) : [];
    if (dropped.length) out.push(`${where} no longer takes ${dropped.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  const [oldObject, newObject] = [objectPart(before), objectPart(after)];
  if (oldObject && newObject) {
    const [oldRequired, newRequired] = [new Set(oldObject.required ?? []), new Set(newObject.required ?? [])];
    for (const [name, field] of Object.entries(oldObject.properties ?? {})) {
      const path = `${where}.${name}`;
      const now = newObject.properties?.[name];
      if (side === 'answer' && !now) out.push(`${path} removed`);
      else if (side === 'answer' && oldRequired.has(name) && !newRequired.has(name)) out.push(`${path} may now be missing`);
      else if (side === 'request' && !now && newObject.additionalProperties === false)
        out.push(`${path} removed (unknown fields are refused)`);
      if (now) compare(field, now, path, side, out);
    }
    if (side === 'request') for (const name of newRequired) if (!oldRequired.has(name)) out.push(`${where}.${name} newly required`);
  }
  const [oldArray, newArray] = [arrayPart(before), arrayPart(after)];
  if (oldArray?.items && newArray?.items) compare(oldArray.items, newArray.items, `${where}[]`, side, out);
}

const jsonSchemaOf = (content: Record<string, { schema?: Schema }> | undefined): Schema | undefined =>
  content ? Object.values(content)[0]?.schema : undefined;

/** The query parameters as one object schema, so they compare as request fields do. */
function queryOf(operation: Operation): Schema {
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  return {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])),
    required: query.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/** Every change from `before` to `after` that breaks a client written against `before`. */
export function breakingChanges(before: OpenApiDocument, after: OpenApiDocument): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const now = operationsOf(after);
  for (const [operation, was] of operationsOf(before)) {
    const is = now.get(operation);
    if (!is) {
      changes.push({ operation, change: 'operation removed' });
      continue;
    }
    const found: string[] = [];
    const [oldAnswer, newAnswer] = [jsonSchemaOf(was.responses?.['200']?.content), jsonSchemaOf(is.responses?.['200']?.content)];
    if (oldAnswer && newAnswer) compare(oldAnswer, newAnswer, 'answer', 'answer', found);
    const [oldBody, newBody] = [jsonSchemaOf(was.requestBody?.content), jsonSchemaOf(is.requestBody?.content)];
    if (newBody && !oldBody) found.push('request body newly required');
    if (oldBody && newBody) compare(oldBody, newBody, 'body', 'request', found);
    compare(queryOf(was), queryOf(is), 'query', 'request', found);
    changes.push(...found.map((change) => ({ operation, change })));
  }
  return changes;
}

/** The sections of the changelog by version: `## 2.0.0` and what follows up to the next section. */
export function changelogSections(changelog: string): Map<string, string> {
  const sections = new Map<string, string>();
  const heads = [...changelog.matchAll(/^## +([^\s(]+).*$/gm)];
  heads.forEach((head, i) => sections.set(head[1]!, changelog.slice(head.index + head[0].length, heads[i + 1]?.index ?? changelog.length)));
  return sections;
}

export const SNAPSHOT_PATH = 'docs/openapi/openapi.json';
export const CHANGELOG_PATH = 'docs/openapi/CHANGELOG.md';
const REFRESH = `npm run openapi:snapshot`;

/**
 * What the checked-in snapshot says of the document the server makes now: `same`; `refresh` (changed, nothing
 * broken, or broken and written up: the snapshot may be written); or `refused`, with what to do.
 */
export function snapshotVerdict(
  snapshot: OpenApiDocument,
  current: OpenApiDocument,
  changelog: string,
): { verdict: 'same' } | { verdict: 'refresh' | 'refused'; message: string } {
  if (isDeepStrictEqual(snapshot, current)) return { verdict: 'same' };
  const breaking = breakingChanges(snapshot, current);
  if (breaking.length === 0)
    return {
      verdict: 'refresh',
      message: `The API document changed without breaking clients: run \`${REFRESH}\` and commit ${SNAPSHOT_PATH}.`,
    };
  const list = breaking.map((b) => `  - ${b.operation}: ${b.change}`).join('\n');
  const version = current.info.version;
  const section = changelogSections(changelog).get(version);
  const unlisted = [...new Set(breaking.map((b) => b.operation))].filter((operation) => !section?.includes(operation));
  if (version !== snapshot.info.version && section !== undefined && unlisted.length === 0)
    return {
      verdict: 'refresh',
      message: `The API document's breaking changes are in ${CHANGELOG_PATH} under ${version}: run \`${REFRESH}\` and commit ${SNAPSHOT_PATH}.`,
    };
  const steps = [
    version === snapshot.info.version
      ? `raise API_VERSION in packages/contract/src/endpoint.ts (now ${version}, the snapshot's; a breaking change raises the major: ${Number(version.split('.')[0]) + 1}.0.0)`
      : undefined,
    `add a section "## <the new API_VERSION> (<date>)" to ${CHANGELOG_PATH} naming each operation above (as written there, METHOD /path) with what changed and what clients do about it`,
    `then run \`${REFRESH}\` and commit ${SNAPSHOT_PATH} and ${CHANGELOG_PATH}`,
  ].filter(Boolean);
  return {
    verdict: 'refused',
    message: `The API document changed in a way that breaks clients written against ${SNAPSHOT_PATH} (version ${snapshot.info.version}):\n${list}\nIf that is meant: ${steps.map((s, i) => `${i + 1}. ${s}`).join('; ')}. If not, undo the change.`,
  };
}
