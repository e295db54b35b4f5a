import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';

/** What Fastify's own validator sets, less coercion; unknown properties are removed before validation. */
const COMMON: Options = {
  useDefaults: true,
  removeAdditional: 'all',
  addUsedSchema: false,
  // One error is enough to name the field; collecting all of them lets a crafted body cost much more.
  allErrors: false,
};

function ajv(options: Options): Ajv {
  const instance = new Ajv({ ...COMMON, ...options });
  addFormats(instance);
  return instance;
}

/**
 * Path parameters, query strings and headers arrive as text, so `?days=7` must become the number 7 and one
 * `?id=3` a list where the schema wants one. A JSON body carries its own types: coercing it turned `null`
 * into 0 ("switch on below 0 lx" for "always switch on") and `"60"` into 60, so bodies are taken as sent.
 * Multipart uploads reach the validator as text fields, and their schemas hold text only.
 */
const textParts = ajv({ coerceTypes: 'array' });
const bodies = ajv({ coerceTypes: false });

/**
 * The validators of the endpoint table. The two Ajv instances are shared by every app of the process and Ajv
 * keeps what it compiled per schema object, so a process that builds many apps on the same table (the test
 * suites build hundreds) compiles each schema once instead of once an app: a second of CPU an app.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : textParts).compile(schema as object) as ValidateFunction;
}

const buildSerializer = SerializerSelector()({}, {});
const serializers = new WeakMap<object, (data: unknown) => string>();

/** Fastify's own answer serializer (fast-json-stringify), kept per schema object for the same reason. */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const schema = route.schema as object;
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = buildSerializer(route as Parameters<typeof buildSerializer>[0]);
    serializers.set(schema, serialize);
  }
  return serialize;
};
