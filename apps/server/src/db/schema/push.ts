import { boolean, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, instant, mayReferTo, refersTo, timestamps } from './columns.ts';
import { tenantColumn, tenantRowKeys } from './tenant-columns.ts';
import { users } from './users.ts';

/**
 * Push-news management (spec sections 1-4): an account's mobile apps, its news categories and its news
 * items with their review state (docs/decisions.md "Push news").
 */

/** A mobile app of an account; its package name is unique on the whole platform (320003). */
export const pushApps = pgTable(
  'push_apps',
  {
    ...tenantRowKeys(),
    name: text('name').notNull(),
    /** The icon's stored picture name (DATA_DIR/uploads/push), or null. */
    icon: text('icon'),
    packageName: text('package_name').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('push_apps_package_key').on(t.packageName), index('push_apps_tenant_idx').on(t.tenantId, t.id)],
);

/** The accounts (the owner and its sub-accounts) bound to an app: the app's bound account count. */
export const pushAppAccounts = pgTable(
  'push_app_accounts',
  {
    appId: refersTo('app_id', () => pushApps.id, 'cascade'),
    userId: refersTo('user_id', () => users.id, 'cascade'),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] })],
);

/**
 * Who uploaded each stored push picture (DATA_DIR/uploads/push): an app icon or a news cover may name only
 * its own account's upload (100013 otherwise).
 */
export const pushImages = pgTable(
  'push_images',
  {
    file: text('file').primaryKey(),
    tenantId: tenantColumn(),
    createdAt: createdAt(),
  },
  (t) => [index('push_images_tenant_idx').on(t.tenantId)],
);

export const pushCategories = pgTable(
  'push_categories',
  {
    ...tenantRowKeys(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('push_categories_tenant_name_key').on(t.tenantId, t.name)],
);

export const pushNews = pgTable(
  'push_news',
  {
    ...tenantRowKeys(),
    title: text('title').notNull(),
    /** The cover's stored picture name, or null. */
    cover: text('cover'),
    // Restrict: an app or category in use answers 250013 before it could be deleted.
    categoryId: refersTo('category_id', () => pushCategories.id, 'restrict'),
    appId: refersTo('app_id', () => pushApps.id, 'restrict'),
    lang: text('lang').notNull(),
    /** Sanitised HTML: what was stored is what every reader gets. */
    content: text('content').notNull(),
    recommended: boolean('recommended').notNull().default(false),
    /** contract PUSH_STATE: 1 draft, 3 pending, 2 failed, 4 passed. */
    state: smallint('state').notNull().default(1),
    /** Who last wrote or changed it. */
    operatorId: mayReferTo('operator_id', () => users.id, 'set null'),
    views: integer('views').notNull().default(0),
    reviewerId: mayReferTo('reviewer_id', () => users.id, 'set null'),
    /** The reviewer's reason while the item is failed. */
    reason: text('reason'),
    submittedAt: instant('submitted_at'),
    reviewedAt: instant('reviewed_at'),
    ...timestamps(),
  },
  (t) => [
    index('push_news_tenant_idx').on(t.tenantId, t.updatedAt),
    index('push_news_review_idx').on(t.state, t.submittedAt),
    index('push_news_public_idx').on(t.appId, t.lang, t.state, t.reviewedAt),
    index('push_news_category_idx').on(t.categoryId),
  ],
);
