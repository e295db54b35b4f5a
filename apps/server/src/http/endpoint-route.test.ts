import { OPERATE_AUTH, USER_AUTH, endpoint, type EndpointObjects } from '@lumigrid/contract';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { AuthContext } from './auth.ts';
import { endpointRoutes, type RequireObjects } from './endpoint-route.ts';
import { registerErrorHandling } from './error-handler.ts';
import type { App } from './types.ts';
import { validatorCompiler } from './validator.ts';
import { denyAccess } from '../modules/access/access.ts';

const CALLER: AuthContext = {
  userId: 1n,
  tenantId: 1n,
  userAuth: USER_AUTH.account,
  operateAuth: OPERATE_AUTH.owner,
  lang: 'en',
  sessionId: 1n,
};

const rename = endpoint({
  method: 'POST',
  path: '/api4/test/v1/rename/:id',
  tags: ['test'],
  summary: 'A call naming a group in its path and a map in its body',
  access: 'write',
  objects: { params: { id: 'group' }, body: { mapId: 'map' } },
  params: Type.Object({ id: Type.String() }),
  body: Type.Object({ mapId: Type.Optional(Type.String()), name: Type.String() }),
  response: Type.Null(),
});

/** An app with one endpoint whose object check is a fake that allows only the ids given. */
async function appAllowing(allowed: Set<string>) {
  const asked: Array<{ objects: EndpointObjects; permission: string; input: unknown }> = [];
  const handled: string[] = [];
  const requireObjects: RequireObjects = async (_auth, permission, objects, input) => {
    asked.push({ objects, permission, input });
    const params = input.params as { id: string };
    const body = input.body as { mapId?: string };
    if (!allowed.has(params.id) || (body.mapId !== undefined && !allowed.has(body.mapId))) denyAccess();
  };
  const app = Fastify() as unknown as App;
  app.setValidatorCompiler(validatorCompiler());
  registerErrorHandling(app, { servePages: false });
  endpointRoutes(
    app,
    async () => CALLER,
    requireObjects,
  )(rename, async ({ params }) => {
    handled.push(params.id);
    return null;
  });
  await app.ready();
  return { app, asked, handled };
}

const send = (app: App, id: string, body: unknown) =>
  app.inject({ method: 'POST', url: `/api4/test/v1/rename/${id}`, headers: { authorization: 'Bearer t' }, payload: body as object });

describe('the route layer\u2019s object check', () => {
  it('refuses an id the caller may not touch with 110011 before the handler runs', async () => {
    const { app, asked, handled } = await appAllowing(new Set(['5']));
    const res = await send(app, '5', { mapId: '6', name: 'x' });
    expect(res.json()).toMatchObject({ code: 110011 });
    expect(handled).toEqual([]);
    expect(asked).toEqual([{ objects: rename.objects, permission: 'write', input: expect.objectContaining({ params: { id: '5' } }) }]);
    await app.close();
  });

  it('runs the handler once every declared id is allowed', async () => {
    const { app, handled } = await appAllowing(new Set(['5', '6']));
    expect((await send(app, '5', { mapId: '6', name: 'x' })).json()).toMatchObject({ code: 0 });
    expect(handled).toEqual(['5']);
    await app.close();
  });

  it('validates the input before checking its ids', async () => {
    const { app, asked } = await appAllowing(new Set());
    expect((await send(app, '5', { mapId: '6' })).json()).toMatchObject({ code: 100001 });
    expect(asked).toEqual([]);
    await app.close();
  });
});
