import { describe, expect, it } from 'vitest';
import {
  ERRORS,
  LANGS,
  brandingFor,
  canEditOwnInfo,
  canSeeAdministrators,
  canSeePush,
  userMay,
  companyDefaultConfig,
  errorMessage,
  isMail,
  isPhone,
  langFromAcceptLanguage,
  maskPhone,
  normaliseHost,
  passwordProblem,
  systemMenuScope,
  weightedLength,
} from './index.ts';

describe('error catalogue', () => {
  it('has a non-empty message in every language and a client-error or session status for every code', () => {
    const codes = Object.keys(ERRORS).map(Number);
    // Every code of spec section 8 is present.
    for (const code of [
      110003, 110007, 110009, 110011, 240002, 240003, 240004, 240101, 250001, 250002, 250003, 250004, 250008, 250013, 250018, 250019,
      250020, 260007, 260013, 260021, 260022, 270006, 270010, 270011, 270012, 280001, 280003, 280004, 280005, 280007, 280009, 280010,
      280011, 310002, 320003, 340001, 300006, 300007, 300008,
    ]) {
      expect(codes).toContain(code);
    }
    for (const [code, entry] of Object.entries(ERRORS)) {
      for (const lang of LANGS) expect(entry[lang].trim(), `${code} ${lang}`).not.toBe('');
      expect([400, 401, 403, 404, 409, 413, 429, 500, 502, 503, 504], code).toContain(entry.status);
    }
    // 403 means an ended session to the web client (spec section 7), so only session-ending codes use it.
    const forbidden = Object.entries(ERRORS)
      .filter(([, e]) => e.status === 403)
      .map(([c]) => Number(c));
    expect(forbidden.sort()).toEqual([100009, 250018, 250019, 250020]);
  });

  it('speaks each language in its own script', () => {
    expect(errorMessage(250003, 'en')).toBe('Wrong password');
    expect(errorMessage(250003, 'cn')).toBe('密码错误');
    expect(errorMessage(250003, 'tc')).toBe('密碼錯誤');
    expect(errorMessage(250003, 'ja')).toMatch(/パスワード/);
  });
});

describe('languages', () => {
  it.each([
    ['ja-JP,ja;q=0.9,en;q=0.8', 'ja'],
    ['zh-CN,zh;q=0.9', 'cn'],
    ['zh-TW', 'tc'],
    ['zh-Hant-HK', 'tc'],
    ['fr-FR,en;q=0.5', 'en'],
    ['en;q=0.1,ja;q=0.9', 'ja'],
    ['tc', 'tc'],
  ])('%s -> %s', (header, lang) => expect(langFromAcceptLanguage(header)).toBe(lang));

  it('answers undefined when nothing matches', () => {
    expect(langFromAcceptLanguage('fr, de;q=0.8')).toBeUndefined();
    expect(langFromAcceptLanguage(undefined)).toBeUndefined();
  });
});

describe('input rules of spec section 5', () => {
  it('counts a Chinese character as three', () => {
    expect(weightedLength('abc')).toBe(3);
    expect(weightedLength('照明')).toBe(6);
    expect(weightedLength('A照')).toBe(4);
  });

  it('wants 8-32 characters with upper, lower and a digit and no spaces for new passwords', () => {
    expect(passwordProblem('Good-Pass1')).toBeUndefined();
    expect(passwordProblem('Sh0rt')).toBe('length');
    expect(passwordProblem(`Aa1${'x'.repeat(30)}`)).toBe('length');
    expect(passwordProblem('alllower1')).toBe('weak');
    expect(passwordProblem('ALLUPPER1')).toBe('weak');
    expect(passwordProblem('NoDigitsAtAll')).toBe('weak');
    expect(passwordProblem('Has Space1')).toBe('spaces');
  });

  it('checks mail and phone formats', () => {
    expect(isMail('a@b.co')).toBe(true);
    expect(isMail('not-a-mail')).toBe(false);
    expect(isMail(`${'a'.repeat(45)}@b.com`)).toBe(false); // 51 characters
    expect(isPhone('13800138000')).toBe(true);
    expect(isPhone('+81312345678')).toBe(true);
    expect(isPhone('12-34')).toBe(false);
  });

  it('masks phones to the first three and last four digits', () => {
    expect(maskPhone('13800138000')).toBe('138****8000');
    expect(maskPhone('+81312345678')).toBe('+81*****5678');
    expect(maskPhone(null)).toBe('');
  });
});

