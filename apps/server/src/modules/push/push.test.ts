import {
  PUSH_LIMITS,
  PUSH_STATE,
  accountEndpoints,
  canSeePush,
  canSeePushReview,
  errorStatus,
  pushEndpoints as E,
  userEndpoints,
  type EndpointInput,
  type EndpointSpec,
  type PushNewsAddBody,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  SERVICE_DATABASES,
  api,
  apiData,
  call,
  endpointCaller,
  expectError,
  login,
  refusedInput,
  signUpByMail,
  someAddress,
  startApp,
  type Harness,
} from '../../test/harness.ts';
import { OPERATE_AUTH, subAccount } from '../../test/projects.fixtures.ts';
import { tenancyCase, tenancyMatrix, tenancyPrincipals, type Principal, type PrincipalKey } from '../../test/tenancy.ts';
import { bigFakePng, makeJpeg, makePng, sendUpload } from '../../test/upload.fixtures.ts';
import { systemClock } from '../../lib/clock.ts';
import type { ImageStore } from '../../lib/image-store.ts';
import type { PushRepo } from './push.repo.ts';
import { PUBLIC_RATE_LIMIT } from './push.routes.ts';
import { createPushService } from './push.service.ts';

const OWNER = 'push-owner@example.com';
const INTRUDER = 'push-intruder@example.com';
/** The first account's news title: it may appear in no answer to the second account. */
const SECRET = 'Secret launch';

/** What no answer may carry once a text went through the server: anything a browser would run. */
const EXECUTABLE = [
  /<script/i,
  /\son\w+\s*=/i,
  /javascript:/i,
  /<svg/i,
  /<iframe/i,
  /<object/i,
  /<embed/i,
  /style\s*=/i,
  /data:/i,
  /expression\(/i,
  /<math/i,
  /vbscript:/i,
  /<style/i,
  /<form/i,
];

/** Stored-XSS corpus: each goes into a title and into a text. */
const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">mixed case</a>',
  '<a href="jav&#x09;ascript:alert(1)">entity tab</a>',
  '<svg onload=alert(1)><circle r="5"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<p style="background:url(javascript:alert(1));width:expression(alert(1))">styled</p>',
  '<div style="behavior:url(x.htc)">x</div>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<a href="data:text/html,<script>alert(1)</script>">data link</a>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)<</script>/script>',
  '<iframe src="https://evil.example/"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<p onclick="alert(1)" onmouseover=alert(1)>hover</p>',
  '<body onload=alert(1)>',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<img src="https://cdn.example/a.png" onerror="alert(1)">',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '"><script>alert(1)</script>',
  '<img src=`javascript:alert(1)`>',
  '<style>@import "https://evil.example/x.css";</style>',
];

function expectInert(answer: unknown) {
  const text = JSON.stringify(answer);
  for (const pattern of EXECUTABLE) expect(text, `${pattern} in ${text.slice(0, 400)}`).not.toMatch(pattern);
}

