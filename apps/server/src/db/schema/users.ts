import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { identityId, instant, timestamps, unreferencedId } from './columns.ts';

/** Every person who signs in: the platform administrator, accounts (tenants) and their sub-accounts. */
export const users = pgTable(
  'users',
  {
    id: identityId(),
    /** The sign-in name: the e-mail, the phone or a local account name. */
    account: text('account').notNull(),
    mail: text('mail'),
    phone: text('phone'),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    userAuth: smallint('user_auth').notNull(),
    operateAuth: smallint('operate_auth').notNull(),
    /** The separate push permission of spec section 6: a platform administrator who reviews push news. */
    pushAuth: boolean('push_auth').notNull().default(false),
    /** The owning account of a sub-account; the tenant of a user is parentId ?? id. */
    parentId: unreferencedId('parent_id'),
    company: text('company'),
    country: text('country'),
    address: text('address'),
    remarks: text('remarks'),
    companyCode: text('company_code'),
    headImg: text('head_img'),
    companyLogo: text('company_logo'),
    homeLink: text('home_link'),
    lang: text('lang').notNull().default('en'),
    /** A sub-account sees every project of its account, or only those project_members lists. */
    allProjects: boolean('all_projects').notNull().default(true),
    enabled: boolean('enabled').notNull().default(true),
    deletedAt: instant('deleted_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_account_key').on(t.account),
    uniqueIndex('users_mail_key')
      .on(t.mail)
      .where(sql`${t.mail} is not null`),
    uniqueIndex('users_phone_key')
      .on(t.phone)
      .where(sql`${t.phone} is not null`),
    index('users_parent_idx').on(t.parentId),
  ],
);
