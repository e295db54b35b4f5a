import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export type Schema = Record<string, any>;
export type Path = Array<string | number>;

/** A field of a body that a caller may leave out or send as null. */
export interface LooseField {
  path: Path;
  optional: boolean;
  nullable: boolean;
  default?: unknown;
}

/** Texts tried, in order, for a string with a pattern or format: the first the schema takes is the sample. */
const TEXT_CANDIDATES = [
  '1',
  'Name',
  'a@example.com',
  '+8613800000000',
  '2026-11-23',
  '2026-11-23T08:00:00.000Z',
  '08:00',
  '08:00:00',
  'Asia/Shanghai',
  '0123456789abcdef0123456789abcdef.png',
  'AABBCCDDEEFF',
  'AA:BB:CC:DD:EE:FF',
  '#ff0000',
  'ff0000',
  'https://example.com/',
  'en',
  '123456',
  '1_1',
  'com.example.app',
  'lumigrid-backup-20261123-080000.tar.gz',
];

const plain = new Ajv({ strict: false });
addFormats(plain);
const checkers = new WeakMap<object, ValidateFunction>();
const accepts = (schema: Schema, value: unknown) => {
  let check = checkers.get(schema);
  if (!check) checkers.set(schema, (check = plain.compile(schema)));
  return check(value);
};

const isNull = (schema: Schema) => schema.type === 'null';
const nullable = (schema: Schema) => Array.isArray(schema.anyOf) && schema.anyOf.some(isNull);

/**
 * A value the schema accepts, every optional property included, noting each optional or nullable property
 * on the way. Unions take their first branch that is not null.
 */
export function sample(schema: Schema, path: Path, fields: LooseField[]): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return sample(schema.anyOf.find((s: Schema) => !isNull(s)) ?? schema.anyOf[0], path, fields);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((s: Schema) => sample(s, path, fields)));
  switch (schema.type) {
    case 'object': {
      const required = new Set<string>(schema.required ?? []);
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) {
        const at = [...path, key];
        const optional = !required.has(key);
        if (optional || nullable(property)) fields.push({ path: at, optional, nullable: nullable(property), default: property.default });
        value[key] = sample(property, at, fields);
      }
      return value;
    }
    case 'array': {
      const count = Math.max(1, schema.minItems ?? 0);
      return Array.from({ length: count }, (_, i) => sample(schema.items ?? {}, [...path, i], i === 0 ? fields : []));
    }
    case 'string': {
      if (schema.format === 'binary') return 'file';
      const fits = (text: string) => accepts(schema, text);
      const found = TEXT_CANDIDATES.find(fits) ?? (schema.minLength ? 'x'.repeat(schema.minLength) : 'x');
      return found;
    }
    case 'integer':
    case 'number': {
      const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      return Math.max(low, Math.min(schema.maximum ?? 1, 1));
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 1;
  }
}

export const read = (value: unknown, path: Path) => path.reduce<any>((v, key) => v?.[key], value);
export const owner = (value: unknown, path: Path) => read(value, path.slice(0, -1)) as Record<string | number, unknown>;
export const clone = <T>(value: T): T => structuredClone(value);

/** The optional and nullable fields of a body schema (one branch of each union), with a sample body it accepts. */
export function looseFields(schema: Schema): { body: unknown; fields: LooseField[] } {
  const fields: LooseField[] = [];
  return { body: sample(schema, [], fields), fields };
}
