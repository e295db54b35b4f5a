import type { Lang, Localised } from '@lumigrid/contract';

/** One schema error as Ajv reports it (the parts the message needs). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const TYPE: Record<string, Localised> = {
  integer: { en: 'a whole number', cn: '整数', tc: '整數', ja: '整数' },
  number: { en: 'a number', cn: '数字', tc: '數字', ja: '数値' },
  string: { en: 'text', cn: '文本', tc: '文字', ja: '文字列' },
  boolean: { en: 'true or false', cn: 'true 或 false', tc: 'true 或 false', ja: 'true または false' },
  object: { en: 'an object', cn: '对象', tc: '物件', ja: 'オブジェクト' },
  array: { en: 'a list', cn: '列表', tc: '清單', ja: 'リスト' },
  null: { en: 'null', cn: 'null', tc: 'null', ja: 'null' },
};

const OR: Localised = { en: ' or ', cn: '或', tc: '或', ja: 'または' };

const NOT_ALLOWED: Localised = {
  en: 'is not one of the allowed values',
  cn: '不是允许的值',
  tc: '不是允許的值',
  ja: '許可された値ではありません',
};
const WRONG_FORMAT: Localised = { en: 'has the wrong format', cn: '格式不正确', tc: '格式不正確', ja: '形式が正しくありません' };

/** What is wrong with a field, by schema keyword; `{n}` is the limit, `{t}` the types it may have. */
const PROBLEM: Record<string, Localised> = {
  required: { en: 'is required', cn: '必填', tc: '必填', ja: '必須です' },
  type: { en: 'must be {t}', cn: '必须是{t}', tc: '必須是{t}', ja: '{t}である必要があります' },
  minimum: { en: 'must be at least {n}', cn: '不能小于 {n}', tc: '不能小於 {n}', ja: '{n} 以上である必要があります' },
  exclusiveMinimum: { en: 'must be more than {n}', cn: '必须大于 {n}', tc: '必須大於 {n}', ja: '{n} より大きい必要があります' },
  maximum: { en: 'must be at most {n}', cn: '不能大于 {n}', tc: '不能大於 {n}', ja: '{n} 以下である必要があります' },
  exclusiveMaximum: { en: 'must be less than {n}', cn: '必须小于 {n}', tc: '必須小於 {n}', ja: '{n} 未満である必要があります' },
  multipleOf: { en: 'must be a multiple of {n}', cn: '必须是 {n} 的倍数', tc: '必須是 {n} 的倍數', ja: '{n} の倍数である必要があります' },
  minLength: {
    en: 'must be at least {n} characters',
    cn: '至少 {n} 个字符',
    tc: '至少 {n} 個字元',
    ja: '{n} 文字以上である必要があります',
  },
  maxLength: { en: 'must be at most {n} characters', cn: '最多 {n} 个字符', tc: '最多 {n} 個字元', ja: '{n} 文字以下である必要があります' },
  minItems: { en: 'needs at least {n} entries', cn: '至少 {n} 项', tc: '至少 {n} 項', ja: '{n} 件以上必要です' },
  maxItems: { en: 'takes at most {n} entries', cn: '最多 {n} 项', tc: '最多 {n} 項', ja: '{n} 件以下にしてください' },
  uniqueItems: { en: 'has an entry twice', cn: '有重复项', tc: '有重複項', ja: '重複した項目があります' },
  pattern: WRONG_FORMAT,
  format: WRONG_FORMAT,
  enum: NOT_ALLOWED,
  const: NOT_ALLOWED,
  anyOf: NOT_ALLOWED,
  oneOf: NOT_ALLOWED,
  additionalProperties: { en: 'is not expected', cn: '不应出现', tc: '不應出現', ja: '指定できません' },
  invalid: { en: 'is not valid', cn: '无效', tc: '無效', ja: '無効です' },
};

const BODY: Localised = { en: 'body', cn: '请求体', tc: '請求內容', ja: '本文' };

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
  const problem =
    types.length > 0
      ? PROBLEM.type![lang].replace('{t}', types.map((t) => TYPE[t]?.[lang] ?? t).join(OR[lang]))
      : (PROBLEM[first.keyword] ?? PROBLEM.invalid!)[lang].replace('{n}', String(first.params.limit ?? first.params.multipleOf ?? ''));
  const field = fieldOf(first) || (part === 'body' || part === undefined ? BODY[lang] : part);
  return `${field}: ${problem}`;
}