describe.each(SERVICE_DATABASES)('push news on %s', (kind) => {
  let h: Harness;
  let owner: string;
  let intruder: string;
  let admin: string;
  let principals: Record<PrincipalKey, Principal>;
  type World = { user: string; app: string; category: string; news: string; pending: string };
  let a: World;
  let b: World;

  const send = endpointCaller(
    () => h.app,
    () => owner,
  );
  const data = <S extends EndpointSpec>(endpoint: S, input: EndpointInput<S>, token = owner) => apiData(h.app, endpoint, input, { token });
  const upload = (purpose: string, file: Buffer, token = owner, type = 'image/png') =>
    sendUpload(h.app, E.upload, { name: 'picture', type, data: file }, { token, fields: { purpose } });
  const cover = async (token = owner) => {
    const res = await upload('cover', makePng(400, 200), token);
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data.file;
  };
  const newsBody = (w: Pick<World, 'app' | 'category'>, over: Partial<PushNewsAddBody> = {}): PushNewsAddBody => ({
    title: 'Spring lighting',
    cover: null,
    appId: w.app,
    categoryId: w.category,
    lang: 'en',
    content: '<p>Hello <strong>world</strong></p>',
    ...over,
  });

  /** An app, a category, a draft and a pending news item of one account. */
  async function world(token: string, packageName: string, title: string): Promise<World> {
    const app = await data(E.addApp, { body: { name: 'Lumigrid Home', packageName } }, token);
    const category = await data(E.addCategory, { body: { name: 'Products' } }, token);
    const news = await data(E.addNews, { body: newsBody({ app: app.id, category: category.id }, { title }) }, token);
    const pending = await data(E.addNews, { body: newsBody({ app: app.id, category: category.id }, { title: `${title} 2` }) }, token);
    await data(E.submitNews, { body: { id: pending.id } }, token);
    const me = await data(accountEndpoints.profile, {}, token);
    return { user: me.id, app: app.id, category: category.id, news: news.id, pending: pending.id };
  }

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await login(h, 'admin', ADMIN_PASSWORD);
    owner = await signUpByMail(h, OWNER);
    intruder = await signUpByMail(h, INTRUDER);
    principals = await tenancyPrincipals(h, { victim: OWNER, victimToken: owner, intruder: INTRUDER });
    a = await world(owner, 'com.owner.home', SECRET);
    b = await world(intruder, 'com.intruder.home', 'Own news');
  }, 120_000);
  afterAll(async () => h?.close());

  describe('apps', () => {
    it('adds, lists, finds, edits and deletes an app with its icon and bound accounts', async () => {
      const icon = await upload('icon', makePng(64, 64));
      expect(icon.body.data).toMatchObject({ width: 64, height: 64 });
      const me = await data(accountEndpoints.profile, {});
      const added = await data(E.addApp, {
        body: { name: ' Site app ', packageName: 'com.owner.site', icon: icon.body.data.file, accountIds: [me.id] },
      });
      expect(added).toMatchObject({ name: 'Site app', packageName: 'com.owner.site', boundAccounts: 1, accountIds: [me.id], newsCount: 0 });
      expect(added.icon).toBe(icon.body.data.url);
      const picture = await call(h.app, 'GET', added.icon!);
      expect(picture.status).toBe(200);
      expect(picture.headers['content-type']).toBe('image/png');

      const page = await data(E.apps, { query: { name: 'site' } });
      expect(page.list.map((x) => x.id)).toEqual([added.id]);
      expect((await data(E.app, { params: { id: added.id } })).name).toBe('Site app');

      const edited = await data(E.editApp, {
        body: { id: added.id, name: 'Site', packageName: 'com.owner.site2', icon: null, accountIds: [] },
      });
      expect(edited).toMatchObject({ name: 'Site', packageName: 'com.owner.site2', icon: null, boundAccounts: 0 });
      expect((await call(h.app, 'GET', added.icon!)).status).toBe(404);

      await data(E.deleteApp, { body: { id: added.id } });
      expectError(await send(E.app, { params: { id: added.id } }), 110011);
    });

    it('answers 320003 for a package name any account uses, and 110011 for an account that is not the caller’s', async () => {
      expectError(await send(E.addApp, { body: { name: 'Copy', packageName: 'com.intruder.home' } }), 320003);
      expectError(await send(E.editApp, { body: { id: a.app, name: 'Copy', packageName: 'com.intruder.home' } }), 320003);
      const theirs = await data(accountEndpoints.profile, {}, intruder);
      expectError(await send(E.addApp, { body: { name: 'Bound', packageName: 'com.owner.bound', accountIds: [theirs.id] } }), 110011);
      expectError(await send(E.addApp, refusedInput({ body: { name: 'Bad', packageName: 'not a package' } })), 100001);
    });

    it('takes as icon or cover only a picture the account uploaded itself (100013), so another account’s stays untouched', async () => {
      const theirs = await upload('icon', makePng(64, 64), intruder);
      const theirFile: string = theirs.body.data.file;
      const theirCover = await cover(intruder);
      expectError(await send(E.addApp, { body: { name: 'Borrowed', packageName: 'com.owner.borrowed', icon: theirFile } }), 100013);
      expectError(
        await send(E.editApp, { body: { id: a.app, name: 'Lumigrid Home', packageName: 'com.owner.home', icon: theirFile } }),
        100013,
      );
      expectError(await send(E.addNews, { body: newsBody(a, { cover: theirCover }) }), 100013);
      expectError(await send(E.editNews, { body: { id: a.news, ...newsBody(a, { title: SECRET, cover: theirCover }) } }), 100013);
      expect((await data(E.app, { params: { id: a.app } })).icon).toBeNull();
      // Nothing of ours points at their pictures, so deleting or replacing ours cannot remove them.
      expect((await call(h.app, 'GET', theirs.body.data.url)).status).toBe(200);
      const ownIcon = (await upload('icon', makePng(64, 64))).body.data.file;
      const own = await data(E.addApp, { body: { name: 'Own icon', packageName: 'com.owner.ownicon', icon: ownIcon } });
      await data(E.deleteApp, { body: { id: own.id } });
      expect((await call(h.app, 'GET', theirs.body.data.url)).status).toBe(200);
    });

    it('refuses to delete an app news still uses (250013)', async () => {
      expectError(await send(E.deleteApp, { body: { id: a.app } }), 250013);
      expect((await data(E.app, { params: { id: a.app } })).newsCount).toBe(2);
    });
  });

  describe('categories', () => {
    it('adds, renames and deletes; a duplicate name answers 110007 and one in use 250013', async () => {
      const added = await data(E.addCategory, { body: { name: 'Events' } });
      expectError(await send(E.addCategory, { body: { name: 'Events' } }), 110007);
      expectError(await send(E.editCategory, { body: { id: added.id, name: 'Products' } }), 110007);
      expect((await data(E.editCategory, { body: { id: added.id, name: 'Shows' } })).name).toBe('Shows');
      expectError(await send(E.deleteCategory, { body: { id: a.category } }), 250013);
      await data(E.deleteCategory, { body: { id: added.id } });
      expect((await data(E.categories, {})).map((c) => c.name)).toEqual(['Products']);
    });

    it('stops at the maximum number of categories with its message (100502)', async () => {
      const token = await signUpByMail(h, 'push-many@example.com');
      for (let i = 0; i < PUSH_LIMITS.categories; i++) await data(E.addCategory, { body: { name: `C${i}` } }, token);
      const res = await api(h.app, E.addCategory, { body: { name: 'One more' } }, { token, lang: 'ja' });
      expectError(res, 100502, 'ja');
      expect(await data(E.categories, {}, token)).toHaveLength(PUSH_LIMITS.categories);
    });
  });

  describe('pictures', () => {
    it('takes a 2:1 cover in png or jpeg and refuses other shapes (100501), other files (100013) and big ones (100014)', async () => {
      expect((await upload('cover', makePng(1200, 600))).body.code).toBe(0);
      expect((await upload('cover', await makeJpeg(402, 200), owner, 'image/jpeg')).body.code).toBe(0);
      expectError(await upload('cover', makePng(300, 300)), 100501);
      expectError(await upload('content', Buffer.from('<svg onload=alert(1)></svg>'), owner, 'image/svg+xml'), 100013);
      expectError(await upload('icon', bigFakePng(PUSH_LIMITS.imageBytes + 10)), 100014);
      expectError(await upload('poster', makePng(10, 10)), 100001);
    });
  });

  describe('news and its review', () => {
    it('goes draft -> pending -> passed, and back to draft when edited; failed news carries the reason', async () => {
      const coverFile = await cover();
      const draft = await data(E.addNews, { body: newsBody(a, { title: ' Summer sale ', cover: coverFile, recommended: true }) });
      expect(draft).toMatchObject({
        title: 'Summer sale',
        state: PUSH_STATE.draft,
        recommended: true,
        appName: 'Lumigrid Home',
        categoryName: 'Products',
      });
      expect(draft.operator).toBe(OWNER);
      expect(draft.cover).toMatch(/^\/api1\/push\/v1\/image\/[0-9a-f]{32}\.png$/);

      expectError(await send(E.pass, { body: { id: draft.id } }, admin), 110011);
      const pending = await data(E.submitNews, { body: { id: draft.id } });
      expect(pending.state).toBe(PUSH_STATE.pending);
      expectError(await send(E.submitNews, { body: { id: draft.id } }), 100503);
      expectError(await send(E.editNews, { body: { id: draft.id, ...newsBody(a) } }), 100503);

      const queue = await data(E.reviewList, { query: {} }, admin);
      expect(queue.list.map((n) => n.id)).toContain(draft.id);
      expect(queue.list.find((n) => n.id === draft.id)?.account).toBe(OWNER);
      const detail = await data(E.reviewDetail, { params: { id: draft.id } }, admin);
      expect(detail.content).toBe('<p>Hello <strong>world</strong></p>');

      const passed = await data(E.pass, { body: { id: draft.id } }, admin);
      expect(passed).toMatchObject({ state: PUSH_STATE.passed, reviewer: 'admin', reason: null });
      expectError(await send(E.pass, { body: { id: draft.id } }, admin), 100503);
      expectError(await send(E.reject, { body: { id: draft.id, reason: 'late' } }, admin), 100503);

      const edited = await data(E.editNews, { body: { id: draft.id, ...newsBody(a, { title: 'Summer sale!', cover: coverFile }) } });
      expect(edited.state).toBe(PUSH_STATE.draft);
      await data(E.submitNews, { body: { id: draft.id } });
      const failed = await data(E.reject, { body: { id: draft.id, reason: ' Picture too dark ' } }, admin);
      expect(failed).toMatchObject({ state: PUSH_STATE.failed, reason: 'Picture too dark' });
      expect((await data(E.news, { params: { id: draft.id } })).reason).toBe('Picture too dark');
      expect((await data(E.newsList, { query: { state: PUSH_STATE.failed } })).list.map((n) => n.id)).toEqual([draft.id]);

      const again = await data(E.submitNews, { body: { id: draft.id } });
      expect(again.state).toBe(PUSH_STATE.pending);
      const back = await data(E.withdrawNews, { body: { id: draft.id } });
      expect(back.state).toBe(PUSH_STATE.draft);
      expectError(await send(E.withdrawNews, { body: { id: draft.id } }), 100503);
      await data(E.deleteNews, { body: { id: draft.id } });
      expectError(await send(E.news, { params: { id: draft.id } }), 110011);
    });

    it('checks the title (1-25 after trimming) and the text, and the app and category are the account’s own', async () => {
      expectError(await send(E.addNews, refusedInput({ body: newsBody(a, { title: 'x'.repeat(26) }) })), 100001);
      // Counted as readers see it: markup around 25 characters is no 26th, and markup never hides a 26th.
      const marked = await data(E.addNews, { body: newsBody(a, { title: `<b>${'y'.repeat(25)}</b>` }) });
      expect(marked.title).toBe('y'.repeat(25));
      expectError(await send(E.addNews, { body: newsBody(a, { title: `<i>${'y'.repeat(26)}</i>` }) }), 100001);
      expectError(await send(E.addNews, { body: newsBody(a, { title: '   ' }) }), 100001);
      expectError(await send(E.addNews, { body: newsBody(a, { content: '<script>alert(1)</script>' }) }), 100001);
      expectError(await send(E.addNews, { body: newsBody({ app: b.app, category: a.category }) }), 110011);
      expectError(await send(E.addNews, { body: newsBody({ app: a.app, category: b.category }) }), 110011);
      expectError(await send(E.addNews, { body: newsBody(a, { cover: '0123456789abcdef0123456789abcdef.png' }) }), 100013);
      expect((await data(E.addNews, { body: newsBody(a, { title: '春の照明キャンペーン' }) })).title).toBe('春の照明キャンペーン');
    });

    it('keeps the review queue to reviewers: owners, sub-accounts and an administrator without the permission get 110003', async () => {
      for (const token of [owner, principals.intruderEditable.token]) {
        expectError(await send(E.reviewList, { query: {} }, token), 110003);
        expectError(await send(E.pass, { body: { id: a.pending } }, token), 110003);
      }
      await data(userEndpoints.add, { body: { userAuth: 1, account: 'second-admin', password: 'Second-Admin-1' } }, admin);
      let second = await login(h, 'second-admin', 'Second-Admin-1');
      expect((await data(accountEndpoints.profile, {}, second)).push_auth).toBe(false);
      expectError(await send(E.reviewList, { query: {} }, second), 110003);
      expectError(await send(E.reject, { body: { id: a.pending, reason: 'no' } }, second), 110003);
      // Push management itself is every operate_auth 0 user's, in its own account.
      expect((await data(E.apps, { query: {} }, second)).total).toBe(0);

      const list = await data(userEndpoints.list, { params: { userAuth: 1, page: 1, pageSize: 20 }, query: {} }, admin);
      const row = list.list.find((u) => u.account === 'second-admin')!;
      const self = list.list.find((u) => u.account === 'admin')!;
      expect(self.pushAuth).toBe(true);
      expectError(await send(userEndpoints.update, { body: { id: self.id, pushAuth: false } }, admin), 110003);
      const ownerRow = (await data(userEndpoints.list, { params: { userAuth: 2, page: 1, pageSize: 50 }, query: { name: OWNER } }, admin))
        .list[0]!;
      expectError(await send(userEndpoints.update, { body: { id: ownerRow.id, pushAuth: true } }, admin), 110003);

      expect((await data(userEndpoints.update, { body: { id: row.id, pushAuth: true } }, admin)).pushAuth).toBe(true);
      // A changed permission ends the sessions, as any change of authority does.
      expectError(await send(E.reviewList, { query: {} }, second), 250019);
      second = await login(h, 'second-admin', 'Second-Admin-1');
      expect((await data(accountEndpoints.profile, {}, second)).push_auth).toBe(true);
      expect((await data(E.reviewList, { query: {} }, second)).list.map((n) => n.id)).toContain(a.pending);
    });

    it('refuses push management to sub-accounts of every authority (110003)', async () => {
      const editor = await subAccount(h, OWNER, OPERATE_AUTH.editable);
      expectError(await send(E.apps, { query: {} }, editor), 110003);
      expectError(await send(E.addNews, { body: newsBody(a) }, editor), 110003);
      expectError(await upload('cover', makePng(400, 200), editor), 110003);
    });
  });

  describe('the public calls of the mobile apps', () => {
    let passedEn: string;
    let passedJa: string;

    beforeAll(async () => {
      const make = async (over: Partial<PushNewsAddBody>) => {
        const n = await data(E.addNews, { body: newsBody(a, { cover: await cover(), ...over }) });
        await data(E.submitNews, { body: { id: n.id } });
        await data(E.pass, { body: { id: n.id } }, admin);
        return n.id;
      };
      passedEn = await make({ title: 'Public en', content: `<p>Text <img src="/api1/push/v1/image/${'a'.repeat(32)}.png"></p>` });
      passedJa = await make({ title: '公開ニュース', lang: 'ja' });
      // The intruder's passed news is of another app; it never shows for this package.
      const theirs = await data(E.addNews, { body: newsBody(b, { title: 'Other app' }) }, intruder);
      await data(E.submitNews, { body: { id: theirs.id } }, intruder);
      await data(E.pass, { body: { id: theirs.id } }, admin);
    });

    const list = (query: Record<string, string>, headers: Record<string, string> = {}) =>
      call(h.app, 'GET', `/api1/push/v1/public/news?${new URLSearchParams(query)}`, { headers, remoteAddress: someAddress() });

    it('lists only passed news of that app and language, without a token, cacheable by ETag', async () => {
      const res = await list({ packageName: 'com.owner.home', lang: 'en' });
      expect(res.body.code).toBe(0);
      const ids = (res.body.data as { list: Array<{ id: string; cover: string }> }).list.map((n) => n.id);
      expect(ids).toEqual([passedEn]);
      expect((res.body.data as { list: Array<{ cover: string }> }).list[0]!.cover).toMatch(
        /^http:\/\/localhost:\d+\/api1\/push\/v1\/image\//,
      );
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      const etag = String(res.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      const again = await list({ packageName: 'com.owner.home', lang: 'en' }, { 'if-none-match': etag });
      expect(again.status).toBe(304);

      const ja = await list({ packageName: 'com.owner.home', lang: 'ja' });
      expect((ja.body.data as { list: Array<{ id: string }> }).list.map((n) => n.id)).toEqual([passedJa]);
      const unknown = await list({ packageName: 'com.nobody.app', lang: 'en' });
      expect(unknown.body.data).toEqual({ total: 0, list: [] });
    });

    it('serves one passed news item of the app, counts each fetch as a view, and nothing else', async () => {
      const get = (id: string, packageName = 'com.owner.home') =>
        call(h.app, 'GET', `/api1/push/v1/public/news/${id}?packageName=${packageName}`, { remoteAddress: someAddress() });
      const first = await get(passedEn);
      expect(first.body.data).toMatchObject({ id: passedEn, views: 1 });
      expect(first.headers['cache-control']).toBe('no-store');
      expect((first.body.data as { content: string }).content).toMatch(/src="http:\/\/localhost:\d+\/api1\/push\/v1\/image\/a{32}\.png"/);
      expect(((await get(passedEn)).body.data as { views: number }).views).toBe(2);
      await list({ packageName: 'com.owner.home', lang: 'en' });
      expect((await data(E.news, { params: { id: passedEn } })).views).toBe(2);

      for (const id of [a.news, a.pending]) expectError(await get(id), 100002);
      expectError(await get(passedEn, 'com.intruder.home'), 100002);
      expectError(await get('99999999999'), 100002);
      expect((await data(E.news, { params: { id: a.pending } })).views).toBe(0);
    });

    it('limits each client address (100003 with Retry-After)', async () => {
      const address = someAddress();
      const fetchList = () =>
        call(h.app, 'GET', '/api1/push/v1/public/news?packageName=com.nobody.app&lang=en', { remoteAddress: address });
      // In batches of ten at once: the limit's whole allowance, then one more.
      for (let sent = 0; sent < PUBLIC_RATE_LIMIT.max; sent += 10) {
        const batch = await Promise.all(Array.from({ length: Math.min(10, PUBLIC_RATE_LIMIT.max - sent) }, fetchList));
        expect(batch.map((r) => r.status)).toEqual(batch.map(() => 200));
      }
      const res = await fetchList();
      expectError(res, 100003);
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      const other = await list({ packageName: 'com.owner.home', lang: 'en' });
      expect(other.status).toBe(200);
    });
  });

  describe('stored XSS', () => {
    it('never gives back anything executable, in titles or texts, to any reader', async () => {
      for (const payload of XSS) {
        const content = `<p>Safe <a href="https://lumigrid.example/">link</a></p>${payload}`;
        const res = await send(E.addNews, { body: newsBody(a, { title: `T${payload}`.slice(0, 25), content }) });
        expectInert(res.body);
        // A title that is nothing but markup is refused as empty; the text is then tried with a plain title.
        if (res.body.code !== 0) expectError(res, 100001);
        const id = res.body.code === 0 ? res.body.data.id : (await data(E.addNews, { body: newsBody(a, { title: 'Plain', content }) })).id;
        const news = await data(E.news, { params: { id } });
        expectInert(news);
        expect(news.content).toContain('<a href="https://lumigrid.example/" target="_blank" rel="noopener noreferrer nofollow">link</a>');
      }
      expectInert(await data(E.newsList, { query: { pageSize: 100 } }));

      // The whole corpus in one text and the title, through the reviewer and out to the mobile apps.
      const all = await data(E.addNews, {
        body: newsBody(a, { title: `All${XSS[1]}`.slice(0, 25), content: `<p>All</p>${XSS.join('')}` }),
      });
      await data(E.submitNews, { body: { id: all.id } });
      expectInert(await data(E.reviewDetail, { params: { id: all.id } }, admin));
      expectInert(await data(E.reviewList, { query: { pageSize: 100 } }, admin));
      await data(E.pass, { body: { id: all.id } }, admin);
      const single = await call(h.app, 'GET', `/api1/push/v1/public/news/${all.id}?packageName=com.owner.home`, {
        remoteAddress: someAddress(),
      });
      expect(single.body.code).toBe(0);
      expectInert(single.body);
      const pub = await call(h.app, 'GET', '/api1/push/v1/public/news?packageName=com.owner.home&lang=en&pageSize=50', {
        remoteAddress: someAddress(),
      });
      expect(JSON.stringify(pub.body)).toContain(all.id);
      expectInert(pub.body);
    });

    it('keeps what the editor writes: headings, lists, quotes, our own pictures and https pictures', async () => {
      const content =
        '<h2>Title</h2><p><em>a</em> <u>b</u> <s>c</s> <code>d</code></p><ul><li>one</li></ul><ol start="3"><li>three</li></ol>' +
        `<blockquote><p>q</p></blockquote><hr><p><img src="/api1/push/v1/image/${'b'.repeat(32)}.jpg" alt="x"><img src="https://cdn.example/p.png"></p>`;
      const news = await data(E.addNews, { body: newsBody(a, { content }) });
      expect(news.content).toBe(content.replace('<hr>', '<hr />').replace('alt="x">', 'alt="x" />').replace('p.png">', 'p.png" />'));
      const external = await data(E.addNews, { body: newsBody(a, { content: '<p>x<img src="http://plain.example/p.png"></p>' }) });
      expect(external.content).toBe('<p>x</p>');
    });
  });

  describe('tenancy', () => {
    tenancyMatrix<World>({
      domain: E,
      cases: [
        tenancyCase(E.app, (x) => ({ params: { id: x.app } })),
        tenancyCase(E.editApp, (x) => ({ body: { id: x.app, name: 'Mine', packageName: 'com.mine.now' } })),
        tenancyCase(E.deleteApp, (x) => ({ body: { id: x.app } })),
        tenancyCase(E.addApp, (x) => ({ body: { name: 'Bound', packageName: 'com.bound.now', accountIds: [x.user] } })),
        tenancyCase(E.editCategory, (x) => ({ body: { id: x.category, name: 'Mine' } })),
        tenancyCase(E.deleteCategory, (x) => ({ body: { id: x.category } })),
        tenancyCase(E.news, (x) => ({ params: { id: x.news } })),
        tenancyCase(E.addNews, (x, y) => ({ body: newsBody({ app: x.app, category: y.category }) })),
        tenancyCase(E.editNews, (x, y) => ({ body: { id: x.news, ...newsBody(y) } })),
        tenancyCase(E.deleteNews, (x) => ({ body: { id: x.news } })),
        tenancyCase(E.submitNews, (x) => ({ body: { id: x.news } })),
        tenancyCase(E.withdrawNews, (x) => ({ body: { id: x.pending } })),
        // Reviewing is the platform's: an account owner is refused before any id is read.
        tenancyCase(E.reviewDetail, (x) => ({ params: { id: x.pending } }), { code: 110003 }),
        tenancyCase(E.pass, (x) => ({ body: { id: x.pending } }), { code: 110003 }),
        tenancyCase(E.reject, (x) => ({ body: { id: x.pending, reason: 'mine' } }), { code: 110003 }),
      ],
      // Lists answer the caller's own rows (tested below); pictures and the public calls take no account's ids.
      withoutIds: [E.apps, E.categories, E.newsList, E.addCategory, E.upload, E.image, E.reviewList, E.publicList, E.publicNews],
      secrets: [SECRET, 'com.owner.home'],
      world: () => ({ app: h.app, intruder, a, b, principals }),
    });

    it('lists only the caller’s own apps, categories and news', async () => {
      const apps = await data(E.apps, { query: {} }, intruder);
      const categories = await data(E.categories, {}, intruder);
      const news = await data(E.newsList, { query: { pageSize: 100 } }, intruder);
      expect(apps.list.map((x) => x.id)).toEqual([b.app]);
      expect(categories.map((x) => x.id)).toEqual([b.category]);
      expect(news.list.every((n) => n.appId === b.app)).toBe(true);
      expect(JSON.stringify([apps, categories, news])).not.toContain(SECRET);
    });

    it('left the first account’s news as it was', async () => {
      expect(await data(E.news, { params: { id: a.news } })).toMatchObject({ title: SECRET, state: PUSH_STATE.draft });
    });
  });
});

