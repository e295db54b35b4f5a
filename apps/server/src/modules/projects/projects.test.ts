import { DEFAULT_NAMES, type ProjectTree, mapEndpoints, projectEndpoints } from '@lumigrid/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildings, gateways, maps, projects, users } from '../../db/schema/index.ts';
import {
  ADMIN_PASSWORD,
  SERVICE_DATABASES,
  expectError,
  login,
  signUpByMail,
  startApp,
  type Harness,
  api,
  prepared,
  refusedInput,
} from '../../test/harness.ts';
import { makePng } from '../../test/upload.fixtures.ts';
import { OPERATE_AUTH, subAccount, treeFactory } from '../../test/projects.fixtures.ts';

describe.each(SERVICE_DATABASES)('projects, buildings and maps on %s', (kind) => {
  let h: Harness;
  let token: string;
  let f: ReturnType<typeof treeFactory>;
  const tree = async (t: string, id = '0') =>
    (await api(h.app, projectEndpoints.tree, { params: { id } }, { token: t })).body.data as ProjectTree;

  beforeAll(async () => {
    h = await startApp(kind);
    token = await signUpByMail(h, 'owner@example.com');
    f = treeFactory(h, token);
  });
  afterAll(async () => h?.close());

  describe('defaults', () => {
    it('gives a new account a default project, building and map', async () => {
      const t = await tree(token);
      const defaults = t.projects.filter((p) => p.isDefault);
      expect(defaults).toHaveLength(1);
      expect(defaults[0]).toMatchObject({ name: DEFAULT_NAMES.project.en, buildCount: 1, mapCount: 1 });
      expect(defaults[0]!.builds).toHaveLength(1);
      expect(defaults[0]!.builds[0]).toMatchObject({ name: DEFAULT_NAMES.build.en, isDefault: true });
      expect(defaults[0]!.builds[0]!.maps[0]).toMatchObject({
        name: DEFAULT_NAMES.map.en,
        isDefault: true,
        opacity: 100,
        image: null,
        deviceCount: 0,
      });
    });

    it('creates the defaults of an existing account lazily, once, however many requests race for them', async () => {
      // The platform administrator existed before any project did, as accounts created before this feature.
      const admin = await login(h, 'admin', ADMIN_PASSWORD);
      const [row] = await h.database.db.select().from(users).where(eq(users.account, 'admin'));
      expect(await h.database.db.select().from(projects).where(eq(projects.tenantId, row!.id))).toHaveLength(0);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => api(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token: admin })),
      );
      for (const a of answers) expect(a.body.code).toBe(0);
      for (const table of [projects, buildings, maps]) {
        const rows = await h.database.db
          .select()
          .from(table)
          .where(and(eq(table.tenantId, row!.id), eq(table.isDefault, true)));
        expect(rows).toHaveLength(1);
      }
    });

    it('names the defaults in the language of the account and refuses to delete them', async () => {
      const jaToken = await signUpByMail(h, 'nihon@example.com', 'Secret-Pass1', 'ja');
      const t = await tree(jaToken);
      const p = t.projects.find((x) => x.isDefault)!;
      expect(p.name).toBe(DEFAULT_NAMES.project.ja);
      const b = p.builds[0]!;
      const m = b.maps[0]!;
      expectError(
        await api(h.app, mapEndpoints.deleteMap, { params: { buildId: b.id, mapId: m.id } }, { token: jaToken, lang: 'ja' }),
        280011,
        'ja',
      );
      expectError(await api(h.app, projectEndpoints.deleteBuilding, { body: { id: b.id } }, { token: jaToken, lang: 'cn' }), 280010, 'cn');
      expectError(await api(h.app, projectEndpoints.deleteProject, { params: { id: p.id } }, { token: jaToken, lang: 'tc' }), 280009, 'tc');
      // Still there, all three.
      expect((await tree(jaToken)).projects[0]!.builds[0]!.maps).toHaveLength(1);
    });
  });

  describe('projects', () => {
    it('creates a project with address and coordinates, and finds it in the list', async () => {
      const p = await f.project({ name: '  Harbour Plant  ', address: '1 Quay Road', longitude: 121.47, latitude: -31.23 });
      expect(p).toMatchObject({
        name: 'Harbour Plant',
        address: '1 Quay Road',
        longitude: 121.47,
        latitude: -31.23,
        parentId: null,
        isDefault: false,
        buildCount: 0,
      });
      const list = await api(h.app, projectEndpoints.searchProjects, { body: { name: 'harbour' } }, { token });
      expect(list.body.data.total).toBe(1);
      expect(list.body.data.list[0]!.id).toBe(p.id);
      const byAddress = await api(h.app, projectEndpoints.searchProjects, { body: { name: 'Quay' } }, { token });
      expect(byAddress.body.data.list.map((x: { id: string }) => x.id)).toEqual([p.id]);
    });

    it("answers the site's time zone: the one most of its gateways keep, UTC before any has one", async () => {
      const site = await f.project();
      const [a, b] = [await f.map({ buildId: (await f.building({ projectId: site.id })).id }), await f.map()];
      expect(b.projectId).not.toBe(site.id);
      const [owner] = await h.database.db.select().from(users).where(eq(users.account, 'owner@example.com'));
      const detail = async (id: string) => (await api(h.app, projectEndpoints.projectDetail, { params: { id } }, { token })).body.data;
      expect((await detail(site.id)).project.timeZone).toBe('UTC');

      const mac = () => Math.random().toString(16).slice(2, 14).padEnd(12, '0').toUpperCase();
      const gateway = (mapId: string, timezone: string | null) => ({ mac: mac(), tenantId: owner!.id, mapId: BigInt(mapId), timezone });
      await h.database.db
        .insert(gateways)
        .values([
          gateway(a.id, 'Pacific/Auckland'),
          gateway(a.id, 'Pacific/Auckland'),
          gateway(a.id, 'Asia/Tokyo'),
          gateway(a.id, null),
          gateway(a.id, ''),
          gateway(b.id, 'Europe/Berlin'),
          gateway(b.id, 'Europe/Berlin'),
          gateway(b.id, 'Europe/Berlin'),
        ]);

      expect((await detail(site.id)).project.timeZone).toBe('Pacific/Auckland');
      expect((await detail(b.projectId)).project.timeZone).toBe('Europe/Berlin');
      const inTree = (await tree(token)).projects.find((p) => p.id === site.id);
      expect(inTree?.timeZone).toBe('Pacific/Auckland');
      const list = await api(h.app, projectEndpoints.searchProjects, { body: { name: site.name } }, { token });
      expect(list.body.data.list[0]).toMatchObject({ id: site.id, timeZone: 'Pacific/Auckland' });
    });

    it('validates names, addresses and coordinates as spec section 5 says', async () => {
      const add = (body: object) => api(h.app, projectEndpoints.addProject, refusedInput({ body }), { token });
      for (const body of [
        { name: '' },
        { name: 'x'.repeat(51) },
        { name: 'ok', address: 'a'.repeat(101) },
        { name: 'ok', longitude: 180.01 },
        { name: 'ok', latitude: -90.5 },
        { name: 'ok', longitude: 'east' },
      ]) {
        expectError(await add(body), 100001);
      }
      expectError(await add({ name: '   ' }), 100001);
      expectError(await add({ name: 'Three decimals', longitude: 12.345 }), 100017);
      expect((await add({ name: '照'.repeat(50), longitude: 180, latitude: -90 })).body.code).toBe(0);
      expect((await add({ name: 'y'.repeat(50), address: 'b'.repeat(100) })).body.code).toBe(0);
    });

    it('refuses duplicate names within the account on add and on rename', async () => {
      const a = await f.project({ name: 'Twin' });
      expectError(await api(h.app, projectEndpoints.addProject, { body: { name: 'Twin' } }, { token }), 110007);
      const b = await f.project({ name: 'Other' });
      expectError(await api(h.app, projectEndpoints.updateProject, { body: { id: b.id, name: 'Twin' } }, { token }), 110007);
      const renamed = await f.ok<{ name: string }>(
        api(h.app, projectEndpoints.updateProject, { body: { id: a.id, name: 'Twin renamed', address: '' } }, { token }),
      );
      expect(renamed).toMatchObject({ name: 'Twin renamed', address: null });
    });

    it('moves projects under others, but never under themselves or their own sub-projects', async () => {
      const top = await f.project();
      const mid = await f.project({ parentId: top.id });
      const leaf = await f.project({ parentId: mid.id });
      expect(leaf.parentId).toBe(mid.id);
      expectError(await api(h.app, projectEndpoints.updateProject, { body: { id: top.id, parentId: leaf.id } }, { token }), 280001);
      expectError(await api(h.app, projectEndpoints.updateProject, { body: { id: top.id, parentId: top.id } }, { token }), 280001);
      const moved = await f.ok<{ parentId: string | null }>(
        api(h.app, projectEndpoints.updateProject, { body: { id: leaf.id, parentId: null } }, { token }),
      );
      expect(moved.parentId).toBeNull();
      const detail = await api(h.app, projectEndpoints.projectDetail, { params: { id: top.id } }, { token });
      expect(detail.body.data.children.map((c: { id: string }) => c.id)).toEqual([mid.id]);
      // The subtree answers the project and its descendants only, parents first.
      const sub = await tree(token, top.id);
      expect(sub.projects.map((p) => p.id)).toEqual([top.id, mid.id]);
    });

    it('deletes an empty project and refuses one with buildings or sub-projects', async () => {
      const parent = await f.project();
      const child = await f.project({ parentId: parent.id });
      const withBuilding = await f.project();
      await f.building({ projectId: withBuilding.id });
      expectError(await api(h.app, projectEndpoints.deleteProject, { params: { id: withBuilding.id } }, { token }), 280003);
      expectError(await api(h.app, projectEndpoints.deleteProject, { params: { id: parent.id } }, { token }), 100015);
      expect((await api(h.app, projectEndpoints.deleteProject, { params: { id: child.id } }, { token })).body.code).toBe(0);
      expect((await api(h.app, projectEndpoints.deleteProject, { params: { id: parent.id } }, { token })).body.code).toBe(0);
      expectError(await api(h.app, projectEndpoints.projectDetail, { params: { id: parent.id } }, { token }), 110011);
      expectError(await api(h.app, projectEndpoints.deleteProject, { params: { id: parent.id } }, { token }), 110011);
    });
  });

  describe('buildings', () => {
    it('creates, renames and re-parents buildings inside one project', async () => {
      const p = await f.project();
      const hall = await f.building({ projectId: p.id, name: 'Hall' });
      const wing = await f.building({ projectId: p.id, name: 'Wing', parentId: hall.id });
      expect(wing).toMatchObject({ projectId: p.id, parentId: hall.id, isDefault: false, mapCount: 0 });
      expectError(await api(h.app, projectEndpoints.addBuilding, { body: { projectId: p.id, name: 'Hall' } }, { token }), 110007);
      // The same name in another project is fine.
      await f.building({ name: 'Hall' });
      expectError(await api(h.app, projectEndpoints.updateBuilding, { body: { id: wing.id, name: 'Hall' } }, { token }), 110007);
      expectError(await api(h.app, projectEndpoints.updateBuilding, { body: { id: hall.id, parentId: wing.id } }, { token }), 100001);
      const other = await f.building();
      expectError(
        await api(h.app, projectEndpoints.addBuilding, { body: { projectId: p.id, name: 'Cross', parentId: other.id } }, { token }),
        100001,
      );
      const renamed = await f.ok<{ name: string; parentId: string | null }>(
        api(h.app, projectEndpoints.updateBuilding, { body: { id: wing.id, name: 'East wing', parentId: null } }, { token }),
      );
      expect(renamed).toMatchObject({ name: 'East wing', parentId: null });
      const detail = await api(h.app, projectEndpoints.projectDetail, { params: { id: p.id } }, { token });
      expect(detail.body.data.project.buildCount).toBe(2);
      expect(detail.body.data.builds.map((b: { name: string }) => b.name)).toEqual(['Hall', 'East wing']);
    });

    it('deletes an empty building and refuses one with maps or sub-buildings', async () => {
      const p = await f.project();
      const parent = await f.building({ projectId: p.id });
      const child = await f.building({ projectId: p.id, parentId: parent.id });
      const withMap = await f.building({ projectId: p.id });
      await f.map({ buildId: withMap.id });
      expectError(await api(h.app, projectEndpoints.deleteBuilding, { body: { id: withMap.id } }, { token }), 280004);
      expectError(await api(h.app, projectEndpoints.deleteBuilding, { body: { id: parent.id } }, { token }), 100016);
      expect((await api(h.app, projectEndpoints.deleteBuilding, { body: { id: child.id } }, { token })).body.code).toBe(0);
      expect((await api(h.app, projectEndpoints.deleteBuilding, { body: { id: parent.id } }, { token })).body.code).toBe(0);
      expectError(await api(h.app, projectEndpoints.buildingDetail, { params: { id: p.id, buildId: parent.id } }, { token }), 110011);
      // A project whose buildings hold maps names 280003.
      expectError(await api(h.app, projectEndpoints.deleteProject, { params: { id: p.id } }, { token }), 280003);
    });
  });

  describe('maps', () => {
    it('creates, renames, sets opacity, moves and deletes maps', async () => {
      const b1 = await f.building();
      const b2 = await f.building();
      const m = await f.map({ buildId: b1.id, name: 'Ground floor', opacity: 70 });
      expect(m).toMatchObject({ buildId: b1.id, projectId: b1.projectId, opacity: 70, image: null, imageWidth: null, isDefault: false });
      expectError(await api(h.app, mapEndpoints.addMap, { body: { buildId: b1.id, name: 'Ground floor' } }, { token }), 110007);
      expectError(await api(h.app, mapEndpoints.addMap, { body: { buildId: b1.id, name: 'x', opacity: 101 } }, { token }), 100001);
      const updated = await f.ok<{ name: string; opacity: number }>(
        api(h.app, mapEndpoints.updateMap, { body: { id: m.id, name: 'Level 0', opacity: 35 } }, { token }),
      );
      expect(updated).toMatchObject({ name: 'Level 0', opacity: 35 });

      await f.map({ buildId: b2.id, name: 'Level 0' });
      expectError(await api(h.app, mapEndpoints.moveMap, { body: { id: m.id, buildId: b2.id } }, { token }), 110007);
      await f.ok(api(h.app, mapEndpoints.updateMap, { body: { id: m.id, name: 'Level 1' } }, { token }));
      const moved = await f.ok<{ buildId: string; projectId: string }>(
        api(h.app, mapEndpoints.moveMap, { body: { id: m.id, buildId: b2.id } }, { token }),
      );
      expect(moved).toMatchObject({ buildId: b2.id, projectId: b2.projectId });
      expect(
        (await api(h.app, projectEndpoints.projectDetail, { params: { id: b2.projectId } }, { token })).body.data.project.mapCount,
      ).toBe(2);
      expect(
        (await api(h.app, projectEndpoints.projectDetail, { params: { id: b1.projectId } }, { token })).body.data.project.mapCount,
      ).toBe(0);

      // Deleting through the wrong building is refused; through its own it works.
      expectError(await api(h.app, mapEndpoints.deleteMap, { params: { buildId: b1.id, mapId: m.id } }, { token }), 110011);
      expect((await api(h.app, mapEndpoints.deleteMap, { params: { buildId: b2.id, mapId: m.id } }, { token })).body.code).toBe(0);
      expectError(await api(h.app, mapEndpoints.getMap, { params: { id: b2.projectId, mapId: m.id } }, { token }), 110011);
    });

    it('reads a building with its maps, and a map through its own project only', async () => {
      const b = await f.building();
      const m = await f.map({ buildId: b.id });
      const detail = await api(h.app, projectEndpoints.buildingDetail, { params: { id: b.projectId, buildId: b.id } }, { token });
      expect(detail.body.data.build.id).toBe(b.id);
      expect(detail.body.data.maps.map((x: { id: string }) => x.id)).toEqual([m.id]);
      const other = await f.project();
      expectError(await api(h.app, projectEndpoints.buildingDetail, { params: { id: other.id, buildId: b.id } }, { token }), 110011);
      expect((await api(h.app, mapEndpoints.getMap, { params: { id: b.projectId, mapId: m.id } }, { token })).body.data.id).toBe(m.id);
      expectError(await api(h.app, mapEndpoints.getMap, { params: { id: other.id, mapId: m.id } }, { token }), 110011);
    });

    it('searches maps with their project and building names, and answers empty device lists', async () => {
      const p = await f.project({ name: 'Search plant' });
      const b = await f.building({ projectId: p.id, name: 'Search hall' });
      const m = await f.map({ buildId: b.id, name: 'Findable 50%' });
      await f.map({ buildId: b.id, name: 'Findable 5x' });
      const res = await api(h.app, mapEndpoints.searchMaps, { body: { name: '50%' } }, { token });
      expect(res.body.data.total).toBe(1);
      expect(res.body.data.list[0]).toMatchObject({ id: m.id, projectName: 'Search plant', buildName: 'Search hall' });
      const inBuilding = await api(h.app, mapEndpoints.searchMaps, { body: { buildId: b.id, pageSize: 1, page: 2 } }, { token });
      expect(inBuilding.body.data.total).toBe(2);
      expect(inBuilding.body.data.list).toHaveLength(1);
      expect((await api(h.app, mapEndpoints.listDevices, { body: { mapId: m.id } }, { token })).body.data).toEqual({
        total: 0,
        list: [],
      });
      expect((await api(h.app, mapEndpoints.devicesOf, { params: { id: m.id } }, { token })).body.data).toEqual([]);
    });
  });

  describe('limits and races', () => {
    it('holds building and map names to 1-50 characters and coordinates to two decimals on update', async () => {
      const b = await f.building();
      const m = await f.map({ buildId: b.id });
      expect((await api(h.app, projectEndpoints.updateBuilding, { body: { id: b.id, name: 'b'.repeat(50) } }, { token })).body.code).toBe(
        0,
      );
      expectError(await api(h.app, projectEndpoints.updateBuilding, { body: { id: b.id, name: 'b'.repeat(51) } }, { token }), 100001);
      expectError(await api(h.app, projectEndpoints.addBuilding, { body: { projectId: b.projectId, name: ' ' } }, { token }), 100001);
      expect((await api(h.app, mapEndpoints.updateMap, { body: { id: m.id, name: '地'.repeat(50) } }, { token })).body.code).toBe(0);
      expectError(await api(h.app, mapEndpoints.updateMap, { body: { id: m.id, name: '地'.repeat(51) } }, { token }), 100001);
      expectError(await api(h.app, projectEndpoints.updateProject, { body: { id: b.projectId, latitude: 45.001 } }, { token }), 100017);
      const located = await api(
        h.app,
        projectEndpoints.updateProject,
        { body: { id: b.projectId, longitude: -0.12, latitude: 51.5 } },
        { token },
      );
      expect(located.body.data).toMatchObject({ longitude: -0.12, latitude: 51.5 });
    });

    it('lets exactly one of two racing requests take a name', async () => {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => api(h.app, projectEndpoints.addProject, { body: { name: 'Raced' } }, { token })),
      );
      expect(answers.map((a) => a.body.code).sort()).toEqual([0, 110007, 110007, 110007]);
    });
  });

  describe('the tree', () => {
    it('nests projects, buildings and maps with counts', async () => {
      const root = await f.project({ name: 'Tree root' });
      const sub = await f.project({ name: 'Tree sub', parentId: root.id });
      const b = await f.building({ projectId: sub.id, name: 'Tree hall' });
      const inner = await f.building({ projectId: sub.id, name: 'Tree room', parentId: b.id });
      await f.map({ buildId: inner.id, name: 'Tree map' });
      const t = await tree(token, root.id);
      expect(t.projects.map((p) => p.name)).toEqual(['Tree root', 'Tree sub']);
      const subNode = t.projects[1]!;
      expect(subNode).toMatchObject({ parentId: root.id, buildCount: 2, mapCount: 1 });
      expect(subNode.builds.find((x) => x.id === inner.id)).toMatchObject({
        parentId: b.id,
        mapCount: 1,
        maps: [expect.objectContaining({ name: 'Tree map' })],
      });
    });
  });

  describe('permissions', () => {
    it('lets view-only and controllable sub-accounts read but not change, and editable ones change', async () => {
      const p = await f.project({ name: 'Guarded' });
      const b = await f.building({ projectId: p.id });
      const m = await f.map({ buildId: b.id });
      for (const operateAuth of [OPERATE_AUTH.viewOnly, OPERATE_AUTH.controllable]) {
        const sub = await subAccount(h, 'owner@example.com', operateAuth);
        // Reads see the parent account's data.
        expect((await api(h.app, projectEndpoints.projectDetail, { params: { id: p.id } }, { token: sub })).body.data.project.name).toBe(
          'Guarded',
        );
        expect((await tree(sub)).projects.some((x) => x.id === p.id)).toBe(true);
        const writes = [
          api(h.app, projectEndpoints.addProject, { body: { name: 'Nope' } }, { token: sub }),
          api(h.app, projectEndpoints.updateProject, { body: { id: p.id, name: 'Nope' } }, { token: sub }),
          api(h.app, projectEndpoints.deleteProject, { params: { id: p.id } }, { token: sub }),
          api(h.app, projectEndpoints.addBuilding, { body: { projectId: p.id, name: 'Nope' } }, { token: sub }),
          api(h.app, projectEndpoints.updateBuilding, { body: { id: b.id, name: 'Nope' } }, { token: sub }),
          api(h.app, projectEndpoints.deleteBuilding, { body: { id: b.id } }, { token: sub }),
          api(h.app, mapEndpoints.addMap, { body: { buildId: b.id, name: 'Nope' } }, { token: sub }),
          api(h.app, mapEndpoints.updateMap, { body: { id: m.id, opacity: 1 } }, { token: sub }),
          api(h.app, mapEndpoints.moveMap, { body: { id: m.id, buildId: b.id } }, { token: sub }),
          api(h.app, mapEndpoints.deleteMap, { params: { buildId: b.id, mapId: m.id } }, { token: sub }),
          api(h.app, mapEndpoints.removeImage, { query: { id: m.id } }, { token: sub }),
        ];
        for (const res of await Promise.all(writes)) expectError(res, 110003);
      }
      const editor = await subAccount(h, 'owner@example.com', OPERATE_AUTH.editable);
      const made = await api(h.app, projectEndpoints.addBuilding, { body: { projectId: p.id, name: 'By the editor' } }, { token: editor });
      expect(made.body.data).toMatchObject({ projectId: p.id, name: 'By the editor' });
      const after = await api(h.app, mapEndpoints.getMap, { params: { id: p.id, mapId: m.id } }, { token });
      expect(after.body.data.opacity).toBe(m.opacity);
    });

    it('answers 401 without a token', async () => {
      const form = new FormData();
      form.append('file', new Blob([makePng(2, 2)], { type: 'image/png' }), 'x.png');
      for (const anonymous of [
        prepared(projectEndpoints.tree, { params: { id: '0' } }),
        prepared(projectEndpoints.addProject, { body: { name: 'x' } }),
        prepared(mapEndpoints.upload, { body: form }),
      ]) {
        const res = await anonymous.send(h.app);
        expect(res.status, anonymous.endpoint.path).toBe(401);
        expectError(res, 250004);
      }
    });
  });
});
