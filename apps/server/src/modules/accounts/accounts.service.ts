import {
  OPERATE_AUTH,
  canEditOwnInfo,
  USER_AUTH,
  isLang,
  passwordProblem,
  weightedLength,
  LIMITS,
  ACCOUNT_IMAGES,
  accountImageUrl,
  type AccountImageKind,
  type ChangePasswordBody,
  type Lang,
  type LoginUser,
  type UpdateProfileBody,
} from '@lumigrid/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { storedImageType, type ImageStore } from '../../lib/image-store.ts';
import { hashPassword, randomPassword, verifyPassword } from '../../lib/password.ts';
import { checkedPicture } from '../../lib/picture.ts';
import type { AccountsRepo, UserRow } from './accounts.repo.ts';

/** How every screen names a user: its id, sign-in name, display name, e-mail address and phone. */
export function userIdentity(row: Pick<UserRow, 'id' | 'account' | 'name' | 'mail' | 'phone'>) {
  return { id: String(row.id), account: row.account, name: row.name, mail: row.mail, phone: row.phone };
}

/**
 * Maps a user row to the logged-in user of spec section 3. A sub-account shows its account's company logo
 * and login background (`owner`), which only the account's owner sets.
 */
export function mapLoginUser(
  row: UserRow,
  serverIp: string | null,
  owner: Pick<UserRow, 'company' | 'companyLogo' | 'homeLink'> = row,
): LoginUser {
  return {
    ...userIdentity(row),
    head_img: row.headImg,
    remarks: row.remarks,
    company: owner.company,
    user_auth: row.userAuth,
    operate_auth: row.operateAuth,
    push_auth: row.pushAuth,
    company_logo: owner.companyLogo,
    home_link: owner.homeLink,
    server_ip: serverIp,
    lang: isLang(row.lang) ? row.lang : 'en',
  };
}

/** The tenant a user's data belongs to: a sub-account works inside its parent account. */
export function tenantOf(row: Pick<UserRow, 'id' | 'parentId'>): bigint {
  return row.parentId ?? row.id;
}

/** Refuses a new password that breaks the rule of spec section 5, with the rule in the message. */
export function assertNewPassword(password: string) {
  if (passwordProblem(password)) throw new AppError(100010);
}

export function assertValidAccount(input: Pick<NewAccount, 'account' | 'name' | 'company' | 'remarks'> & { password?: string }) {
  if (input.password !== undefined) assertNewPassword(input.password);
  if (weightedLength(input.name?.trim() || input.account) > LIMITS.personName.max) throw new AppError(100011, 'name');
  if (input.company && weightedLength(input.company.trim()) > LIMITS.company.max) throw new AppError(100011, 'company');
  if (weightedLength(input.account) > LIMITS.personName.max) throw new AppError(100011, 'account');
  if (input.remarks && input.remarks.length > LIMITS.remarks.max) throw new AppError(100011, 'remarks');
}

export interface NewAccount {
  account: string;
  mail?: string;
  phone?: string;
  name?: string;
  company?: string;
  country?: string;
  address?: string;
  remarks?: string;
  password: string;
  lang?: Lang;
}

