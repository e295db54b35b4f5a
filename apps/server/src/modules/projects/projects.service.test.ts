import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATE_AUTH, USER_AUTH } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { freshPglite } from '../../test/database-templates.ts';
import { users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { noDevicesYet, type MapDevicesPort } from './map-devices-port.ts';
import { defaultRenderQueue, createMapImageStore } from './map-image.ts';
import { createMapsRepo } from './maps.repo.ts';
import { createMapsService } from './maps.service.ts';
import { createProjectsRepo } from './projects.repo.ts';
import { createProjectsService } from './projects.service.ts';
import { createProjectAccess } from './project-access.ts';
import { createAccess } from '../access/access.ts';
import { createAccessRepo } from '../access/access.repo.ts';
import { ownedReads } from '../../owned-reads.ts';

/** Wraps a repo so that every query it runs is counted. */
function counted<T extends object>(repo: T, calls: string[]): T {
  return new Proxy(repo, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('projects and maps services on PGlite', () => {
  let database: Database;
  let dataDir: string;
  let tenantId: bigint;
  const calls: string[] = [];
  const placed = new Set<bigint>();
  // A stand-in for the devices domain: maps in `placed` hold a device.
  const devices: MapDevicesPort = { ...noDevicesYet, mapHasDevices: async ({ mapId }) => placed.has(mapId) };

  const build = () => {
    const repo = counted(createProjectsRepo(database.db, ownedReads), calls);
    const mapsRepo = counted(createMapsRepo(database.db), calls);
    const access = createProjectAccess({
      access: createAccess({ repo: createAccessRepo(database.db, ownedReads) }),
      mapsRepo,
      projectsRepo: repo,
    });
    const projects = createProjectsService({ repo, mapsRepo, devices, access });
    const maps = createMapsService({
      access,
      renderAnswerWaitMs: 2_000,
      repo: mapsRepo,
      projects,
      devices,
      store: createMapImageStore(dataDir),
      renderQueue: defaultRenderQueue(),
      clock: { now: () => new Date() },
    });
    return { projects, maps };
  };
  const auth = () => ({ userId: tenantId, tenantId, operateAuth: OPERATE_AUTH.owner, lang: 'en' as const });

  beforeAll(async () => {
    database = await freshPglite();
    dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-service-'));
    const [row] = await database.db
      .insert(users)
      .values({ account: 'sut', name: 'sut', passwordHash: 'x', userAuth: USER_AUTH.account, operateAuth: OPERATE_AUTH.owner })
      .returning();
    tenantId = row!.id;
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to delete a map that holds devices (280005), and deletes it once they are gone', async () => {
    const { projects, maps } = build();
    const p = await projects.addProject(auth(), { name: 'With devices' });
    const b = await projects.addBuilding(auth(), { projectId: p.id, name: 'Hall' });
    const m = await maps.addMap(auth(), { buildId: b.id, name: 'Floor' });
    placed.add(BigInt(m.id));
    await expect(maps.deleteMap(auth(), b.id, m.id)).rejects.toEqual(new AppError(280005));
    placed.delete(BigInt(m.id));
    await maps.deleteMap(auth(), b.id, m.id);
    await expect(maps.getMap(auth(), p.id, m.id)).rejects.toEqual(new AppError(110011));
  });

  it('loads the tree with one query per level, however many nodes it has', async () => {
    const { projects, maps } = build();
    await projects.tree(auth(), '0'); // defaults now exist and are cached
    const measure = async () => {
      calls.length = 0;
      await projects.tree(auth(), '0');
      return calls.length;
    };
    const small = await measure();
    let parent: string | undefined;
    for (let i = 0; i < 8; i++) {
      const p = await projects.addProject(auth(), { name: `Level ${i}`, parentId: parent });
      parent = p.id;
      for (let j = 0; j < 3; j++) {
        const b = await projects.addBuilding(auth(), { projectId: p.id, name: `B${j}` });
        for (let k = 0; k < 2; k++) await maps.addMap(auth(), { buildId: b.id, name: `M${k}` });
      }
    }
    const large = await measure();
    expect(small).toBe(3);
    expect(large).toBe(3);
    // The subtree of the top project: still one query per level.
    const top = (await projects.searchProjects(auth(), { name: 'Level 0' })).list[0]!;
    calls.length = 0;
    const sub = await projects.tree(auth(), top.id);
    expect(calls).toHaveLength(3);
    expect(sub.projects).toHaveLength(8);
    expect(sub.projects.flatMap((p) => p.builds.flatMap((b) => b.maps))).toHaveLength(48);
  });
});
