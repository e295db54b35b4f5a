import { Type, type Static } from 'typebox';
import { IdSchema, LangSchema, Nullable, PageNumberSchema, PageOf } from './common.ts';
import { MAP_IMAGE_FILE_PATTERN } from './projects.ts';

/**
 * Push-news management, spec sections 1-6, 8 and 9: an account's mobile apps, the categories of its news,
 * and news items that go draft -> pending review -> passed or failed. A reviewer (a platform administrator
 * with the push permission) passes or rejects them; the account's mobile apps read passed news through a
 * public endpoint (docs/api.md "Push news", docs/decisions.md "Push news").
 */

/**
 * Review states, reading A of spec section 4 (docs/decisions.md): 3 pending (amber), 2 failed (red),
 * 4 passed (green), anything else draft (dark blue). Drafts are stored as 1.
 */
export const PUSH_STATE = { draft: 1, failed: 2, pending: 3, passed: 4 } as const;
export type PushStateName = keyof typeof PUSH_STATE;
export type PushStateCode = (typeof PUSH_STATE)[PushStateName];

/** The state a stored code means: every code other than 2, 3 and 4 is a draft (spec section 4, reading A). */
export function pushStateName(code: number): PushStateName {
  if (code === PUSH_STATE.pending) return 'pending';
  if (code === PUSH_STATE.failed) return 'failed';
  if (code === PUSH_STATE.passed) return 'passed';
  return 'draft';
}

/** Status colours of spec section 9: pending amber, failed red, passed green, draft dark blue. */
export const PUSH_STATE_COLOURS: Record<PushStateName, string> = {
  pending: '#d48806',
  failed: '#cf1322',
  passed: '#389e0d',
  draft: '#1d39c4',
};

/** Whether the author may still change a news item: not while it waits for review. */
export function pushEditable(code: number): boolean {
  return code !== PUSH_STATE.pending;
}

/** Whether a news item may be sent to review: drafts and rejected items (passed ones are edited first). */
export function pushSubmittable(code: number): boolean {
  const state = pushStateName(code);
  return state === 'draft' || state === 'failed';
}

export const PUSH_LIMITS = {
  /**
   * Spec section 5: push title 1-25, counted as readers see it (markup removed, spaces trimmed); `sentMax`
   * bounds what may be sent, markup included.
   */
  title: { min: 1, max: 25, sentMax: 1000 },
  appName: { min: 1, max: 50 },
  packageName: { min: 3, max: 150 },
  categoryName: { min: 1, max: 20 },
  /**
   * Categories of one account; the spec names the limit ("the number of categories has reached the maximum
   * limit") but not its value (section 9): 20 (docs/decisions.md).
   */
  categories: 20,
  /** Accounts bound to one app. */
  boundAccounts: 200,
  reason: { min: 1, max: 200 },
  /** The rich text as the editor sends it, before sanitising. */
  contentBytes: 200_000,
  /** Spec section 5: jpg or png up to 1 MB, the cover 2:1 (accepted within 2 percent). */
  imageBytes: 1024 * 1024,
  coverRatio: 2,
  coverRatioTolerance: 0.02,
  /** What the form suggests for a cover. */
  coverSuggested: { width: 1200, height: 600 },
  /** Public list pages. */
  publicPageSize: 50,
} as const;

/** Android application ids and iOS bundle ids: two or more dot-separated parts. */
export const PACKAGE_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)+$';

/** Where a push picture (app icon, cover, picture in a news text) is served from, without a token. */
export function pushImageUrl(file: string): string {
  return `${PUSH_IMAGE_PATH}${file}`;
}
export const PUSH_IMAGE_PATH = '/api1/push/v1/image/';

const ImageFile = Type.String({ pattern: MAP_IMAGE_FILE_PATTERN, description: 'A picture name from POST /api1/push/v1/upload' });
const PageSize = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 }));
// The 1-25 rule is the server's: only it can count the text once the markup is removed.
const Title = Type.String({
  minLength: PUSH_LIMITS.title.min,
  maxLength: PUSH_LIMITS.title.sentMax,
  description: '1-25 characters once markup is removed; leading and trailing spaces are dropped',
});
const StateCode = Type.Integer({ description: 'Review state: 1 draft, 3 pending review, 2 failed, 4 passed' });
const When = Type.String({ format: 'date-time' });

/* ---------------------------------------------------------------- apps */

/** One mobile app of the account, as the app list shows it (spec section 3 "App"). */
export const PushAppSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  icon: Nullable(Type.String(), 'URL of the icon, or null'),
  packageName: Type.String({ description: 'Unique on the platform (320003)' }),
  accountIds: Type.Array(IdSchema, { description: 'The account and sub-accounts bound to the app' }),
  boundAccounts: Type.Integer({ description: 'How many accounts are bound to the app' }),
  newsCount: Type.Integer({ description: 'News items that use the app (250013 on delete while above 0)' }),
  createdAt: When,
});
export type PushApp = Static<typeof PushAppSchema>;

