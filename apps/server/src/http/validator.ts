import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const textParts = ajv({ coerceTypes: 'array' });
  const bodies = ajv({ coerceTypes: false });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : textParts).compile(schema as object) as ValidateFunction;
}
