import { LANGS, allEndpoints, errorMessage, sceneEndpoints, projectEndpoints, type EndpointSpec } from '@lumigrid/contract';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clone, looseFields, type Schema } from '../test/body-fields.ts';
import { api, signUpByMail, startApp, type Harness } from '../test/harness.ts';
import { inputProblem, type SchemaError } from './input-problem.ts';
import { validatorCompiler } from './validator.ts';

describe('what a refused input says', () => {
  it('names the missing field of every body of the endpoint table, in each language', () => {
    const compile = validatorCompiler();
    const unnamed: string[] = [];
    let checked = 0;
    for (const endpoint of allEndpoints().filter(
      (e): e is EndpointSpec & { body: Schema } => e.body !== undefined && e.kind !== 'upload',
    )) {
      const validate = compile({
        schema: endpoint.body,
        method: endpoint.method,
        url: endpoint.path,
        httpPart: 'body',
      }) as ValidateFunction;
      const { body } = looseFields(endpoint.body);
      for (const field of (endpoint.body.required as string[] | undefined) ?? []) {
        const sent = clone(body) as Record<string, unknown>;
        delete sent[field];
        expect(validate(sent), `${endpoint.path} without ${field}`).toBe(false);
        checked++;
        for (const lang of LANGS) {
          const said = inputProblem(validate.errors as SchemaError[], lang, 'body');
          if (!said.startsWith(`${field}: `)) unnamed.push(`${endpoint.path} ${lang}: ${said}`);
        }
      }
    }
    expect(unnamed).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('says what is wrong in the caller’s language, never in the validator’s English', () => {
    const nested: SchemaError[] = [{ keyword: 'maximum', instancePath: '/steps/0/members/1/action/percent', params: { limit: 100 } }];
    expect(inputProblem(nested, 'en')).toBe('steps[0].members[1].action.percent: must be at most 100');
    expect(inputProblem(nested, 'cn')).toBe('steps[0].members[1].action.percent: 不能大于 100');
    expect(inputProblem(nested, 'tc')).toBe('steps[0].members[1].action.percent: 不能大於 100');
    expect(inputProblem(nested, 'ja')).toBe('steps[0].members[1].action.percent: 100 以下である必要があります');
  });
});

describe('refused inputs through the server', () => {
  let h: Harness;
  let token: string;
  let projectId: string;
  beforeAll(async () => {
    h = await startApp('pglite');
    token = await signUpByMail(h, 'fields@example.com');
    const tree = await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token });
    projectId = tree.body.data.projects[0]!.id;
  });
  afterAll(async () => h?.close());

  const linkage = { sensorId: '1', groupId: '2', onDetectPercent: 90, onClearPercent: 10, holdS: 10, lux: null };
  const said = async (endpoint: EndpointSpec, input: unknown, lang: (typeof LANGS)[number]) => {
    const res = await api(h.app, endpoint, input as never, { token, lang });
    expect(res.body.code, JSON.stringify(res.body)).toBe(100001);
    return res.body.msg;
  };

  it('names the field and the rule it breaks, in all four languages', async () => {
    const body = { ...linkage, holdS: 15 };
    expect(await said(sceneEndpoints.saveLinkage, { body }, 'en')).toBe(`${errorMessage(100001, 'en')}: holdS: must be a multiple of 10`);
    expect(await said(sceneEndpoints.saveLinkage, { body }, 'cn')).toBe(`${errorMessage(100001, 'cn')}: holdS: 必须是 10 的倍数`);
    expect(await said(sceneEndpoints.saveLinkage, { body }, 'tc')).toBe(`${errorMessage(100001, 'tc')}: holdS: 必須是 10 的倍數`);
    expect(await said(sceneEndpoints.saveLinkage, { body }, 'ja')).toBe(
      `${errorMessage(100001, 'ja')}: holdS: 10 の倍数である必要があります`,
    );
    expect(await said(sceneEndpoints.saveLinkage, { body: { ...linkage, lux: 'dark' } }, 'en')).toBe(
      `${errorMessage(100001, 'en')}: lux: must be a whole number or null`,
    );
    const { sensorId: _left, ...withoutSensor } = linkage;
    expect(await said(sceneEndpoints.saveLinkage, { body: withoutSensor }, 'ja')).toBe(`${errorMessage(100001, 'ja')}: sensorId: 必須です`);
  });

  it('names the field when the server, not the schema, finds it wrong', async () => {
    expect(await said(sceneEndpoints.week, { body: { projectId, from: '2026-13-45' } }, 'en')).toBe(`${errorMessage(100001, 'en')}: from`);
  });
});