const appFields = {
  name: Type.String({ minLength: PUSH_LIMITS.appName.min, maxLength: PUSH_LIMITS.appName.max, description: '1-50 characters' }),
  icon: Type.Optional(Nullable(ImageFile, 'The icon picture, or null for none')),
  packageName: Type.String({
    minLength: PUSH_LIMITS.packageName.min,
    maxLength: PUSH_LIMITS.packageName.max,
    pattern: PACKAGE_NAME_PATTERN,
    description: 'Android application id or iOS bundle id (com.example.app); unique on the platform (320003)',
  }),
  accountIds: Type.Optional(
    Type.Array(IdSchema, {
      maxItems: PUSH_LIMITS.boundAccounts,
      uniqueItems: true,
      description: 'The account itself and its sub-accounts whose users use the app; others answer 110011',
    }),
  ),
};

export const PushAppAddBodySchema = Type.Object(appFields);
export type PushAppAddBody = Static<typeof PushAppAddBodySchema>;

export const PushAppEditBodySchema = Type.Object({ id: IdSchema, ...appFields });
export type PushAppEditBody = Static<typeof PushAppEditBodySchema>;

export const PushAppListQuerySchema = Type.Object({
  page: PageNumberSchema,
  pageSize: PageSize,
  name: Type.Optional(Type.String({ maxLength: 50, description: 'Part of the name or the package name' })),
});
export type PushAppListQuery = Static<typeof PushAppListQuerySchema>;

export const PushAppPageSchema = PageOf(PushAppSchema);
export type PushAppPage = Static<typeof PushAppPageSchema>;

/* ---------------------------------------------------------------- categories */

export const PushCategorySchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  newsCount: Type.Integer({ description: 'News items in the category (250013 on delete while above 0)' }),
  createdAt: When,
});
export type PushCategory = Static<typeof PushCategorySchema>;

const CategoryName = Type.String({
  minLength: PUSH_LIMITS.categoryName.min,
  maxLength: PUSH_LIMITS.categoryName.max,
  description: '1-20 characters, unique in the account (110007)',
});
export const PushCategoryAddBodySchema = Type.Object({ name: CategoryName });
export type PushCategoryAddBody = Static<typeof PushCategoryAddBodySchema>;
export const PushCategoryEditBodySchema = Type.Object({ id: IdSchema, name: CategoryName });
export type PushCategoryEditBody = Static<typeof PushCategoryEditBodySchema>;
export const PushCategoryListSchema = Type.Array(PushCategorySchema, { maxItems: PUSH_LIMITS.categories });

/* ---------------------------------------------------------------- news */

/** A news item as lists show it (spec section 3 "Push news"), without its text. */
export const PushNewsSummarySchema = Type.Object({
  id: IdSchema,
  title: Type.String(),
  cover: Nullable(Type.String(), 'URL of the cover (2:1), or null'),
  categoryId: IdSchema,
  categoryName: Type.String(),
  appId: IdSchema,
  appName: Type.String(),
  lang: LangSchema,
  recommended: Type.Boolean(),
  state: StateCode,
  operator: Type.String({ description: 'Who last wrote or changed it' }),
  views: Type.Integer({ description: 'How often a mobile app opened it' }),
  reason: Nullable(Type.String(), 'Why the reviewer rejected it, while it is failed; otherwise null'),
  updatedAt: When,
  submittedAt: Nullable(When, 'When it was last sent to review'),
  reviewedAt: Nullable(When, 'When it was last passed or rejected'),
});
export type PushNewsSummary = Static<typeof PushNewsSummarySchema>;

/** One news item with its sanitised rich text. */
export const PushNewsSchema = Type.Object({
  ...PushNewsSummarySchema.properties,
  content: Type.String({ description: 'Sanitised HTML: an allow-list of tags, no scripts, no event attributes' }),
  reviewer: Nullable(Type.String(), 'Who passed or rejected it last'),
});
export type PushNews = Static<typeof PushNewsSchema>;

const newsFields = {
  title: Title,
  cover: Nullable(ImageFile, 'The cover picture (2:1), or null'),
  categoryId: IdSchema,
  appId: IdSchema,
  lang: LangSchema,
  content: Type.String({
    minLength: 1,
    maxLength: PUSH_LIMITS.contentBytes,
    description: 'Rich text (HTML); sanitised on the server: tags and attributes outside the allow-list are dropped',
  }),
  recommended: Type.Optional(Type.Boolean({ default: false, description: 'Shown first by the mobile apps' })),
};

export const PushNewsAddBodySchema = Type.Object(newsFields);
export type PushNewsAddBody = Static<typeof PushNewsAddBodySchema>;

export const PushNewsEditBodySchema = Type.Object({ id: IdSchema, ...newsFields });
export type PushNewsEditBody = Static<typeof PushNewsEditBodySchema>;