describe('the Push menu and calls follow the mode (spec section 6)', () => {
  it('shows Push only to operate_auth 0 in SaaS mode, and the review screen only to reviewers', () => {
    const owner = { user_auth: 2, operate_auth: 0 };
    const reviewer = { user_auth: 1, operate_auth: 0, push_auth: true };
    expect(canSeePush(owner, 'saas')).toBe(true);
    expect(canSeePush(owner, 'server')).toBe(false);
    for (const operate_auth of [2, 3, 4]) expect(canSeePush({ user_auth: 3, operate_auth }, 'saas')).toBe(false);
    expect(canSeePushReview(owner, 'saas')).toBe(false);
    expect(canSeePushReview({ ...owner, push_auth: true }, 'saas')).toBe(false);
    expect(canSeePushReview({ user_auth: 1, operate_auth: 0, push_auth: false }, 'saas')).toBe(false);
    expect(canSeePushReview(reviewer, 'saas')).toBe(true);
    expect(canSeePushReview(reviewer, 'server')).toBe(false);
  });

  it('answers 100504 (status 404) to every push call in server mode, before anything is read', async () => {
    const untouchable = new Proxy({} as PushRepo, {
      get: () => () => {
        throw new Error('the repository was touched');
      },
    });
    const sut = createPushService({
      repo: untouchable,
      images: untouchable as unknown as ImageStore,
      clock: systemClock,
      config: { mode: 'server', publicUrl: 'http://localhost' },
    });
    const reviewer = { userId: 1n, tenantId: 1n, userAuth: 1, operateAuth: 0, pushAuth: true };
    const calls: Array<() => Promise<unknown>> = [
      () => sut.apps(reviewer, {}),
      () => sut.addCategory(reviewer, 'x'),
      () => sut.addNews(reviewer, { title: 't', cover: null, appId: '1', categoryId: '1', lang: 'en', content: '<p>x</p>' }),
      () => sut.upload(reviewer, 'cover', Buffer.alloc(1)),
      () => sut.imageFile('0123456789abcdef0123456789abcdef.png'),
      () => sut.reviewList(reviewer, {}),
      () => sut.pass(reviewer, '1'),
      () => sut.publicList({ packageName: 'com.x.y', lang: 'en' }),
      () => sut.publicNews('1', 'com.x.y'),
    ];
    for (const run of calls) await expect(run()).rejects.toMatchObject({ code: 100504 });
    expect(errorStatus(100504)).toBe(404);
  });
});
