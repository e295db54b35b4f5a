import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANGELOG_PATH, SNAPSHOT_PATH, breakingChanges, changelogSections, snapshotVerdict } from './openapi-changes.ts';
import { openApiDocument, type OpenApiDocument } from './openapi.ts';

const root = resolve(import.meta.dirname, '../../../..');

describe('the checked-in API document (docs/openapi)', () => {
  it('is the document the server makes now, or the change is written up (docs/openapi/CHANGELOG.md)', async () => {
    const snapshot = JSON.parse(readFileSync(resolve(root, SNAPSHOT_PATH), 'utf8')) as OpenApiDocument;
    const outcome = snapshotVerdict(snapshot, await openApiDocument(), readFileSync(resolve(root, CHANGELOG_PATH), 'utf8'));
    expect(outcome.verdict === 'same' ? '' : outcome.message).toBe('');
  });

  it('has a changelog section for the version it carries', () => {
    const snapshot = JSON.parse(readFileSync(resolve(root, SNAPSHOT_PATH), 'utf8')) as OpenApiDocument;
    expect([...changelogSections(readFileSync(resolve(root, CHANGELOG_PATH), 'utf8')).keys()]).toContain(snapshot.info.version);
  });
});

/** A document of one operation, POST /x, with a body and an answer. */
function documentOf(version: string, body: object, answer: object, extraPaths: object = {}): OpenApiDocument {
  const content = (schema: object) => ({ content: { 'application/json': { schema } } });
  return {
    info: { version },
    paths: { '/x': { post: { requestBody: content(body), responses: { 200: content(answer) } } }, ...extraPaths },
  };
}
const object = (properties: Record<string, object>, required = Object.keys(properties), extra: object = {}) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const BODY = object({ id: { type: 'string' }, note: { type: 'string' } }, ['id'], { additionalProperties: false });
const ANSWER = object({
  data: object({ list: { type: 'array', items: object({ name: { type: 'string' }, at: nullable({ type: 'string' }) }) } }),
});
const GONE = { '/gone': { get: { responses: {} } } };
const BEFORE = documentOf('1.0.0', BODY, ANSWER, GONE);
const changesTo = (after: OpenApiDocument) => breakingChanges(BEFORE, after).map((c) => `${c.operation}: ${c.change}`);

describe('breaking changes of the API document', () => {
  it('finds a removed operation', () => {
    expect(changesTo(documentOf('1.0.0', BODY, ANSWER))).toEqual(['GET /gone: operation removed']);
  });

  it('finds answer fields removed, made optional, or answering another type (null included)', () => {
    const after = object({
      data: object({ list: { type: 'array', items: object({ name: nullable({ type: 'string' }), at: { type: 'string' } }, []) } }),
    });
    expect(changesTo(documentOf('1.0.0', BODY, after, GONE))).toEqual([
      'POST /x: answer.data.list[].name may now be missing',
      'POST /x: answer.data.list[].name retyped from string to string|null',
      'POST /x: answer.data.list[].at may now be missing',
    ]);
    const removed = object({ data: object({}) });
    expect(changesTo(documentOf('1.0.0', BODY, removed, GONE))).toEqual(['POST /x: answer.data.list removed']);
  });

  it('finds request fields newly required, retyped, narrowed or removed where unknown fields are refused', () => {
    const after = object({ id: { type: 'integer' }, kind: { enum: ['a'] } }, ['id', 'kind'], { additionalProperties: false });
    const before = documentOf('1.0.0', { ...BODY, properties: { ...BODY.properties, kind: { enum: ['a', 'b'] } } }, ANSWER, GONE);
    expect(breakingChanges(before, documentOf('1.0.0', after, ANSWER, GONE)).map((c) => c.change)).toEqual([
      'body.id retyped from string to number',
      'body.note removed (unknown fields are refused)',
      'body.kind no longer takes "b"',
      'body.kind newly required',
    ]);
  });

  it('lets additions through: a new operation, a new answer field, a new optional request field, a wider request type', () => {
    const body = object({ id: nullable({ type: 'string' }), note: { type: 'string' }, more: { type: 'string' } }, ['id'], {
      additionalProperties: false,
    });
    const answer = object({
      data: object({ list: { type: 'array', items: object({ name: { type: 'string' }, at: { type: 'null' }, n: { type: 'integer' } }) } }),
    });
    expect(changesTo(documentOf('1.0.0', body, answer, { ...GONE, '/new': { get: { responses: {} } } }))).toEqual([]);
  });
});

describe('the verdict on a changed document', () => {
  const broken = documentOf('1.0.0', BODY, ANSWER);
  const CHANGELOG = '# Changelog\n\n## 2.0.0 (2026-12-01)\n\n- GET /gone: removed, use POST /x.\n\n## 1.0.0\n\n- First.\n';

  it('asks only for a refreshed snapshot when nothing breaks, and passes an equal document', () => {
    expect(snapshotVerdict(BEFORE, structuredClone(BEFORE), '')).toEqual({ verdict: 'same' });
    const added = documentOf('1.0.0', BODY, ANSWER, { ...GONE, '/new': { get: { responses: {} } } });
    expect(snapshotVerdict(BEFORE, added, '')).toMatchObject({
      verdict: 'refresh',
      message: expect.stringContaining('npm run openapi:snapshot'),
    });
  });

  it('refuses a breaking change under the same version, saying what to raise and to write', () => {
    const outcome = snapshotVerdict(BEFORE, broken, CHANGELOG);
    expect(outcome.verdict).toBe('refused');
    expect('message' in outcome && outcome.message).toContain('GET /gone: operation removed');
    expect('message' in outcome && outcome.message).toContain('raise API_VERSION in packages/contract/src/endpoint.ts (now 1.0.0');
    expect('message' in outcome && outcome.message).toContain('docs/openapi/CHANGELOG.md');
  });

  it('refuses a new version whose changelog section is missing or leaves a broken operation out, and takes one that names it', () => {
    const raised = { ...broken, info: { version: '2.0.0' } };
    expect(snapshotVerdict(BEFORE, raised, '## 1.0.0\n').verdict).toBe('refused');
    expect(snapshotVerdict(BEFORE, raised, '## 2.0.0\n\n- POST /x: renamed.\n').verdict).toBe('refused');
    expect(snapshotVerdict(BEFORE, raised, CHANGELOG).verdict).toBe('refresh');
  });
});
