import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapEndpoints, projectEndpoints, type Building, type MapInfo, type Project, type ProjectTree } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rawTenancyCase,
  tenancyCase,
  tenancyMatrix,
  type TenancyCase,
  tenancyPrincipals,
  type Principal,
  type PrincipalKey,
} from '../../test/tenancy.ts';
import { DATABASES, signUpByMail, startApp, type Harness, api } from '../../test/harness.ts';
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

/**
 * Every project, building and map route, called by a second account with the first account's ids (`a`) and, where a call
 * takes two ids, its own (`b`) for the other. Each case names its endpoint, so the matrix proves every endpoint of the domain has one.
 */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(projectEndpoints.projectDetail, (a) => ({ params: { id: a.project.id } })),
  tenancyCase(projectEndpoints.projectDetail, (a) => ({ params: { id: a.defaults.project } })),
  tenancyCase(projectEndpoints.buildingDetail, (a) => ({ params: { id: a.project.id, buildId: a.building.id } })),
  tenancyCase(projectEndpoints.buildingDetail, (a, b) => ({ params: { id: b.project.id, buildId: a.building.id } })),
  tenancyCase(mapEndpoints.getMap, (a) => ({ params: { id: a.project.id, mapId: a.map.id } })),
  tenancyCase(mapEndpoints.getMap, (a, b) => ({ params: { id: b.project.id, mapId: a.map.id } })),
  tenancyCase(mapEndpoints.gateways, (a) => ({ params: { buildId: a.building.id, mapId: a.map.id } })),
  tenancyCase(mapEndpoints.gateways, (a, b) => ({ params: { buildId: b.building.id, mapId: a.map.id } })),
  tenancyCase(mapEndpoints.devicesReport, (a) => ({ body: { mapId: a.map.id } })),
  tenancyCase(projectEndpoints.tree, (a) => ({ params: { id: a.project.id } })),
  tenancyCase(projectEndpoints.addProject, (a) => ({ body: { name: 'Intruder', parentId: a.project.id } })),
  tenancyCase(projectEndpoints.updateProject, (a) => ({ body: { id: a.project.id, name: 'Taken over' } })),
  tenancyCase(projectEndpoints.updateProject, (a, b) => ({ body: { id: b.project.id, parentId: a.project.id } })),
  tenancyCase(projectEndpoints.deleteProject, (a) => ({ params: { id: a.subProject.id } })),
  // The default project of another account answers 110011, not 280009: even "default" is not told.
  tenancyCase(projectEndpoints.deleteProject, (a) => ({ params: { id: a.defaults.project } })),
  tenancyCase(projectEndpoints.addBuilding, (a) => ({ body: { projectId: a.project.id, name: 'Intruder' } })),
  tenancyCase(projectEndpoints.addBuilding, (a, b) => ({ body: { projectId: b.project.id, name: 'Intruder', parentId: a.building.id } })),
  tenancyCase(projectEndpoints.updateBuilding, (a) => ({ body: { id: a.building.id, name: 'Taken over' } })),
  tenancyCase(projectEndpoints.updateBuilding, (a, b) => ({ body: { id: b.building.id, parentId: a.building.id } })),
  tenancyCase(projectEndpoints.deleteBuilding, (a) => ({ body: { id: a.defaults.build } })),
  tenancyCase(mapEndpoints.addMap, (a) => ({ body: { buildId: a.building.id, name: 'Intruder' } })),
  // Another account's uploaded plan is unknown to this one: "please select a valid image", nothing more. A
  // sub-account of the first account meets the second account's building first.
  tenancyCase(mapEndpoints.addMap, (a, b) => ({ body: { buildId: b.building.id, name: 'Thief', image: a.image } }), {
    code: 100013,
    codeFor: { sibling: 110011 },
  }),
  tenancyCase(mapEndpoints.updateMap, (a) => ({ body: { id: a.map.id, name: 'Taken over', opacity: 1 } })),
  tenancyCase(mapEndpoints.updateMap, (a, b) => ({ body: { id: b.map.id, image: a.image } }), {
    code: 100013,
    codeFor: { sibling: 110011 },
  }),
  tenancyCase(mapEndpoints.deleteMap, (a) => ({ params: { buildId: a.building.id, mapId: a.map.id } })),
  tenancyCase(mapEndpoints.deleteMap, (a) => ({ params: { buildId: a.defaults.build, mapId: a.defaults.map } })),
  tenancyCase(mapEndpoints.moveMap, (a, b) => ({ body: { id: a.map.id, buildId: b.building.id } })),
  tenancyCase(mapEndpoints.moveMap, (a, b) => ({ body: { id: b.map.id, buildId: a.building.id } })),
  tenancyCase(mapEndpoints.searchMaps, (a) => ({ body: { projectId: a.project.id } })),
  tenancyCase(mapEndpoints.searchMaps, (a) => ({ body: { buildId: a.building.id, name: 'Secret' } })),
  tenancyCase(mapEndpoints.listDevices, (a) => ({ body: { mapId: a.map.id } })),
  tenancyCase(mapEndpoints.devicesOf, (a) => ({ params: { id: a.map.id } })),
  tenancyCase(mapEndpoints.removeImage, (a) => ({ query: { id: a.map.id } })),
  tenancyCase(mapEndpoints.uploadState, (a) => ({ params: { file: a.image } })),
  rawTenancyCase(mapEndpoints.upload, async (app, a, _b, token) => {
    const { payload, headers } = multipart({ name: 'x.png', type: 'image/png', data: makePng(4, 4) }, { id: a.map.id });
    const res = await app.inject({
      method: 'POST',
      url: mapEndpoints.upload.path,
      payload,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.statusCode, headers: res.headers, body: res.json() };
  }),
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  tenancyCase(projectEndpoints.projectDetail, () => ({ params: { id: '987654321' } })),
  tenancyCase(projectEndpoints.tree, () => ({ params: { id: '9999999999999999999' } })),
];

