import type { Lang } from '@lumigrid/contract';
import { fillText, serverTexts, type ServerTexts } from '../i18n/server-texts.ts';

/** One schema error as Ajv reports it (the parts the message needs). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

type Problem = keyof ServerTexts['inputProblem']['problem'];

/** Schema keywords that say one problem in other words; `{n}` in a problem is the limit, `{t}` the types it may have. */
const SAME_PROBLEM: Record<string, Problem> = {
  pattern: 'wrongFormat',
  format: 'wrongFormat',
  enum: 'notAllowed',
  const: 'notAllowed',
  anyOf: 'notAllowed',
  oneOf: 'notAllowed',
};

/** The problem a schema keyword names, or `invalid` for one the catalogue does not say. */
function problemOf(keyword: string, problems: ServerTexts['inputProblem']['problem']): string {
  const key = SAME_PROBLEM[keyword] ?? keyword;
  return Object.hasOwn(problems, key) ? problems[key as Problem] : problems.invalid;
}

/** `/steps/0/holdS` as people read it: `steps[0].holdS`. */
function fieldOf(error: SchemaError): string {
  const parts = error.instancePath.split('/').slice(1);
  const missing = typeof error.params.missingProperty === 'string' ? [error.params.missingProperty] : [];
  return [...parts, ...missing].reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/**
 * The field a refused input got wrong and what is wrong with it, in the caller's language
 * (`holdS: must be a multiple of 10`). Alternatives of one field (a number or null) are said together.
 */
export function inputProblem(errors: readonly SchemaError[], lang: Lang, part?: string): string {
  const first = errors[0];
  if (!first) return '';
  const sameField = errors.filter((e) => e.instancePath === first.instancePath);
  const types = sameField.every((e) => e.keyword === 'type' || e.keyword === 'anyOf')
    ? [...new Set(sameField.filter((e) => e.keyword === 'type').flatMap((e) => String(e.params.type).split(',')))]
    : [];
  const text = serverTexts(lang).inputProblem;
  const typeName = (type: string) => (Object.hasOwn(text.type, type) ? text.type[type as keyof typeof text.type] : type);
  const problem =
    types.length > 0
      ? fillText(text.problem.type, { t: types.map(typeName).join(text.or) })
      : fillText(problemOf(first.keyword, text.problem), { n: String(first.params.limit ?? first.params.multipleOf ?? '') });
  const field = fieldOf(first) || (part === 'body' || part === undefined ? text.body : part);
  return `${field}: ${problem}`;
}
