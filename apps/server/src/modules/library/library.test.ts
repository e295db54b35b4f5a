import {
  DEVICE_TYPE_CODES as C,
  OPERATE_AUTH,
  libraryEndpoints as E,
  libraryTypesOf,
  type Lang,
  type LibraryTypeAddBody,
} from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_DATABASES, api, apiData, expectError, signUpByMail, startApp, type Harness } from '../../test/harness.ts';
import { subAccount } from '../../test/projects.fixtures.ts';
import { tenancyCase, uploadTenancyCase, tenancyMatrix, tenancyPrincipals, type Principal, type PrincipalKey } from '../../test/tenancy.ts';
import { bigFakePng, makeJpeg, makePdf, makePng, sendUpload } from '../../test/upload.fixtures.ts';

/** The first account's type: it may appear in no answer to the second account. */
const SECRET = 'Secret downlight';
const VICTIM = 'library-owner@example.com';
const INTRUDER = 'library-intruder@example.com';

const panel: LibraryTypeAddBody = {
  name: 'Panel 60 CCT',
  type: C['light-cct'],
  initialPower: 36,
  lifespan: 50000,
  partNumber: 'LG-P60-CCT',
};

type Ids = { type: string };

describe.each(SERVICE_DATABASES)('the device library on %s', (kind) => {
  let h: Harness;
  let owner: string;
  let intruder: string;
  let principals: Record<PrincipalKey, Principal>;
  let a: Ids;
  let b: Ids;
  const as = (token: string) => ({ token });

  beforeAll(async () => {
    h = await startApp(kind);
    owner = await signUpByMail(h, VICTIM);
    intruder = await signUpByMail(h, INTRUDER);
    principals = await tenancyPrincipals(h, { victim: VICTIM, victimToken: owner, intruder: INTRUDER });
    const secret = await apiData(h.app, E.add, { body: { ...panel, name: SECRET, partNumber: 'SEC-1' } }, as(owner));
    const own = await apiData(h.app, E.add, { body: { ...panel, name: 'Own', partNumber: 'OWN-1' } }, as(intruder));
    a = { type: secret.id };
    b = { type: own.id };
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('adds, lists under its code, updates and deletes a type', async () => {
    const added = await apiData(h.app, E.add, { body: { ...panel, name: '  Panel 60 CCT ', partNumber: ' lg-p60-cct ' } }, as(owner));
    expect(added).toMatchObject({
      name: 'Panel 60 CCT',
      partNumber: 'LG-P60-CCT',
      initialPower: 36,
      lifespan: 50000,
      icon: null,
      devices: 0,
    });

    const table = await apiData(h.app, E.typeTable, {}, as(owner));
    const cct = table.find((row) => row.code === C['light-cct'])!;
    expect(cct.families).toContain('colourTemperature');
    expect(cct.library.map((t) => t.name)).toEqual(['Panel 60 CCT', SECRET]);
    expect(table.find((row) => row.code === C['light-rgb'])!.library).toEqual([]);
    expect(libraryTypesOf(table).map((t) => t.id)).toContain(added.id);

    const changed = await apiData(
      h.app,
      E.update,
      {
        body: {
          id: added.id,
          ...panel,
          name: 'Panel 60 RGB',
          type: C['light-rgb'],
          initialPower: 0,
          lifespan: 100000,
          partNumber: 'LG-P60.RGB/2',
        },
      },
      as(owner),
    );
    expect(changed).toMatchObject({ type: C['light-rgb'], initialPower: 0, lifespan: 100000, partNumber: 'LG-P60.RGB/2' });
    expect(await apiData(h.app, E.remove, { query: { id: added.id } }, as(owner))).toBeNull();
    expect(libraryTypesOf(await apiData(h.app, E.typeTable, {}, as(owner))).map((t) => t.name)).toEqual([SECRET]);
  });

  it('answers every code of the library in the caller\u2019s language', async () => {
    const add = (body: Partial<LibraryTypeAddBody>, lang: Lang = 'en') =>
      api(h.app, E.add, { body: { ...panel, ...body } }, { token: owner, lang });
    const first = await apiData(h.app, E.add, { body: { ...panel, name: 'Downlight', partNumber: 'DL-120' } }, as(owner));
    expectError(await add({ name: 'Downlight', partNumber: 'DL-121' }, 'ja'), 270011, 'ja');
    expectError(await add({ name: 'Other', partNumber: 'dl-120' }, 'cn'), 270012, 'cn');
    for (const partNumber of ['AB', 'LG P60', '-LG60', 'LG60-', 'LG_60', 'X'.repeat(33), '品番1234']) {
      expectError(await add({ name: `Bad ${partNumber}`, partNumber }), 100601);
    }
    expectError(await add({ name: 'Bad', partNumber: 'AB' }, 'tc'), 100601, 'tc');
    expectError(await add({ name: 'Unknown', partNumber: 'UNK-1', type: 999 }), 100208);
    expectError(await add({ name: 'Too strong', partNumber: 'TS-1', initialPower: 10001 }), 100001);
    expectError(await add({ name: 'Short lived', partNumber: 'SL-1', lifespan: 9999 }), 100001);
    expectError(await add({ name: '', partNumber: 'NN-1' }), 100001);

    const second = await apiData(h.app, E.add, { body: { ...panel, name: 'Second', partNumber: 'SEC-2' } }, as(owner));
    const update = (body: Partial<LibraryTypeAddBody>) => api(h.app, E.update, { body: { ...panel, id: second.id, ...body } }, as(owner));
    expectError(await update({ name: 'Downlight', partNumber: 'SEC-2' }), 270011);
    expectError(await update({ name: 'Second', partNumber: 'DL-120' }), 270012);
    // Its own name and part number are no clash.
    expect((await update({ name: 'Second', partNumber: 'sec-2' })).body.code).toBe(0);
    expectError(await api(h.app, E.remove, { query: { id: '9999999999' } }, as(owner)), 110011);
    for (const id of [first.id, second.id]) await apiData(h.app, E.remove, { query: { id } }, as(owner));
  });

  it('keeps an icon with the checks of every picture', async () => {
    const type = await apiData(h.app, E.add, { body: { ...panel, name: 'With icon', partNumber: 'ICON-1' } }, as(owner));
    const upload = (data: Buffer, type$: string, lang?: string) =>
      sendUpload(h.app, E.uploadIcon, { name: 'icon', type: type$, data }, { token: owner, lang, fields: { id: type.id } });
    const png = await upload(makePng(64, 64), 'image/png');
    expect(png.body.code).toBe(0);
    const icon = png.body.data.icon!;
    expect(icon).toMatch(/^\/api4\/type\/v1\/icon\/[0-9a-f]{32}\.png$/);
    const served = await h.app.inject({ method: 'GET', url: icon });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    const jpeg = await upload(await makeJpeg(32, 32), 'image/jpeg');
    expect(jpeg.body.data.icon).toMatch(/\.jpg$/);
    // The icon before is gone with its replacement.
    expect((await h.app.inject({ method: 'GET', url: icon })).statusCode).toBe(404);

    expectError(await upload(makePdf(), 'application/pdf', 'ja'), 100013, 'ja');
    expectError(await upload(Buffer.from('not a picture'), 'image/png'), 100013);
    expectError(await upload(bigFakePng(1024 * 1024 + 1), 'image/png'), 100014);

    const removed = await apiData(h.app, E.removeIcon, { params: { id: type.id }, body: {} }, as(owner));
    expect(removed.icon).toBeNull();
    await apiData(h.app, E.remove, { query: { id: type.id } }, as(owner));
  });

  it('lets view-only and controllable users read the library and change none of it', async () => {
    for (const level of [OPERATE_AUTH.viewOnly, OPERATE_AUTH.controllable]) {
      const token = await subAccount(h, VICTIM, level);
      expect(libraryTypesOf(await apiData(h.app, E.typeTable, {}, as(token))).map((t) => t.name)).toEqual([SECRET]);
      expectError(await api(h.app, E.add, { body: { ...panel, partNumber: 'NO-1' } }, as(token)), 110003);
      expectError(await api(h.app, E.update, { body: { id: a.type, ...panel } }, as(token)), 110003);
      expectError(await api(h.app, E.remove, { query: { id: a.type } }, as(token)), 110003);
      expectError(await api(h.app, E.removeIcon, { params: { id: a.type }, body: {} }, as(token)), 110003);
    }
    // An editable sub-account (the one sub-account that sees the library menu) keeps the account's library,
    // even when limited to one project: the library belongs to the account.
    const editor = principals.sibling.token;
    const added = await apiData(h.app, E.add, { body: { ...panel, name: 'By the editor', partNumber: 'ED-1' } }, as(editor));
    expect(libraryTypesOf(await apiData(h.app, E.typeTable, {}, as(editor))).map((t) => t.name)).toEqual(['By the editor', SECRET]);
    await apiData(h.app, E.remove, { query: { id: added.id } }, as(editor));
  });

  it('shows each account only its own types', async () => {
    const theirs = libraryTypesOf(await apiData(h.app, E.typeTable, {}, as(intruder)));
    expect(theirs.map((t) => t.id)).toEqual([b.type]);
    // Names and part numbers are unique per account, not across accounts.
    const same = await apiData(h.app, E.add, { body: { ...panel, name: SECRET, partNumber: 'SEC-1' } }, as(intruder));
    await apiData(h.app, E.remove, { query: { id: same.id } }, as(intruder));
  });

  tenancyMatrix<Ids>({
    domain: E,
    cases: [
      tenancyCase(E.update, (a$) => ({ body: { id: a$.type, ...panel, name: 'Mine now', partNumber: 'MINE-1' } })),
      tenancyCase(E.remove, (a$) => ({ query: { id: a$.type } })),
      tenancyCase(E.removeIcon, (a$) => ({ params: { id: a$.type }, body: {} })),
      uploadTenancyCase(E.uploadIcon, (a$) => ({ id: a$.type })),
    ],
    // The table and a new type take no id of another account; the list shows only the caller's (above), and
    // icons are served by unguessable names.
    withoutIds: [E.typeTable, E.add, E.icon],
    secrets: [SECRET],
    // The library is the account's, not a project's: a sub-account limited to another project edits it as
    // any editable user of the account does (below), so the project-limited principal is another account's here.
    world: () => ({ app: h.app, intruder, a, b, principals: { ...principals, sibling: principals.intruderEditable } }),
  });
});