export function createAccountsService(deps: {
  repo: AccountsRepo;
  config: Pick<Config, 'adminAccount' | 'adminPassword' | 'serverIp' | 'company' | 'mode'> & Partial<Pick<Config, 'demo' | 'demoAccount'>>;
  logger: FastifyBaseLogger;
  /** Where avatars, logos and login backgrounds are kept. */
  images: ImageStore;
  /** Called once for every new account (user_auth 2), e.g. to create its default project. */
  onAccountCreated?: (row: UserRow) => Promise<void>;
}) {
  const { repo, config, logger, images } = deps;
  const serverIp = config.serverIp ?? null;

  async function loginUser(row: UserRow): Promise<LoginUser> {
    const owner = row.parentId === null ? row : await repo.findById(row.parentId);
    const user = mapLoginUser(row, serverIp, owner ?? { company: null, companyLogo: null, homeLink: null });
    // The demo account is an owner, but a newcomer trying the platform is not its operator (its menu says so).
    return isDemoAccount(row) ? { ...user, demo: true } : user;
  }

  /** The server's own demo account (src/demo), found by its sign-in name while the demo is on. */
  function isDemoAccount(row: UserRow): boolean {
    return config.demo === true && config.demoAccount !== undefined && row.account.toLowerCase() === config.demoAccount.toLowerCase();
  }

  /** The column each account picture lives in: the avatar is the user's own, logo and background the account's. */
  const IMAGE_COLUMN = { avatar: 'headImg', logo: 'companyLogo', background: 'homeLink' } as const;

  /** Stores a picture's URL in its column and deletes the file it replaces. */
  async function storeImage(userId: bigint, kind: AccountImageKind, file: string | null): Promise<LoginUser> {
    const row = await requireUser(userId);
    const column = IMAGE_COLUMN[kind];
    const updated = await repo.updateProfile({ id: row.id, set: { [column]: file === null ? null : accountImageUrl(file) } });
    if (!updated || updated === 'taken') throw new AppError(250020);
    const before = row[column]?.split('/').pop();
    if (before) await images.remove(before);
    return loginUser(updated);
  }

  async function requireUser(id: bigint): Promise<UserRow> {
    const row = await repo.findById(id);
    if (!row || row.deletedAt) throw new AppError(250020);
    return row;
  }

  return {
    /** Creates the platform administrator on first start, with ADMIN_PASSWORD or a random one logged once. */
    async ensureAdmin(): Promise<void> {
      if (await repo.findByLogin(config.adminAccount)) return;
      const password = config.adminPassword ?? randomPassword();
      const created = await repo.insert({
        account: config.adminAccount,
        name: config.adminAccount,
        passwordHash: await hashPassword(password),
        userAuth: USER_AUTH.admin,
        operateAuth: OPERATE_AUTH.owner,
        // The first administrator reviews push news until it gives the permission to others (docs/roles.md).
        pushAuth: true,
        companyCode: config.company,
      });
      if (!created) return; // another node created it at the same moment
      if (config.adminPassword) {
        logger.info({ account: config.adminAccount }, 'platform administrator created with ADMIN_PASSWORD');
      } else {
        // Printed once, on the start that creates the account; it is stored only as a hash.
        logger.warn(`platform administrator created: account "${config.adminAccount}", password "${password}" (shown only this once)`);
      }
    },

    /** Refuses what createAccount would refuse, before anything (a verification code) is spent. */
    assertValidAccount,

    /**
     * Creates a user: by default an account (a customer organisation) whose owner signs in with it; the
     * account screens also create administrators and sub-accounts. Only new accounts get their defaults.
     */
    async createAccount(
      input: NewAccount,
      role: { userAuth: number; operateAuth: number; parentId?: bigint; allProjects?: boolean } = {
        userAuth: USER_AUTH.account,
        operateAuth: OPERATE_AUTH.owner,
      },
    ): Promise<UserRow> {
      assertValidAccount(input);
      const name = input.name?.trim() || input.account;
      const row = await repo.insert({
        account: input.account,
        mail: input.mail?.toLowerCase(),
        phone: input.phone,
        name,
        company: input.company?.trim() || null,
        country: input.country?.trim() || null,
        address: input.address?.trim() || null,
        remarks: input.remarks?.trim() || null,
        passwordHash: await hashPassword(input.password),
        userAuth: role.userAuth,
        operateAuth: role.operateAuth,
        parentId: role.parentId ?? null,
        allProjects: role.allProjects ?? true,
        companyCode: config.company,
        lang: input.lang ?? 'en',
      });
      if (!row) throw new AppError(250001);
      if (role.userAuth === USER_AUTH.account) await deps.onAccountCreated?.(row);
      return row;
    },

    findByLogin: (login: string) => repo.findByLogin(login),
    findById: (id: bigint) => repo.findById(id),
    loginUser,

    async setPassword(id: bigint, password: string): Promise<void> {
      assertNewPassword(password);
      await repo.setPassword({ id, passwordHash: await hashPassword(password) });
    },

    async profile(auth: AuthContext): Promise<LoginUser> {
      return loginUser(await requireUser(auth.userId));
    },

    async changePassword(auth: AuthContext, body: ChangePasswordBody): Promise<void> {
      const row = await requireUser(auth.userId);
      if (!(await verifyPassword(row.passwordHash, body.oldPassword))) throw new AppError(100008);
      if (body.oldPassword === body.newPassword) throw new AppError(100007);
      assertNewPassword(body.newPassword);
      await repo.setPassword({ id: row.id, passwordHash: await hashPassword(body.newPassword) });
    },

    /** The user centre's own-info form: SaaS mode only, and not for sub-accounts above editable (spec section 2). */
    async updateProfile(auth: AuthContext, body: UpdateProfileBody): Promise<LoginUser> {
      const row = await requireUser(auth.userId);
      if (!canEditOwnInfo({ user_auth: row.userAuth, operate_auth: row.operateAuth }, config.mode)) throw new AppError(110003);
      const name = body.name?.trim();
      assertValidAccount({ account: row.account, name: name ?? row.name, remarks: body.remarks });
      const blankToNull = (v: string | undefined) => (v === undefined ? undefined : v.trim() || null);
      const updated = await repo.updateProfile({
        id: row.id,
        set: {
          ...(name ? { name } : {}),
          ...(body.mail !== undefined ? { mail: blankToNull(body.mail)?.toLowerCase() ?? null } : {}),
          ...(body.phone !== undefined ? { phone: blankToNull(body.phone) } : {}),
          ...(body.remarks !== undefined ? { remarks: blankToNull(body.remarks) } : {}),
        },
      });
      if (updated === 'taken') throw new AppError(250001);
      if (!updated) throw new AppError(250020);
      return loginUser(updated);
    },

    /**
     * Sets the avatar (own), the company logo or the login background (the account's: owners and the platform
     * administrator, by the endpoint's access level): a png or jpeg whose structure is whole, within its size.
     */
    async setImage(auth: AuthContext, kind: AccountImageKind, data: Buffer): Promise<LoginUser> {
      return storeImage(auth.userId, kind, await images.save(await checkedPicture(data, ACCOUNT_IMAGES[kind].maxBytes)));
    },

    async removeImage(auth: AuthContext, kind: AccountImageKind): Promise<LoginUser> {
      return storeImage(auth.userId, kind, null);
    },

    /** A stored account picture by its file name; undefined for a name the store never made or no longer has. */
    async imageFile(file: string): Promise<{ data: Buffer; contentType: string } | undefined> {
      const data = await images.read(file);
      return data ? { data, contentType: storedImageType(file) } : undefined;
    },

    async setLang(auth: AuthContext, lang: Lang): Promise<void> {
      await repo.setLang({ id: auth.userId, lang });
    },

    async accountExists(login: string): Promise<boolean> {
      const row = await repo.findByLogin(login.trim());
      return row !== undefined && !row.deletedAt;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
