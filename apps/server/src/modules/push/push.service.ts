import {
  PUSH_LIMITS,
  PUSH_STATE,
  pushImageUrl,
  type Lang,
  type PublicNews,
  type PublicNewsListQuery,
  type PublicNewsPage,
  type PublicNewsSummary,
  type PushApp,
  type PushAppAddBody,
  type PushAppEditBody,
  type PushAppListQuery,
  type PushAppPage,
  type PushCategory,
  type PushImage,
  type PushImagePurpose,
  type PushNews,
  type PushNewsAddBody,
  type PushNewsEditBody,
  type PushNewsListQuery,
  type PushNewsPage,
  type PushNewsSummary,
  type PushRejectBody,
  type PushReviewDetail,
  type PushReviewListQuery,
  type PushReviewPage,
} from '@lumigrid/contract';
import type { Config } from '../../config.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { AppError, duplicateAs } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/auth.ts';
import { assertMay } from '../../http/authority.ts';
import type { Clock } from '../../lib/clock.ts';
import { storedImageType, type ImageStore } from '../../lib/image-store.ts';
import { paging } from '../../lib/paging.ts';
import { checkJpeg, checkPng, checkedPicture } from '../../lib/picture.ts';
import { denyAccess, toId } from '../access/access.ts';
import { absolutePictures, hasContent, plainTitle, sanitizeNewsContent } from './push-content.ts';
import type { PushAppRow, PushCategoryRow, PushNewsRow, PushRepo } from './push.repo.ts';

type Caller = Pick<AuthContext, 'userId' | 'tenantId' | 'userAuth' | 'operateAuth' | 'pushAuth'>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function mapApp(row: PushAppRow): PushApp {
  return {
    id: String(row.id),
    name: row.name,
    icon: row.icon ? pushImageUrl(row.icon) : null,
    packageName: row.packageName,
    accountIds: row.accountIds,
    boundAccounts: row.accountIds.length,
    newsCount: row.newsCount,
    createdAt: row.createdAt.toISOString(),
  };
}

function mapCategory(row: PushCategoryRow): PushCategory {
  return { id: String(row.id), name: row.name, newsCount: row.newsCount, createdAt: row.createdAt.toISOString() };
}

function mapSummary(row: PushNewsRow): PushNewsSummary {
  const n = row.news;
  return {
    id: String(n.id),
    title: n.title,
    cover: n.cover ? pushImageUrl(n.cover) : null,
    categoryId: String(n.categoryId),
    categoryName: row.categoryName,
    appId: String(n.appId),
    appName: row.appName,
    lang: n.lang as Lang,
    recommended: n.recommended,
    state: n.state,
    operator: row.operatorName ?? '',
    views: n.views,
    reason: n.state === PUSH_STATE.failed ? n.reason : null,
    updatedAt: n.updatedAt.toISOString(),
    submittedAt: iso(n.submittedAt),
    reviewedAt: iso(n.reviewedAt),
  };
}

function mapNews(row: PushNewsRow): PushNews {
  return { ...mapSummary(row), content: row.news.content, reviewer: row.reviewerName };
}

/**
 * Push-news management: an account's apps, categories and news (owners and the platform administrator,
 * operate_auth 0), the review queue of the platform's reviewers, and what the account's mobile apps read.
 * Everything here exists in SaaS mode only (100504 otherwise).
 */