export const PushNewsListQuerySchema = Type.Object({
  page: PageNumberSchema,
  pageSize: PageSize,
  title: Type.Optional(Type.String({ maxLength: 25, description: 'Part of the title' })),
  state: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(4)], { description: 'One review state' }),
  ),
  appId: Type.Optional(IdSchema),
  categoryId: Type.Optional(IdSchema),
  lang: Type.Optional(LangSchema),
});
export type PushNewsListQuery = Static<typeof PushNewsListQuerySchema>;

export const PushNewsPageSchema = PageOf(PushNewsSummarySchema);
export type PushNewsPage = Static<typeof PushNewsPageSchema>;

export const PushIdBodySchema = Type.Object({ id: IdSchema });
export type PushIdBody = Static<typeof PushIdBodySchema>;
export const PushIdParamsSchema = Type.Object({ id: IdSchema });

/* ---------------------------------------------------------------- review */

/** A news item in the review queue: whose account wrote it. */
export const PushReviewItemSchema = Type.Object({
  ...PushNewsSummarySchema.properties,
  account: Type.String({ description: 'The account (company or name) the news belongs to' }),
});
export type PushReviewItem = Static<typeof PushReviewItemSchema>;

export const PushReviewDetailSchema = Type.Object({ ...PushNewsSchema.properties, account: Type.String() });
export type PushReviewDetail = Static<typeof PushReviewDetailSchema>;

export const PushReviewListQuerySchema = Type.Object({
  page: PageNumberSchema,
  pageSize: PageSize,
  state: Type.Optional(
    Type.Union([Type.Literal(2), Type.Literal(3), Type.Literal(4)], {
      description: '3 pending (the default: oldest first), 2 failed or 4 passed (newest review first)',
    }),
  ),
});
export type PushReviewListQuery = Static<typeof PushReviewListQuerySchema>;

export const PushReviewPageSchema = PageOf(PushReviewItemSchema);
export type PushReviewPage = Static<typeof PushReviewPageSchema>;

export const PushRejectBodySchema = Type.Object({
  id: IdSchema,
  reason: Type.String({ minLength: PUSH_LIMITS.reason.min, maxLength: PUSH_LIMITS.reason.max, description: 'Why, for the author' }),
});
export type PushRejectBody = Static<typeof PushRejectBodySchema>;

/* ---------------------------------------------------------------- pictures */

export const PUSH_IMAGE_PURPOSES = ['icon', 'cover', 'content'] as const;
export type PushImagePurpose = (typeof PUSH_IMAGE_PURPOSES)[number];

export const PushImageUploadSchema = Type.Object({
  file: Type.Optional(Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'png or jpeg up to 1 MB' })),
  purpose: Type.Union([Type.Literal('icon'), Type.Literal('cover'), Type.Literal('content')], {
    description: 'icon (an app icon), cover (must be 2:1, 100501 otherwise) or content (a picture in a news text)',
  }),
});

export const PushImageSchema = Type.Object({
  file: Type.String({ description: 'The name to send as icon or cover' }),
  url: Type.String({ description: 'Where it is served (and what a news text uses)' }),
  width: Type.Integer(),
  height: Type.Integer(),
});
export type PushImage = Static<typeof PushImageSchema>;

export const PushImageFileParamsSchema = Type.Object({
  file: Type.String({ pattern: MAP_IMAGE_FILE_PATTERN, description: '32 hex digits and .png or .jpg' }),
});

/* ---------------------------------------------------------------- public (mobile apps) */

export const PublicNewsListQuerySchema = Type.Object({
  packageName: Type.String({ minLength: 1, maxLength: PUSH_LIMITS.packageName.max, description: 'The app asking' }),
  lang: LangSchema,
  categoryId: Type.Optional(IdSchema),
  page: PageNumberSchema,
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: PUSH_LIMITS.publicPageSize, default: 20 })),
});
export type PublicNewsListQuery = Static<typeof PublicNewsListQuerySchema>;

export const PublicNewsSummarySchema = Type.Object({
  id: IdSchema,
  title: Type.String(),
  cover: Nullable(Type.String(), 'Absolute URL of the cover, or null'),
  category: Type.String(),
  recommended: Type.Boolean(),
  views: Type.Integer(),
  publishedAt: When,
});
export type PublicNewsSummary = Static<typeof PublicNewsSummarySchema>;

export const PublicNewsPageSchema = PageOf(PublicNewsSummarySchema);
export type PublicNewsPage = Static<typeof PublicNewsPageSchema>;

export const PublicNewsSchema = Type.Object({
  ...PublicNewsSummarySchema.properties,
  content: Type.String({ description: 'Sanitised HTML; picture URLs are absolute' }),
});
export type PublicNews = Static<typeof PublicNewsSchema>;

export const PublicNewsQuerySchema = Type.Object({
  packageName: Type.String({ minLength: 1, maxLength: PUSH_LIMITS.packageName.max, description: 'The app asking' }),
});
