import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Push-news management (spec sections 1-4): an account's mobile apps, its news categories and its news
 * items with their review state (docs/decisions.md "Push news").
 */

/** A mobile app of an account; its package name is unique on the whole platform (320003). */
export const pushApps = pgTable(
  'push_apps',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'bigint' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The icon's stored picture name (DATA_DIR/uploads/push), or null. */
    icon: text('icon'),
    packageName: text('package_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_apps_package_key').on(t.packageName), index('push_apps_tenant_idx').on(t.tenantId, t.id)],
);

/** The accounts (the owner and its sub-accounts) bound to an app: the app's bound account count. */
export const pushAppAccounts = pgTable(
  'push_app_accounts',
  {
    appId: bigint('app_id', { mode: 'bigint' })
      .notNull()
      .references(() => pushApps.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'bigint' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    tenantId: bigint('tenant_id', { mode: 'bigint' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_images_tenant_idx').on(t.tenantId)],
);

export const pushCategories = pgTable(
  'push_categories',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'bigint' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_categories_tenant_name_key').on(t.tenantId, t.name)],
);

export const pushNews = pgTable(
  'push_news',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'bigint' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** The cover's stored picture name, or null. */
    cover: text('cover'),
    // Restrict: an app or category in use answers 250013 before it could be deleted.
    categoryId: bigint('category_id', { mode: 'bigint' })
      .notNull()
      .references(() => pushCategories.id, { onDelete: 'restrict' }),
    appId: bigint('app_id', { mode: 'bigint' })
      .notNull()
      .references(() => pushApps.id, { onDelete: 'restrict' }),
    lang: text('lang').notNull(),
    /** Sanitised HTML: what was stored is what every reader gets. */
    content: text('content').notNull(),
    recommended: boolean('recommended').notNull().default(false),
    /** contract PUSH_STATE: 1 draft, 3 pending, 2 failed, 4 passed. */
    state: smallint('state').notNull().default(1),
    /** Who last wrote or changed it. */
    operatorId: bigint('operator_id', { mode: 'bigint' }).references(() => users.id, { onDelete: 'set null' }),
    views: integer('views').notNull().default(0),
    reviewerId: bigint('reviewer_id', { mode: 'bigint' }).references(() => users.id, { onDelete: 'set null' }),
    /** The reviewer's reason while the item is failed. */
    reason: text('reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('push_news_tenant_idx').on(t.tenantId, t.updatedAt),
    index('push_news_review_idx').on(t.state, t.submittedAt),
    index('push_news_public_idx').on(t.appId, t.lang, t.state, t.reviewedAt),
    index('push_news_category_idx').on(t.categoryId),
  ],
);