export function createPushService(deps: { repo: PushRepo; images: ImageStore; clock: Clock; config: Pick<Config, 'mode' | 'publicUrl'> }) {
  const { repo, images, clock, config } = deps;

  function assertAvailable() {
    if (config.mode !== 'saas') throw new AppError(100504);
  }

  /** The mode first, then the authority: both before any row is read. */
  function enter(auth: Caller, access: 'push' | 'pushReview') {
    assertAvailable();
    assertMay(auth, access);
  }

  /** A picture a body names must be one the caller's account uploaded (push/v1/upload); any other answers 100013. */
  async function assertOwnImage(auth: Caller, file: string | null | undefined) {
    if (file && !(await repo.ownsImage({ tenantId: auth.tenantId, file }))) throw new AppError(100013);
  }

  /** Deletes a picture the account no longer uses, with its record. */
  async function dropImage(auth: Caller, file: string) {
    await repo.deleteImage({ tenantId: auth.tenantId, file });
    await images.remove(file);
  }

  async function boundAccounts(auth: Caller, ids: string[] | undefined): Promise<bigint[]> {
    const wanted = [...new Set((ids ?? []).map(toId))];
    const found = await repo.tenantUserIds({ tenantId: auth.tenantId, ids: wanted });
    if (found.length !== wanted.length) denyAccess();
    return wanted;
  }

  async function requireApp(auth: Caller, id: string) {
    const row = await repo.findApp({ tenantId: auth.tenantId, id: toId(id) });
    if (!row) denyAccess();
    return row;
  }

  async function requireNews(auth: Caller, id: string): Promise<PushNewsRow> {
    const row = await repo.findNews({ tenantId: auth.tenantId, id: toId(id) });
    if (!row) denyAccess();
    return row;
  }

  /** The fields of a news body as stored: a plain title, sanitised text, the caller's own app and category. */
  async function newsValues(auth: Caller, body: PushNewsAddBody) {
    const title = plainTitle(body.title);
    if (title.length < PUSH_LIMITS.title.min || title.length > PUSH_LIMITS.title.max)
      throw new AppError(100001, `title: ${PUSH_LIMITS.title.min}-${PUSH_LIMITS.title.max}`);
    const content = sanitizeNewsContent(body.content);
    if (!hasContent(content)) throw new AppError(100001, 'content');
    await requireApp(auth, body.appId);
    if (!(await repo.findCategory({ tenantId: auth.tenantId, id: toId(body.categoryId) }))) denyAccess();
    await assertOwnImage(auth, body.cover);
    return {
      title,
      cover: body.cover ?? null,
      appId: toId(body.appId),
      categoryId: toId(body.categoryId),
      lang: body.lang,
      content,
      recommended: body.recommended ?? false,
      operatorId: auth.userId,
    };
  }

  function mapPublicSummary(row: PushNewsRow): PublicNewsSummary {
    const n = row.news;
    const base = config.publicUrl.replace(/\/$/, '');
    return {
      id: String(n.id),
      title: n.title,
      cover: n.cover ? `${base}${pushImageUrl(n.cover)}` : null,
      category: row.categoryName,
      recommended: n.recommended,
      views: n.views,
      publishedAt: (n.reviewedAt ?? n.updatedAt).toISOString(),
    };
  }

  return {
    /* ------------------------------------------------------------ apps */

    async apps(auth: Caller, query: PushAppListQuery): Promise<PushAppPage> {
      enter(auth, 'push');
      const { offset, limit } = paging(query);
      const { total, rows } = await repo.appPage({ tenantId: auth.tenantId, text: query.name?.trim() || undefined, offset, limit });
      return { total, list: rows.map(mapApp) };
    },

    async app(auth: Caller, id: string): Promise<PushApp> {
      enter(auth, 'push');
      return mapApp(await requireApp(auth, id));
    },

    async addApp(auth: Caller, body: PushAppAddBody): Promise<PushApp> {
      enter(auth, 'push');
      const accountIds = await boundAccounts(auth, body.accountIds);
      await assertOwnImage(auth, body.icon);
      const name = body.name.trim();
      if (!name) throw new AppError(100001, 'name');
      return await duplicateAs(320003, async () => {
        const row = await repo.insertApp({
          tenantId: auth.tenantId,
          name,
          icon: body.icon ?? null,
          packageName: body.packageName,
          accountIds,
        });
        return mapApp((await repo.findApp({ tenantId: auth.tenantId, id: row.id }))!);
      });
    },

    async editApp(auth: Caller, body: PushAppEditBody): Promise<PushApp> {
      enter(auth, 'push');
      const before = await requireApp(auth, body.id);
      const accountIds = await boundAccounts(auth, body.accountIds);
      await assertOwnImage(auth, body.icon);
      const name = body.name.trim();
      if (!name) throw new AppError(100001, 'name');
      const icon = body.icon === undefined ? before.icon : body.icon;
      await duplicateAs(320003, async () => {
        await repo.updateApp({ tenantId: auth.tenantId, id: before.id, name, icon, packageName: body.packageName, accountIds });
      });
      if (before.icon && before.icon !== icon) await dropImage(auth, before.icon);
      return mapApp(await requireApp(auth, body.id));
    },

    async deleteApp(auth: Caller, id: string): Promise<null> {
      enter(auth, 'push');
      const app = await requireApp(auth, id);
      if (app.newsCount > 0) throw new AppError(250013);
      try {
        if (!(await repo.removeApp({ tenantId: auth.tenantId, id: app.id }))) denyAccess();
      } catch (error) {
        // A news item written meanwhile: the foreign key holds the app.
        if (isForeignKeyViolation(error)) throw new AppError(250013);
        throw error;
      }
      if (app.icon) await dropImage(auth, app.icon);
      return null;
    },

    /* ------------------------------------------------------------ categories */

    async categories(auth: Caller): Promise<PushCategory[]> {
      enter(auth, 'push');
      return (await repo.categories({ tenantId: auth.tenantId })).map(mapCategory);
    },

    async addCategory(auth: Caller, rawName: string): Promise<PushCategory> {
      enter(auth, 'push');
      const name = rawName.trim();
      if (!name) throw new AppError(100001, 'name');
      return await duplicateAs(110007, async () => {
        const row = await repo.insertCategory({ tenantId: auth.tenantId, name, max: PUSH_LIMITS.categories });
        if (!row) throw new AppError(100502);
        return mapCategory({ ...row, newsCount: 0 });
      });
    },

    async editCategory(auth: Caller, id: string, rawName: string): Promise<PushCategory> {
      enter(auth, 'push');
      const name = rawName.trim();
      if (!name) throw new AppError(100001, 'name');
      return await duplicateAs(110007, async () => {
        const row = await repo.renameCategory({ tenantId: auth.tenantId, id: toId(id), name });
        if (!row) denyAccess();
        return mapCategory({ ...row, newsCount: await repo.newsCountOf({ categoryId: row.id }) });
      });
    },

    async deleteCategory(auth: Caller, id: string): Promise<null> {
      enter(auth, 'push');
      const category = await repo.findCategory({ tenantId: auth.tenantId, id: toId(id) });
      if (!category) denyAccess();
      if ((await repo.newsCountOf({ categoryId: category.id })) > 0) throw new AppError(250013);
      try {
        await repo.removeCategory({ tenantId: auth.tenantId, id: category.id });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new AppError(250013);
        throw error;
      }
      return null;
    },

    /* ------------------------------------------------------------ news */

    async newsList(auth: Caller, query: PushNewsListQuery): Promise<PushNewsPage> {
      enter(auth, 'push');
      const { offset, limit } = paging(query);
      const { total, rows } = await repo.newsPage({
        tenantId: auth.tenantId,
        title: query.title?.trim() || undefined,
        state: query.state,
        appId: query.appId === undefined ? undefined : toId(query.appId),
        categoryId: query.categoryId === undefined ? undefined : toId(query.categoryId),
        lang: query.lang,
        offset,
        limit,
      });
      return { total, list: rows.map(mapSummary) };
    },

    async news(auth: Caller, id: string): Promise<PushNews> {
      enter(auth, 'push');
      return mapNews(await requireNews(auth, id));
    },

    async addNews(auth: Caller, body: PushNewsAddBody): Promise<PushNews> {
      enter(auth, 'push');
      const values = await newsValues(auth, body);
      const id = await repo.insertNews({ ...values, tenantId: auth.tenantId, state: PUSH_STATE.draft });
      return mapNews((await repo.findNews({ tenantId: auth.tenantId, id }))!);
    },

    /** Changes a news item; a passed or failed one becomes a draft again, to be reviewed anew. */
    async editNews(auth: Caller, body: PushNewsEditBody): Promise<PushNews> {
      enter(auth, 'push');
      const before = await requireNews(auth, body.id);
      const values = await newsValues(auth, body);
      const result = await repo.updateNews({
        tenantId: auth.tenantId,
        id: before.news.id,
        fromStates: [PUSH_STATE.draft, PUSH_STATE.failed, PUSH_STATE.passed],
        set: { ...values, state: PUSH_STATE.draft, reason: null },
      });
      if (result === 'state') throw new AppError(100503);
      if (!result) denyAccess();
      if (before.news.cover && before.news.cover !== values.cover) await dropImage(auth, before.news.cover);
      return mapNews(await requireNews(auth, body.id));
    },

    async deleteNews(auth: Caller, id: string): Promise<null> {
      enter(auth, 'push');
      const before = await requireNews(auth, id);
      if (!(await repo.removeNews({ tenantId: auth.tenantId, id: before.news.id }))) denyAccess();
      if (before.news.cover) await dropImage(auth, before.news.cover);
      return null;
    },

    async submitNews(auth: Caller, id: string): Promise<PushNews> {
      enter(auth, 'push');
      const result = await repo.updateNews({
        tenantId: auth.tenantId,
        id: toId(id),
        fromStates: [PUSH_STATE.draft, PUSH_STATE.failed],
        set: { state: PUSH_STATE.pending, submittedAt: clock.now(), operatorId: auth.userId },
      });
      if (result === 'state') throw new AppError(100503);
      if (!result) denyAccess();
      return mapNews(await requireNews(auth, id));
    },

    /** Back to draft: out of the review queue, or off the mobile apps. */
    async withdrawNews(auth: Caller, id: string): Promise<PushNews> {
      enter(auth, 'push');
      const result = await repo.updateNews({
        tenantId: auth.tenantId,
        id: toId(id),
        fromStates: [PUSH_STATE.pending, PUSH_STATE.passed],
        set: { state: PUSH_STATE.draft, operatorId: auth.userId },
      });
      if (result === 'state') throw new AppError(100503);
      if (!result) denyAccess();
      return mapNews(await requireNews(auth, id));
    },

    /* ------------------------------------------------------------ pictures */

    /** Stores an icon, cover or text picture: png or jpeg up to 1 MB, a cover 2:1 within 2 percent (100501). */
    async upload(auth: Caller, purpose: PushImagePurpose, data: Buffer): Promise<PushImage> {
      enter(auth, 'push');
      const picture = await checkedPicture(data, PUSH_LIMITS.imageBytes);
      const size = picture.contentType === 'image/png' ? await checkPng(picture.data) : checkJpeg(picture.data);
      if (!size) throw new AppError(100013);
      if (purpose === 'cover') {
        const ratio = size.width / size.height;
        if (Math.abs(ratio - PUSH_LIMITS.coverRatio) / PUSH_LIMITS.coverRatio > PUSH_LIMITS.coverRatioTolerance) throw new AppError(100501);
      }
      const file = await images.save(picture);
      await repo.insertImage({ tenantId: auth.tenantId, file });
      return { file, url: pushImageUrl(file), width: size.width, height: size.height };
    },

    async imageFile(file: string): Promise<{ data: Buffer; contentType: string } | undefined> {
      assertAvailable();
      const data = await images.read(file);
      return data ? { data, contentType: storedImageType(file) } : undefined;
    },

    /* ------------------------------------------------------------ review */

    async reviewList(auth: Caller, query: PushReviewListQuery): Promise<PushReviewPage> {
      enter(auth, 'pushReview');
      const { offset, limit } = paging(query);
      const { total, rows } = await repo.reviewPageAnyTenant({ state: query.state ?? PUSH_STATE.pending, offset, limit });
      return { total, list: rows.map((row) => ({ ...mapSummary(row), account: row.account })) };
    },

    async reviewDetail(auth: Caller, id: string): Promise<PushReviewDetail> {
      enter(auth, 'pushReview');
      const row = await repo.reviewableAnyTenant({ id: toId(id) });
      if (!row) denyAccess();
      return { ...mapNews(row), account: row.account };
    },

    async pass(auth: Caller, id: string): Promise<PushNews> {
      return review(auth, id, PUSH_STATE.passed, null);
    },

    async reject(auth: Caller, body: PushRejectBody): Promise<PushNews> {
      const reason = body.reason.trim();
      if (!reason) throw new AppError(100001, 'reason');
      return review(auth, body.id, PUSH_STATE.failed, reason);
    },

    /* ------------------------------------------------------------ public */

    async publicList(query: PublicNewsListQuery): Promise<PublicNewsPage> {
      assertAvailable();
      const { offset, limit } = paging(query);
      const { total, rows } = await repo.publicPageAnyTenant({
        packageName: query.packageName,
        lang: query.lang,
        categoryId: query.categoryId === undefined ? undefined : BigInt(query.categoryId),
        offset,
        limit,
      });
      return { total, list: rows.map(mapPublicSummary) };
    },

    async publicNews(id: string, packageName: string): Promise<PublicNews> {
      assertAvailable();
      const key = BigInt(id);
      const row = key > 0n && key < 2n ** 63n ? await repo.viewPublicAnyTenant({ id: key, packageName }) : undefined;
      if (!row) throw new AppError(100002);
      return { ...mapPublicSummary(row), content: absolutePictures(row.news.content, config.publicUrl) };
    },
  };

  async function review(auth: Caller, id: string, to: number, reason: string | null): Promise<PushNews> {
    enter(auth, 'pushReview');
    const key = toId(id);
    const result = await repo.reviewAnyTenant({ id: key, to, reviewerId: auth.userId, reason, now: clock.now() });
    if (result === 'state') throw new AppError(100503);
    if (!result) denyAccess();
    const row = await repo.reviewableAnyTenant({ id: key });
    return mapNews(row!);
  }
}

export type PushService = ReturnType<typeof createPushService>;