/** Routes whose answers hold no ids of the caller's choosing, tested separately below. */
const WITHOUT_IDS = [projectEndpoints.searchProjects, mapEndpoints.image];

describe.each(DATABASES)('tenancy of projects, buildings and maps on %s', (kind) => {
  let h: Harness;
  let dataDir: string;
  let tokenA: string;
  let tokenB: string;
  let principals: Record<PrincipalKey, Principal>;
  let a: Ids;
  let b: Ids;
  let treeBefore: ProjectTree;
  const treeOf = async (token: string) =>
    (await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token })).body.data as ProjectTree;

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
      url: mapEndpoints.upload.path,
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    const spare = await h.app.inject({
      method: 'POST',
      url: mapEndpoints.upload.path,
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
    principals = await tenancyPrincipals(h, { victim: 'first@example.com', victimToken: tokenA, intruder: 'second@example.com' });
    a = await seed(tokenA, SECRET);
    b = await seed(tokenB, ['Own plant', 'Own annex', 'Own hall', 'Own wing', 'Own floor']);
    treeBefore = await treeOf(tokenA);
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  tenancyMatrix({
    domain: { ...projectEndpoints, ...mapEndpoints },
    cases: CASES,
    withoutIds: WITHOUT_IDS,
    secrets: SECRET,
    world: () => ({ app: h.app, intruder: tokenB, a, b, principals }),
  });

  it('lists and searches only the caller\u2019s own projects and maps', async () => {
    const projects = await api(h.app, projectEndpoints.searchProjects, { body: { name: 'Secret' } }, { token: tokenB });
    expect(projects.body.data).toEqual({ total: 0, list: [] });
    const all = await api(h.app, projectEndpoints.searchProjects, { body: {} }, { token: tokenB });
    expect(all.body.data.total).toBe(3);
    const maps = await api(h.app, mapEndpoints.searchMaps, { body: { name: 'Secret' } }, { token: tokenB });
    expect(maps.body.data).toEqual({ total: 0, list: [] });
    for (const res of [all, await treeOf(tokenB)]) {
      for (const name of SECRET) expect(JSON.stringify(res)).not.toContain(name);
    }
  });

  it('left the first account\u2019s tree exactly as it was', async () => {
    expect(await treeOf(tokenA)).toEqual(treeBefore);
  });
});
