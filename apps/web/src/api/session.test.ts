import { describe, expect, it } from 'vitest';
import type { LoginUser } from '@lumigrid/contract/browser';
import {
  createSessionStore,
  guardRedirect,
  landingPath,
  languageAfterLogin,
  rootRedirect,
  safeRedirect,
  signOutRoute,
  type KeyValueStorage,
} from './session.ts';

function memoryStorage(): KeyValueStorage & { keys(): string[] } {
  const data = new Map<string, string>();
  return {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
    keys: () => [...data.keys()].sort(),
  };
}

const user = { id: '1', account: 'ann@example.com', user_auth: 2, operate_auth: 0 } as unknown as LoginUser;

describe('session store', () => {
  it('sign-out removes the token, user, logo and map paths but keeps language and remembered account', () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    store.setLang('ja');
    store.signIn({ token: 't0k', user, loginType: 'mail', remember: true, account: 'ann@example.com' });
    storage.setItem('mapPathList', '[]');
    storage.setItem('logo', 'x.svg');
    expect(store.token()).toBe('t0k');
    expect(store.user()?.account).toBe('ann@example.com');
    store.clear();
    expect(store.token()).toBeUndefined();
    expect(store.user()).toBeUndefined();
    expect(storage.keys()).toEqual(['account', 'lang', 'loginType', 'remember']);
    expect(store.rememberedAccount()).toBe('ann@example.com');
  });

  it('keeps the account’s login background for the next sign-in here, and forgets its logo at sign-out', () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    const branded = { ...user, company_logo: '/api1/user/v1/image/logo.png', home_link: '/api1/user/v1/image/bg.jpg' };
    store.signIn({ token: 't', user: branded, loginType: 'mail', remember: false, account: 'ann@example.com' });
    expect(storage.getItem('logo')).toBe(branded.company_logo);
    store.clear();
    expect(storage.getItem('logo')).toBeNull();
    expect(store.loginBackground()).toBe(branded.home_link);
    // An account without one shows the brand's background again.
    store.signIn({ token: 't', user, loginType: 'mail', remember: false, account: 'ann@example.com' });
    expect(store.loginBackground()).toBeUndefined();
  });

  it('does not remember the account unless asked, and ignores a corrupt stored user', () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    store.signIn({ token: 't', user, loginType: 'tel', remember: false, account: '13800000000' });
    expect(store.rememberedAccount()).toBeUndefined();
    storage.setItem('user', '{not json');
    expect(store.user()).toBeUndefined();
    storage.setItem('lang', 'fr');
    expect(store.lang()).toBeUndefined();
  });

  it('notifies subscribers on every change', () => {
    const store = createSessionStore(memoryStorage());
    let calls = 0;
    const unsubscribe = store.subscribe(() => (calls += 1));
    store.setLang('cn');
    store.dropToken(); // nothing to drop: no notice
    unsubscribe();
    store.setLang('en');
    expect(calls).toBe(1);
  });
});

describe('routing rules of spec section 2', () => {
  it('guards every page but /user, remembering where the user wanted to go', () => {
    expect(guardRedirect('/home', '', false, '/user/login')).toBe('/user/login?redirect=%2Fhome');
    expect(guardRedirect('/system/center', '?tab=1', false, '/user/tel-login')).toBe(
      '/user/tel-login?redirect=%2Fsystem%2Fcenter%3Ftab%3D1',
    );
    expect(guardRedirect('/user/login', '', false, '/user/login')).toBeUndefined();
    expect(guardRedirect('/home', '', true, '/user/login')).toBeUndefined();
  });

  it('refuses redirects to other sites or back to the sign-in pages', () => {
    expect(safeRedirect('//evil.example.com')).toBeUndefined();
    expect(safeRedirect('https://evil.example.com')).toBeUndefined();
    expect(safeRedirect('/\\evil')).toBeUndefined();
    expect(safeRedirect('/user/login')).toBeUndefined();
    expect(safeRedirect('/home?x=1')).toBe('/home?x=1');
  });

  it('lands the platform administrator on the accounts, everyone else at home', () => {
    expect(landingPath({ user_auth: 1 })).toBe('/system/account');
    expect(landingPath({ user_auth: 2 })).toBe('/home');
    expect(landingPath({ user_auth: 3 })).toBe('/home');
  });

  it('lands by mode and by the last login type', () => {
    expect(rootRedirect(true, 'saas')).toBe('/home');
    expect(rootRedirect(false, 'saas')).toBe('/user/login');
    expect(rootRedirect(false, 'server')).toBe('/user/tel-login');
    expect(signOutRoute('saas', 'tel')).toBe('/user/tel-login');
    expect(signOutRoute('saas', 'mail')).toBe('/user/login');
    expect(signOutRoute('server', 'mail')).toBe('/user/tel-login');
  });

  it('a language chosen on this device wins and is saved to the account', () => {
    expect(languageAfterLogin('ja', 'en')).toEqual({ lang: 'ja', saveToAccount: true });
    expect(languageAfterLogin('en', 'en')).toEqual({ lang: 'en', saveToAccount: false });
    expect(languageAfterLogin(undefined, 'tc')).toEqual({ lang: 'tc', saveToAccount: false });
  });
});
