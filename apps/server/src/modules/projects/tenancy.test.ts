import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Building, MapInfo, Project, ProjectTree } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, call, expectError, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';
import { makePng, multipart } from '../../test/upload.fixtures.ts';

/** The names of the first account's objects: none may ever appear in an answer to the second account. */
const SECRET = ['Secret plant', 'Secret annex', 'Secret hall', 'Secret wing', 'Secret floor'];

type Ids = {
  project: Project;
  subProject: Project;
  building: Building;
  map: MapInfo;
  defaults: { project: string; build: string; map: string };
  image: string;
};
type Case = {
  route: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: (a: Ids, b: Ids) => string;
  body?: (a: Ids, b: Ids) => unknown;
  multipart?: (a: Ids) => ReturnType<typeof multipart>;
  code?: number;
};

/**
 * Every project, building and map route, called by a second account with the first account's ids (`a`) and, where a call
 * takes two ids, its own (`b`) for the other. `route` is the OpenAPI path, so the table provably covers all.
 */
const CASES: Case[] = [
  { route: '/api4/project_user/v1/projects/{id}', method: 'GET', url: (a) => `/api4/project_user/v1/projects/${a.project.id}` },
  { route: '/api4/project_user/v1/projects/{id}', method: 'GET', url: (a) => `/api4/project_user/v1/projects/${a.defaults.project}` },
  {
    route: '/api4/project_user/v1/{id}/builds/{buildId}',
    method: 'GET',
    url: (a) => `/api4/project_user/v1/${a.project.id}/builds/${a.building.id}`,
  },
  {
    route: '/api4/project_user/v1/{id}/builds/{buildId}',
    method: 'GET',
    url: (a, b) => `/api4/project_user/v1/${b.project.id}/builds/${a.building.id}`,
  },
  { route: '/api4/project_user/v1/{id}/maps/{mapId}', method: 'GET', url: (a) => `/api4/project_user/v1/${a.project.id}/maps/${a.map.id}` },
  {
    route: '/api4/project_user/v1/{id}/maps/{mapId}',
    method: 'GET',
    url: (a, b) => `/api4/project_user/v1/${b.project.id}/maps/${a.map.id}`,
  },
  { route: '/api4/project_user/v1/{id}/sub_links', method: 'GET', url: (a) => `/api4/project_user/v1/${a.project.id}/sub_links` },
  {
    route: '/api4/project/v1/add',
    method: 'POST',
    url: () => '/api4/project/v1/add',
    body: (a) => ({ name: 'Intruder', parentId: a.project.id }),
  },
  {
    route: '/api4/project/v1/update',
    method: 'POST',
    url: () => '/api4/project/v1/update',
    body: (a) => ({ id: a.project.id, name: 'Taken over' }),
  },
  {
    route: '/api4/project/v1/update',
    method: 'POST',
    url: () => '/api4/project/v1/update',
    body: (a, b) => ({ id: b.project.id, parentId: a.project.id }),
  },
  { route: '/api4/project/v1/delete/{id}', method: 'DELETE', url: (a) => `/api4/project/v1/delete/${a.subProject.id}` },
  // The default project of another account answers 110011, not 280009: even "default" is not told.
  { route: '/api4/project/v1/delete/{id}', method: 'DELETE', url: (a) => `/api4/project/v1/delete/${a.defaults.project}` },
  {
    route: '/api4/build/v1/add',
    method: 'POST',
    url: () => '/api4/build/v1/add',
    body: (a) => ({ projectId: a.project.id, name: 'Intruder' }),
  },
  {
    route: '/api4/build/v1/add',
    method: 'POST',
    url: () => '/api4/build/v1/add',
    body: (a, b) => ({ projectId: b.project.id, name: 'Intruder', parentId: a.building.id }),
  },
  {
    route: '/api4/build/v1/update',
    method: 'POST',
    url: () => '/api4/build/v1/update',
    body: (a) => ({ id: a.building.id, name: 'Taken over' }),
  },
  {
    route: '/api4/build/v1/update',
    method: 'POST',
    url: () => '/api4/build/v1/update',
    body: (a, b) => ({ id: b.building.id, parentId: a.building.id }),
  },
  { route: '/api4/build/v1/delete', method: 'POST', url: () => '/api4/build/v1/delete', body: (a) => ({ id: a.defaults.build }) },
  { route: '/api4/map/v1/add', method: 'POST', url: () => '/api4/map/v1/add', body: (a) => ({ buildId: a.building.id, name: 'Intruder' }) },
  // Another account's uploaded plan is unknown to this one: "please select a valid image", nothing more.
  {
    route: '/api4/map/v1/add',
    method: 'POST',
    url: () => '/api4/map/v1/add',
    body: (a, b) => ({ buildId: b.building.id, name: 'Thief', image: a.image }),
    code: 100013,
  },
  {
    route: '/api4/map/v1/update',
    method: 'POST',
    url: () => '/api4/map/v1/update',
    body: (a) => ({ id: a.map.id, name: 'Taken over', opacity: 1 }),
  },
  {
    route: '/api4/map/v1/update',
    method: 'POST',
    url: () => '/api4/map/v1/update',
    body: (a, b) => ({ id: b.map.id, image: a.image }),
    code: 100013,
  },
  { route: '/api4/map/v1/delete/{buildId}/{mapId}', method: 'DELETE', url: (a) => `/api4/map/v1/delete/${a.building.id}/${a.map.id}` },
  {
    route: '/api4/map/v1/delete/{buildId}/{mapId}',
    method: 'DELETE',
    url: (a) => `/api4/map/v1/delete/${a.defaults.build}/${a.defaults.map}`,
  },
  { route: '/api4/map/v1/move', method: 'PUT', url: () => '/api4/map/v1/move', body: (a, b) => ({ id: a.map.id, buildId: b.building.id }) },
  { route: '/api4/map/v1/move', method: 'PUT', url: () => '/api4/map/v1/move', body: (a, b) => ({ id: b.map.id, buildId: a.building.id }) },
  { route: '/api4/map/v1/search', method: 'POST', url: () => '/api4/map/v1/search', body: (a) => ({ projectId: a.project.id }) },
  {
    route: '/api4/map/v1/search',
    method: 'POST',
    url: () => '/api4/map/v1/search',
    body: (a) => ({ buildId: a.building.id, name: 'Secret' }),
  },
  { route: '/api4/map/v1/list/devices', method: 'POST', url: () => '/api4/map/v1/list/devices', body: (a) => ({ mapId: a.map.id }) },
  { route: '/api4/map/v1/devices/{id}', method: 'GET', url: (a) => `/api4/map/v1/devices/${a.map.id}` },
  { route: '/api4/map/v1/delete_map', method: 'GET', url: (a) => `/api4/map/v1/delete_map?id=${a.map.id}` },
  {
    route: '/api4/map/v1/upload_map',
    method: 'POST',
    url: () => '/api4/map/v1/upload_map',
    multipart: (a) => multipart({ name: 'x.png', type: 'image/png', data: makePng(4, 4) }, { id: a.map.id }),
  },
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  { route: '/api4/project_user/v1/projects/{id}', method: 'GET', url: () => '/api4/project_user/v1/projects/987654321' },
  { route: '/api4/project_user/v1/{id}/sub_links', method: 'GET', url: () => '/api4/project_user/v1/9999999999999999999/sub_links' },
];

