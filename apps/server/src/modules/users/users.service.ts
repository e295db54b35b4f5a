import {
  USER_AUTH,
  isLang,
  isPlatformAdmin,
  managesUserAuth,
  type AddAccountBody,
  type ErrorCode,
  type ManagedAccount,
  type ManagedAccountPage,
  type ResetAccountPasswordBody,
  type UpdateAccountBody,
} from '@lumigrid/contract';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomPassword } from '../../lib/password.ts';
import { assertValidAccount, userIdentity, type AccountsService } from '../accounts/accounts.service.ts';
import type { UserRow } from '../accounts/accounts.repo.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { denyAccess, toId } from '../access/access.ts';
import type { Messenger } from '../outbox/messenger.ts';
import { newPasswordMessage } from '../outbox/templates.ts';
import type { ProjectMembers } from '../projects/project-members.ts';
import type { ManagedScope, UsersRepo } from './users.repo.ts';

type Manager = Pick<AuthContext, 'userId' | 'tenantId' | 'userAuth' | 'operateAuth'>;

function mapAccount(row: UserRow, projectIds: string[] | undefined): ManagedAccount {
  return {
    ...userIdentity(row),
    company: row.company,
    country: row.country,
    address: row.address,
    remarks: row.remarks,
    companyCode: row.companyCode,
    userAuth: row.userAuth,
    operateAuth: row.operateAuth,
    pushAuth: row.pushAuth,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    avatar: row.headImg,
    logo: row.companyLogo,
    loginBackground: row.homeLink,
    projectIds: row.userAuth === USER_AUTH.subAccount && !row.allProjects ? (projectIds ?? []) : null,
  };
}

/** The accounts a manager may see with a given user_auth: 110003 for any it does not manage. */
function scopeFor(manager: Manager, userAuth: number): ManagedScope {
  if (!managesUserAuth(manager, userAuth)) throw new AppError(110003);
  // The platform administrator sees every account's sub-accounts; an owner only its own.
  return userAuth === USER_AUTH.subAccount && !isPlatformAdmin(manager) ? { userAuth, parentId: manager.tenantId } : { userAuth };
}

/** Every scope a manager has: administrators and accounts for the platform administrator, sub-accounts for an owner. */
function scopesOf(manager: Manager): ManagedScope[] {
  return [USER_AUTH.admin, USER_AUTH.account, USER_AUTH.subAccount]
    .filter((a) => managesUserAuth(manager, a))
    .map((a) => scopeFor(manager, a));
}

/**
 * The account screens (spec sections 2, 4, 6): the platform administrator manages administrators and
 * accounts, an owner the sub-accounts of its account. Disabling, deleting, a new authority or a new password
 * end the account's sessions at once, and its open browsers are told why.
 */