describe('what a user may do, by the one access rule', () => {
  const u = (user_auth: number, operate_auth: number) => ({ user_auth, operate_auth });
  it('lets owners and editable users change, controllable users also operate, view-only users only read', () => {
    const levels = ['write', 'control', 'read'] as const;
    const rows = [0, 2, 3, 4].map((operate) => levels.map((level) => userMay(u(3, operate), level)));
    expect(rows).toEqual([
      [true, true, true],
      [true, true, true],
      [false, true, true],
      [false, false, true],
    ]);
  });
  it('gives nobody signed in nothing, and the administrator pages only to user_auth 1', () => {
    expect(userMay(undefined, 'read')).toBe(false);
    expect(userMay(u(2, 0), 'admin')).toBe(false);
    expect(userMay(u(1, 0), 'admin')).toBe(true);
  });
});

describe('menu rules of spec section 6', () => {
  const u = (user_auth: number, operate_auth: number) => ({ user_auth, operate_auth });
  it('shows Push only to owners in SaaS mode', () => {
    expect(canSeePush(u(2, 0), 'saas')).toBe(true);
    expect(canSeePush(u(2, 0), 'server')).toBe(false);
    expect(canSeePush(u(2, 2), 'saas')).toBe(false);
  });
  it("hides Push from the demo account unless it holds the push permission (an operator's feature)", () => {
    expect(canSeePush({ ...u(2, 0), demo: true }, 'saas')).toBe(false);
    expect(canSeePush({ ...u(2, 0), demo: true, push_auth: true }, 'saas')).toBe(true);
    expect(canSeePush({ ...u(2, 0), demo: false }, 'saas')).toBe(true);
  });
  it('limits the system menu of sub-accounts', () => {
    expect(systemMenuScope(u(2, 3))).toBe('all');
    expect(systemMenuScope(u(3, 2))).toBe('libraryAndCentre');
    expect(systemMenuScope(u(3, 3))).toBe('none');
    expect(systemMenuScope(u(3, 4))).toBe('none');
  });
  it('keeps the administrators tab for user_auth 1 and own-info editing off for limited sub-accounts', () => {
    expect(canSeeAdministrators(u(1, 0))).toBe(true);
    expect(canSeeAdministrators(u(2, 0))).toBe(false);
    expect(canEditOwnInfo(u(3, 3), 'saas')).toBe(false);
    expect(canEditOwnInfo(u(3, 2), 'saas')).toBe(true);
    expect(canEditOwnInfo(u(2, 0), 'server')).toBe(false);
  });
});

describe('branding', () => {
  it('drops a leading www. and the port from host names', () => {
    expect(normaliseHost('www.Lights.example.com:8080')).toBe('lights.example.com');
    expect(normaliseHost('wwwx.example.com')).toBe('wwwx.example.com');
  });
  it('takes a language block over the top-level fields', () => {
    const config = { ...companyDefaultConfig('lumigrid'), name: 'Lights', ja: { name: 'ライト' } };
    expect(brandingFor(config, 'ja').name).toBe('ライト');
    expect(brandingFor(config, 'en').name).toBe('Lights');
  });
  it('has a Japanese-speaking company', () => {
    expect(companyDefaultConfig('lumigrid-jp').language).toBe('ja');
    expect(companyDefaultConfig('lumigrid').language).toBe('en');
  });
});