/** Routes whose answers hold no ids of the caller's choosing, tested separately below. */
const WITHOUT_IDS = ['/api4/project_user/v1/all_project_message', '/api4/map/v1/image/{file}'];

describe.each(DATABASES)('tenancy of projects, buildings and maps on %s', (kind) => {
  let h: Harness;
  let dataDir: string;
  let tokenA: string;
  let tokenB: string;
  let a: Ids;
  let b: Ids;
  let treeBefore: ProjectTree;
  const treeOf = async (token: string) =>
    (await call(h.app, 'GET', '/api4/project_user/v1/0/sub_links', { token })).body.data as ProjectTree;

  async function seed(token: string, names: string[]): Promise<Ids> {
    const f = treeFactory(h, token);
    const tree = await treeOf(token);
    const def = tree.projects.find((p) => p.isDefault)!;
    const project = await f.project({ name: names[0], address: `${names[0]} street 1` });
    const subProject = await f.project({ name: names[1], parentId: project.id });
    const building = await f.building({ projectId: project.id, name: names[2] });
    await f.building({ projectId: project.id, name: names[3], parentId: building.id });
    const { payload, headers } = multipart({ name: 'p.png', type: 'image/png', data: makePng(8, 8) });
    const up = await h.app.inject({
      method: 'POST',
      url: '/api4/map/v1/upload_map',
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    const spare = await h.app.inject({
      method: 'POST',
      url: '/api4/map/v1/upload_map',
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    const map = await f.map({ buildId: building.id, name: names[4], image: up.json().data.image });
    return {
      project,
      subProject,
      building,
      map,
      defaults: { project: def.id, build: def.builds[0]!.id, map: def.builds[0]!.maps[0]!.id },
      image: spare.json().data.image,
    };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-tenancy-'));
    h = await startApp(kind, { DATA_DIR: dataDir });
    tokenA = await signUpByMail(h, 'first@example.com');
    tokenB = await signUpByMail(h, 'second@example.com');
    a = await seed(tokenA, SECRET);
    b = await seed(tokenB, ['Own plant', 'Own annex', 'Own hall', 'Own wing', 'Own floor']);
    treeBefore = await treeOf(tokenA);
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('covers every project, building and map route in its table', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    const domainRoutes = Object.keys(doc.paths).filter((p) => /^\/api4\/(project_user|project|build|map)\/v1\//.test(p));
    const covered = new Set([...CASES.map((c) => c.route), ...WITHOUT_IDS]);
    expect(domainRoutes.filter((r) => !covered.has(r))).toEqual([]);
    expect(domainRoutes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(CASES.map((c, i) => [`${i + 1}. ${c.method} ${c.route}`, c] as const))(
    'refuses %s with the first account\u2019s ids',
    async (_name, c) => {
      let res: { status: number; body: { code: number; msg: string; data: unknown } };
      if (c.multipart) {
        const { payload, headers } = c.multipart(a);
        const raw = await h.app.inject({
          method: 'POST',
          url: c.url(a, b),
          payload,
          headers: { ...headers, authorization: `Bearer ${tokenB}` },
        });
        res = { status: raw.statusCode, body: raw.json() };
      } else {
        res = await call(h.app, c.method, c.url(a, b), { token: tokenB, body: c.body?.(a, b) });
      }
      expectError(res as Parameters<typeof expectError>[0], (c.code ?? 110011) as 110011);
      const text = JSON.stringify(res.body);
      for (const name of SECRET) expect(text).not.toContain(name);
    },
  );

  it('lists and searches only the caller\u2019s own projects and maps', async () => {
    const projects = await call(h.app, 'POST', '/api4/project_user/v1/all_project_message', { token: tokenB, body: { name: 'Secret' } });
    expect(projects.body.data).toEqual({ total: 0, list: [] });
    const all = await call(h.app, 'POST', '/api4/project_user/v1/all_project_message', { token: tokenB, body: {} });
    expect(all.body.data.total).toBe(3);
    const maps = await call(h.app, 'POST', '/api4/map/v1/search', { token: tokenB, body: { name: 'Secret' } });
    expect(maps.body.data).toEqual({ total: 0, list: [] });
    for (const res of [all, await treeOf(tokenB)]) {
      for (const name of SECRET) expect(JSON.stringify(res)).not.toContain(name);
    }
  });

  it('left the first account\u2019s tree exactly as it was', async () => {
    expect(await treeOf(tokenA)).toEqual(treeBefore);
  });
});
