import { allEndpoints, type EndpointSpec } from '@lumigrid/contract';
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { clone, looseFields, owner, read, type LooseField, type Schema } from '../test/body-fields.ts';
import { validatorCompiler } from './validator.ts';

/** Every JSON body of the endpoint table, as the server validates it, with a sample it accepts. */
const compile = validatorCompiler();
const bodies = allEndpoints()
  .filter((e): e is EndpointSpec & { body: Schema } => e.body !== undefined && e.kind !== 'upload')
  .map((endpoint) => {
    const { body, fields } = looseFields(endpoint.body);
    const validate = compile({ schema: endpoint.body, method: endpoint.method, url: endpoint.path, httpPart: 'body' }) as ValidateFunction;
    return { name: `${endpoint.method} ${endpoint.path}`, body, fields, validate };
  });
const loose = bodies.filter((b) => b.fields.length > 0);

/**
 * Sends, for every field `pick` selects, the body's sample with that field set to null (or left out), and answers
 * what the server made of each: whether it accepted the body, and what the field then holds.
 */
function sentWithField(pick: (field: LooseField) => boolean, as: 'null' | 'absent') {
  return loose.flatMap(({ name, body, fields, validate }) =>
    fields.filter(pick).map((field) => {
      const sent = clone(body);
      if (as === 'null') owner(sent, field.path)[field.path.at(-1)!] = null;
      else delete owner(sent, field.path)[field.path.at(-1)!];
      const accepted = validate(sent);
      return { field, accepted, kept: read(sent, field.path), label: `${name} ${field.path.join('.')}` };
    }),
  );
}

describe('body fields as the server validates them, for every endpoint of the table', () => {
  it('finds the optional and nullable fields of the table, the linkage lux and project longitude among them', () => {
    const names = loose.flatMap((b) => b.fields.map((f) => `${b.name} ${f.path.join('.')}`));
    expect(names).toContain('POST /api4/scene/v1/linkage lux');
    expect(names).toContain('POST /api4/project/v1/update longitude');
    expect(loose.length).toBeGreaterThan(40);
  });

  it('takes each sample body as sent, numbers as numbers', () => {
    const refused: string[] = [];
    for (const { name, body, validate } of bodies) {
      const sent = clone(body);
      if (!validate(sent)) refused.push(`${name}: ${JSON.stringify(validate.errors?.[0])}`);
      else expect(sent, name).toEqual(body);
    }
    expect(refused).toEqual([]);
  });

  it('keeps null as null in every nullable field', () => {
    const changed = sentWithField((f) => f.nullable, 'null')
      .filter(({ accepted, kept }) => !accepted || kept !== null)
      .map(({ label, accepted, kept }) => `${label}: ${accepted ? JSON.stringify(kept) : 'refused'}`);
    expect(changed).toEqual([]);
  });

  it('keeps an absent optional field absent (or its documented default)', () => {
    const changed = sentWithField((f) => f.optional, 'absent')
      .filter(({ field, accepted, kept }) => !accepted || kept !== field.default)
      .map(({ label, accepted, kept }) => `${label}: ${accepted ? JSON.stringify(kept) : 'refused'}`);
    expect(changed).toEqual([]);
  });

  it('refuses null in a field that is only optional, instead of storing 0, "" or false', () => {
    const taken = sentWithField((f) => f.optional && !f.nullable, 'null')
      .filter(({ accepted }) => accepted)
      .map(({ label, kept }) => `${label}: ${JSON.stringify(kept)}`);
    expect(taken).toEqual([]);
  });

  it('still reads numbers and lists from the text of query strings and path parameters', () => {
    const validate = compile({
      schema: { type: 'object', properties: { page: { type: 'integer' }, ids: { type: 'array', items: { type: 'string' } } } },
      method: 'GET',
      url: '/',
      httpPart: 'querystring',
    }) as ValidateFunction;
    const query: Record<string, unknown> = { page: '2', ids: '7' };
    expect(validate(query)).toBe(true);
    expect(query).toEqual({ page: 2, ids: ['7'] });
  });
});
