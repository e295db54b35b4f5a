import { AppError } from '../../http/app-error.ts';
import type { ProjectScope } from '../../http/auth.ts';
import { denyAccess, toId } from '../access/access.ts';
import type { ProjectsRepo } from './projects.repo.ts';

/**
 * Which projects a sub-account limited to some projects is given. Its scope holds those projects with their
 * sub-projects and every map in them; every check and list of every domain reads it from the caller.
 */
export function createProjectMembers(
  repo: Pick<ProjectsRepo, 'memberScope' | 'projectsScope' | 'ownedProjectIds' | 'membersOf' | 'setMembers'>,
) {
  return {
    /** The scope a limited sub-account works in; 280007 when none of its projects is left. */
    async scopeOf(q: { tenantId: bigint; userId: bigint }): Promise<ProjectScope> {
      const { projectIds, mapIds } = await repo.memberScope(q);
      if (projectIds.length === 0) throw new AppError(280007);
      return { projectIds: new Set(projectIds), mapIds: new Set(mapIds) };
    },

    /**
     * The scope of an API key limited to some projects: those still in the account, with their sub-projects and
     * maps. Projects deleted since leave it; none left is an empty scope, which sees nothing.
     */
    async scopeOfProjects(q: { tenantId: bigint; projectIds: readonly bigint[] }): Promise<ProjectScope> {
      const { projectIds, mapIds } = await repo.projectsScope(q);
      return { projectIds: new Set(projectIds), mapIds: new Set(mapIds) };
    },

    /** The projects given to each of these users (absent for a user given none). */
    async projectsOf(userIds: bigint[]): Promise<Map<bigint, string[]>> {
      const byUser = new Map<bigint, string[]>();
      for (const { userId, projectId } of await repo.membersOf({ userIds })) {
        byUser.set(userId, [...(byUser.get(userId) ?? []), String(projectId)]);
      }
      return byUser;
    },

    /** The ids as projects of the account; 110011 for any id that is not the account's. */
    async requireProjects(q: { tenantId: bigint; projectIds: readonly string[] }): Promise<bigint[]> {
      const wanted = [...new Set(q.projectIds.map(toId))];
      const owned = await repo.ownedProjectIds({ tenantId: q.tenantId, ids: wanted });
      if (owned.length !== wanted.length) denyAccess();
      return wanted;
    },

    /** Gives a user exactly these projects (checked by requireProjects), or none. */
    async assign(q: { userId: bigint; projectIds: bigint[] }): Promise<void> {
      await repo.setMembers(q);
    },
  };
}
export type ProjectMembers = ReturnType<typeof createProjectMembers>;
