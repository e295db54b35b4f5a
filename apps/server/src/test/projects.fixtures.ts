import { OPERATE_AUTH, USER_AUTH, type Building, type MapInfo, type Project, mapEndpoints, projectEndpoints } from '@lumigrid/contract';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { projectMembers, users } from '../db/schema/index.ts';
import { login, type Harness, api, apiData } from './harness.ts';
import { hashPassword } from '../lib/password.ts';

/** Test factories for the installation tree: each creates the parents it is not given. */
export function treeFactory(h: Harness, token: string) {
  let n = 0;
  const unique = (prefix: string) => `${prefix} ${++n}`;

  async function ok<T>(res: Promise<{ body: { code: number; data: T } }>): Promise<T> {
    const r = await res;
    expect(r.body?.code, JSON.stringify(r.body)).toBe(0);
    return r.body.data;
  }

  const factory = {
    async project(overrides: Record<string, unknown> = {}): Promise<Project> {
      return ok(api(h.app, projectEndpoints.addProject, { body: { name: unique('Project'), ...overrides } }, { token }));
    },
    async building(overrides: Record<string, unknown> = {}): Promise<Building> {
      const projectId = overrides.projectId ?? (await factory.project()).id;
      return ok(
        api(
          h.app,
          projectEndpoints.addBuilding,
          { body: { name: unique('Building'), ...overrides, projectId: projectId as string } },
          { token },
        ),
      );
    },
    async map(overrides: Record<string, unknown> = {}): Promise<MapInfo> {
      const buildId = overrides.buildId ?? (await factory.building()).id;
      return ok(api(h.app, mapEndpoints.addMap, { body: { name: unique('Map'), ...overrides, buildId: buildId as string } }, { token }));
    },
    ok,
  };
  return factory;
}

/**
 * Signs in a new sub-account (user_auth 3) of an account with the given operate_auth, limited to projectIds
 * when given. The rows are written directly, so suites about other domains need not use the account calls.
 */
export async function subAccount(h: Harness, ownerLogin: string, operateAuth: number, projectIds?: string[]): Promise<string> {
  const [owner] = await h.database.db.select().from(users).where(eq(users.account, ownerLogin));
  if (!owner) throw new Error(`no account ${ownerLogin}`);
  const account = `sub-${operateAuth}-${owner.id}-${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await h.database.db
    .insert(users)
    .values({
      account,
      name: account,
      passwordHash: await hashPassword('Sub-Account-1'),
      userAuth: USER_AUTH.subAccount,
      operateAuth,
      parentId: owner.id,
      allProjects: projectIds === undefined,
    })
    .returning({ id: users.id });
  if (projectIds?.length) {
    await h.database.db.insert(projectMembers).values(projectIds.map((id) => ({ userId: row!.id, projectId: BigInt(id) })));
  }
  return login(h, account, 'Sub-Account-1');
}

/** The account's default project as its tree shows it: sign-up gives every account one, with a building and a map. */
export async function defaultProject(h: Harness, token: string) {
  const tree = await apiData(h.app, projectEndpoints.tree, { params: { id: '0' } }, { token });
  return tree.projects.find((p) => p.isDefault)!;
}

/** A new map of the given name in the account's default building, with the ids of the places above it. */
export async function mapInDefaultBuilding(h: Harness, token: string, name: string) {
  const project = await defaultProject(h, token);
  const build = project.builds[0]!.id;
  const map = await treeFactory(h, token).map({ buildId: build, name });
  return { project: project.id, build, map: map.id };
}

export { OPERATE_AUTH };