export function createUsersService(deps: {
  repo: UsersRepo;
  accounts: Pick<AccountsService, 'createAccount' | 'setPassword'>;
  sessions: Pick<AuthService, 'endUserSessions'>;
  /** The projects given to sub-accounts limited to some projects (the projects domain keeps them). */
  members: Pick<ProjectMembers, 'projectsOf' | 'requireProjects' | 'assign'>;
  messenger: Pick<Messenger, 'send'>;
  config: Pick<Config, 'publicUrl'>;
  clock: Clock;
}) {
  const { repo, clock, members } = deps;

  async function present(rows: UserRow[]): Promise<ManagedAccount[]> {
    const limited = rows.filter((r) => r.userAuth === USER_AUTH.subAccount && !r.allProjects).map((r) => r.id);
    const projects = await members.projectsOf(limited);
    return rows.map((r) => mapAccount(r, projects.get(r.id)));
  }
  const presentOne = async (row: UserRow) => (await present([row]))[0]!;

  /**
   * Projects a body names for a sub-account, checked as projects of the account it belongs to; null for every
   * project, undefined when unsaid.
   */
  async function projectsFor(account: bigint, userAuth: number, projectIds: string[] | null | undefined) {
    if (projectIds === undefined) return undefined;
    if (userAuth !== USER_AUTH.subAccount) throw new AppError(100001, 'projectIds');
    return projectIds === null ? null : members.requireProjects({ tenantId: account, projectIds });
  }

  /** An account the manager manages, in whichever of its scopes it is; 110011 otherwise. */
  async function requireManaged(manager: Manager, id: string): Promise<{ row: UserRow; scope: ManagedScope }> {
    const key = toId(id);
    for (const scope of scopesOf(manager)) {
      const row = await repo.find({ scope, id: key });
      if (row) return { row, scope };
    }
    denyAccess();
  }

  /** The platform administrator cannot disable, delete or reset itself from these screens. */
  function assertNotSelf(manager: Manager, row: UserRow) {
    if (row.id === manager.userId) throw new AppError(110003);
  }

  async function end(userId: bigint, code: ErrorCode) {
    await deps.sessions.endUserSessions(userId, code);
  }

  return {
    async list(
      manager: Manager,
      p: { userAuth: number; page: number; pageSize: number },
      q: { name?: string },
    ): Promise<ManagedAccountPage> {
      const scope = scopeFor(manager, p.userAuth);
      const { total, rows } = await repo.page({
        scope,
        text: q.name?.trim() || undefined,
        offset: (p.page - 1) * p.pageSize,
        limit: p.pageSize,
      });
      return { total, list: await present(rows) };
    },

    /** The sub-accounts of the manager's own account (none for the platform administrator), at most 1000. */
    async subAccounts(manager: Manager): Promise<ManagedAccount[]> {
      const { rows } = await repo.page({ scope: { userAuth: USER_AUTH.subAccount, parentId: manager.tenantId }, offset: 0, limit: 1000 });
      return present(rows);
    },

    async detail(manager: Manager, id: string): Promise<ManagedAccount> {
      return presentOne((await requireManaged(manager, id)).row);
    },

    async add(manager: Manager, body: AddAccountBody): Promise<ManagedAccount> {
      const scope = scopeFor(manager, body.userAuth);
      // A sub-account belongs to an account: its owner creates it.
      if (body.userAuth === USER_AUTH.subAccount && scope.parentId === undefined) throw new AppError(110003);
      const account = body.account.trim();
      const projects = await projectsFor(manager.tenantId, body.userAuth, body.projectIds);
      const row = await deps.accounts.createAccount(
        { ...body, account, mail: body.mail?.trim() || undefined, phone: body.phone?.trim() || undefined },
        {
          userAuth: body.userAuth,
          operateAuth: body.userAuth === USER_AUTH.subAccount ? (body.operateAuth ?? 4) : 0,
          parentId: scope.parentId,
          allProjects: !projects,
        },
      );
      if (projects) await members.assign({ userId: row.id, projectIds: projects });
      return presentOne(row);
    },

    async update(manager: Manager, body: UpdateAccountBody): Promise<ManagedAccount> {
      const { row, scope } = await requireManaged(manager, body.id);
      if (body.enabled === false) assertNotSelf(manager, row);
      const pushAuthChanged = body.pushAuth !== undefined && body.pushAuth !== row.pushAuth;
      // The push permission is a reviewer's, and reviewers are the platform's administrators; nobody grants it to themselves.
      if (pushAuthChanged && (row.userAuth !== USER_AUTH.admin || !isPlatformAdmin(manager))) throw new AppError(110003);
      if (pushAuthChanged) assertNotSelf(manager, row);
      const name = body.name?.trim();
      assertValidAccount({ account: row.account, name: name ?? row.name, company: body.company, remarks: body.remarks });
      const authorityChanged =
        body.operateAuth !== undefined && row.userAuth === USER_AUTH.subAccount && body.operateAuth !== row.operateAuth;
      const projects = await projectsFor(row.parentId ?? row.id, row.userAuth, body.projectIds);
      const before = (await present([row]))[0]!.projectIds;
      const scopeChanged =
        projects !== undefined && JSON.stringify(projects?.map(String).sort() ?? null) !== JSON.stringify(before?.slice().sort() ?? null);
      const trimmed = (v: string | undefined) => (v === undefined ? undefined : v.trim() || null);
      const updated = await repo.update({
        scope,
        id: row.id,
        set: {
          ...(name ? { name } : {}),
          ...(body.mail !== undefined ? { mail: trimmed(body.mail)?.toLowerCase() ?? null } : {}),
          ...(body.phone !== undefined ? { phone: trimmed(body.phone) } : {}),
          ...(body.company !== undefined ? { company: trimmed(body.company) } : {}),
          ...(body.country !== undefined ? { country: trimmed(body.country) } : {}),
          ...(body.address !== undefined ? { address: trimmed(body.address) } : {}),
          ...(body.remarks !== undefined ? { remarks: trimmed(body.remarks) } : {}),
          ...(authorityChanged ? { operateAuth: body.operateAuth } : {}),
          ...(scopeChanged ? { allProjects: projects === null } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
          ...(pushAuthChanged ? { pushAuth: body.pushAuth } : {}),
        },
      });
      if (updated === 'taken') throw new AppError(250001);
      if (!updated) denyAccess();
      if (scopeChanged) await members.assign({ userId: row.id, projectIds: projects ?? [] });
      if (row.enabled && body.enabled === false) await end(row.id, 250018);
      else if (authorityChanged || scopeChanged || pushAuthChanged) await end(row.id, 250019);
      return presentOne(updated);
    },

    /** Deletes an account (and, for an account, its sub-accounts); their next call answers 250020. */
    async remove(manager: Manager, id: string): Promise<void> {
      const { row, scope } = await requireManaged(manager, id);
      assertNotSelf(manager, row);
      const at = clock.now();
      if (!(await repo.softDelete({ scope, id: row.id, at }))) denyAccess();
      await end(row.id, 250020);
      if (row.userAuth === USER_AUTH.account) {
        for (const child of await repo.softDeleteSubAccounts({ parentId: row.id, at })) await end(child, 250020);
      }
    },

    /** A new random password, sent by e-mail or text message to the account; its sessions end. */
    async resetPassword(manager: Manager, body: ResetAccountPasswordBody): Promise<void> {
      const { row } = await requireManaged(manager, body.id);
      assertNotSelf(manager, row);
      const recipient = body.channel === 'mail' ? row.mail : row.phone;
      if (!recipient) throw new AppError(100012);
      const password = randomPassword();
      await deps.accounts.setPassword(row.id, password);
      const message = newPasswordMessage({ lang: isLang(row.lang) ? row.lang : 'en', password, publicUrl: deps.config.publicUrl });
      await deps.messenger.send({ channel: body.channel, recipient, ...message });
      await end(row.id, 250004);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
