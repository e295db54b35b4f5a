import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCOUNT_IMAGES, OPERATE_AUTH, accountEndpoints, endpointUrl, type LoginUser } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiData, SERVICE_DATABASES, expectError, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { subAccount } from '../../test/projects.fixtures.ts';
import { bigFakePng, makeJpeg, makePdf, makePng, sendUpload } from '../../test/upload.fixtures.ts';

describe.each(SERVICE_DATABASES)('avatars, company logos and login backgrounds on %s', (kind) => {
  let h: Harness;
  let dataDir: string;
  let owner: string;
  const stored = () => readdirSync(join(dataDir, 'uploads', 'accounts'));
  const png = (data = makePng(64, 64)) => ({ name: 'me.png', type: 'image/png', data });
  const fileOf = (url: string | null) => url?.split('/').pop() ?? '';
  const fetch = (url: string) => h.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lumigrid-account-images-'));
    h = await startApp(kind, { DATA_DIR: dataDir });
    owner = await signUpByMail(h, 'pictures@example.com');
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores an avatar, serves it as the picture it is, and replaces it without leaving the old file', async () => {
    const first = await sendUpload(h.app, accountEndpoints.uploadAvatar, png(), { token: owner });
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    const user: LoginUser = first.body.data;
    expect(user.head_img).toMatch(/^\/api1\/user\/v1\/image\/[0-9a-f]{32}\.png$/);
    const served = await fetch(user.head_img!);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect((await apiData(h.app, accountEndpoints.profile, {}, { token: owner })).head_img).toBe(user.head_img);

    const second = await sendUpload(
      h.app,
      accountEndpoints.uploadAvatar,
      { name: 'me.jpg', type: 'image/jpeg', data: await makeJpeg(32, 32) },
      { token: owner },
    );
    expect(second.body.data.head_img).toMatch(/\.jpg$/);
    expect(stored()).toEqual([fileOf(second.body.data.head_img)]);
    expect((await fetch(user.head_img!)).statusCode).toBe(404);

    const removed = await apiData(h.app, accountEndpoints.removeAvatar, {}, { token: owner });
    expect(removed.head_img).toBeNull();
    expect(stored()).toEqual([]);
  });

  it('refuses what is not a whole png or jpeg, and what is over its size, changing nothing', async () => {
    const refused = [
      [{ name: 'plan.pdf', type: 'application/pdf', data: makePdf() }, 100013],
      [{ name: 'fake.png', type: 'image/png', data: Buffer.from('not a picture at all') }, 100013],
      [{ name: 'cut.png', type: 'image/png', data: makePng(64, 64).subarray(0, 60) }, 100013],
      [{ name: 'big.png', type: 'image/png', data: bigFakePng(ACCOUNT_IMAGES.avatar.maxBytes + 1) }, 100014],
    ] as const;
    for (const [file, code] of refused) expectError(await sendUpload(h.app, accountEndpoints.uploadAvatar, file, { token: owner }), code);
    // The background allows less than the logo: 800 KB.
    const between = bigFakePng(ACCOUNT_IMAGES.background.maxBytes + 1024);
    const background = await sendUpload(h.app, accountEndpoints.uploadBackground, png(between), { token: owner, lang: 'ja' });
    expectError(background, 100014, 'ja');
    expect(background.body.msg).toContain('800 KB');
    expectError(await sendUpload(h.app, accountEndpoints.uploadAvatar, { ...png(), field: 'other' }, { token: owner }), 100013);
    expect(existsSync(join(dataDir, 'uploads', 'accounts')) ? stored() : []).toEqual([]);
    expect((await apiData(h.app, accountEndpoints.profile, {}, { token: owner })).head_img).toBeNull();
  });

  it('shows the account’s logo and background to its sub-accounts, which cannot change them', async () => {
    const logo = await sendUpload(h.app, accountEndpoints.uploadLogo, png(makePng(750, 750)), { token: owner });
    const background = await sendUpload(h.app, accountEndpoints.uploadBackground, png(makePng(140, 90)), { token: owner });
    expect(logo.body.data.company_logo).toMatch(/\.png$/);
    expect(background.body.data.home_link).toMatch(/\.png$/);

    const editor = await subAccount(h, 'pictures@example.com', OPERATE_AUTH.editable);
    const seen = await apiData(h.app, accountEndpoints.profile, {}, { token: editor });
    expect(seen).toMatchObject({ company_logo: logo.body.data.company_logo, home_link: background.body.data.home_link, head_img: null });
    expectError(await sendUpload(h.app, accountEndpoints.uploadLogo, png(), { token: editor }), 110003);
    expectError(await api(h.app, accountEndpoints.removeBackground, {}, { token: editor }), 110003);
    // Its own avatar is its own.
    expect((await sendUpload(h.app, accountEndpoints.uploadAvatar, png(), { token: editor })).body.data.head_img).toMatch(/\.png$/);
    expect((await apiData(h.app, accountEndpoints.profile, {}, { token: owner })).head_img).toBeNull();

    expect((await apiData(h.app, accountEndpoints.removeLogo, {}, { token: owner })).company_logo).toBeNull();
    expect((await apiData(h.app, accountEndpoints.profile, {}, { token: editor })).company_logo).toBeNull();
  });

  it('answers 404 for a name it never gave, and 400 for one that is not a name it could give', async () => {
    expect((await fetch(endpointUrl(accountEndpoints.image, { params: { file: `${'a'.repeat(32)}.png` } }))).statusCode).toBe(404);
    expect((await fetch(endpointUrl(accountEndpoints.image, { params: { file: '../../etc/passwd' } }))).statusCode).toBe(400);
    expectError(await sendUpload(h.app, accountEndpoints.uploadAvatar, png()), 250004);
  });
});
