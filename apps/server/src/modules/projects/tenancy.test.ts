import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapEndpoints, projectEndpoints, type Building, type MapInfo, type Project, type ProjectTree } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, tenancyWorld, uploadTenancyCase, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, startApp, type Harness, api } from '../../test/harness.ts';
import { treeFactory } from '../../test/projects.fixtures.ts';
import { makePng, sendUpload } from '../../test/upload.fixtures.ts';

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
  uploadTenancyCase(mapEndpoints.upload, (a) => ({ id: a.map.id })),
  // Ids nobody has, and ids past 64 bits, answer the same: existence is never told.
  tenancyCase(projectEndpoints.projectDetail, () => ({ params: { id: '987654321' } })),
  tenancyCase(projectEndpoints.tree, () => ({ params: { id: '9999999999999999999' } })),
];

/** Routes whose answers hold no ids of the caller's choosing, tested separately below. */
const WITHOUT_IDS = [projectEndpoints.searchProjects, mapEndpoints.image];

describe.each(SERVICE_DATABASES)('tenancy of projects, buildings and maps on %s', (kind) => {
  let treeBefore: ProjectTree;
  const treeOf = async (h: Harness, token: string) =>
    (await api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token })).body.data as ProjectTree;

  async function seed(h: Harness, token: string, names: string[]): Promise<Ids> {
    const f = treeFactory(h, token);
    const tree = await treeOf(h, token);
    const def = tree.projects.find((p) => p.isDefault)!;
    const project = await f.project({ name: names[0], address: `${names[0]} street 1` });
    const subProject = await f.project({ name: names[1], parentId: project.id });
    const building = await f.building({ projectId: project.id, name: names[2] });
    await f.building({ projectId: project.id, name: names[3], parentId: building.id });
    const plan = { name: 'p.png', type: 'image/png', data: makePng(8, 8) };
    const up = await sendUpload(h.app, mapEndpoints.upload, plan, { token });
    const spare = await sendUpload(h.app, mapEndpoints.upload, plan, { token });
    const map = await f.map({ buildId: building.id, name: names[4], image: up.body.data.image });
    return {
      project,
      subProject,
      building,
      map,
      defaults: { project: def.id, build: def.builds[0]!.id, map: def.builds[0]!.maps[0]!.id },
      image: spare.body.data.image,
    };
  }

  const world = tenancyWorld({
    start: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-tenancy-'));
      const h = await startApp(kind, { DATA_DIR: dataDir });
      return {
        h,
        close: async () => {
          await h.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
    accounts: { victim: 'first@example.com', intruder: 'second@example.com' },
    seed: async ({ h }, tokens) => {
      const a = await seed(h, tokens.victim, SECRET);
      const b = await seed(h, tokens.intruder, ['Own plant', 'Own annex', 'Own hall', 'Own wing', 'Own floor']);
      treeBefore = await treeOf(h, tokens.victim);
      return { a, b };
    },
  });

  tenancyMatrix({
    domain: { ...projectEndpoints, ...mapEndpoints },
    cases: CASES,
    withoutIds: WITHOUT_IDS,
    secrets: SECRET,
    world,
  });

  it('lists and searches only the caller\u2019s own projects and maps', async () => {
    const { h, intruder } = world();
    const projects = await api(h.app, projectEndpoints.searchProjects, { body: { name: 'Secret' } }, { token: intruder });
    expect(projects.body.data).toEqual({ total: 0, list: [] });
    const all = await api(h.app, projectEndpoints.searchProjects, { body: {} }, { token: intruder });
    expect(all.body.data.total).toBe(3);
    const maps = await api(h.app, mapEndpoints.searchMaps, { body: { name: 'Secret' } }, { token: intruder });
    expect(maps.body.data).toEqual({ total: 0, list: [] });
    for (const res of [all, await treeOf(h, intruder)]) {
      for (const name of SECRET) expect(JSON.stringify(res)).not.toContain(name);
    }
  });

  it('left the first account\u2019s tree exactly as it was', async () => {
    const { h, victim } = world();
    expect(await treeOf(h, victim)).toEqual(treeBefore);
  });
});
