import { isLang, isPlatformAdmin, type Lang, type LoginUser, type Mode } from '@lumigrid/contract/browser';

/** The storage the session lives in; localStorage in the browser, a map in tests. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type LoginType = 'mail' | 'tel';

/** localStorage keys of the client session (spec section 3, "Client session"). */
export const SESSION_KEYS = {
  token: 'token',
  user: 'user',
  lang: 'lang',
  loginType: 'loginType',
  remember: 'remember',
  /** The remembered sign-in name, prefilled when "remember me" was ticked. Never the password. */
  account: 'account',
  logo: 'logo',
  mapPathList: 'mapPathList',
  imageUrl: 'imageUrl',
  /** The login background of the account last signed in here: its login page keeps showing it after sign-out. */
  loginBackground: 'loginBackground',
} as const;

/** What signing out removes; the language, login type and remembered account survive. */
export const SIGN_OUT_KEYS = [
  SESSION_KEYS.token,
  SESSION_KEYS.user,
  SESSION_KEYS.logo,
  SESSION_KEYS.mapPathList,
  SESSION_KEYS.imageUrl,
] as const;

function isLoginUser(value: unknown): value is LoginUser {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.account === 'string' && typeof v.user_auth === 'number';
}

/** Builds the session store over a storage; one instance per browser tab, fresh ones in tests. */
export function createSessionStore(storage: KeyValueStorage | undefined) {
  const listeners = new Set<() => void>();
  let version = 0;
  const changed = () => {
    version += 1;
    for (const listener of listeners) listener();
  };
  const get = (key: string) => {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const set = (key: string, value: string | null) => {
    try {
      if (value === null) storage?.removeItem(key);
      else storage?.setItem(key, value);
    } catch {
      // Private windows may refuse storage; the session then lasts as long as the page.
    }
  };

  /** The account's logo (gone at sign-out) and login background (kept for the next sign-in here). */
  const setPictures = (user: LoginUser) => {
    set(SESSION_KEYS.logo, user.company_logo ?? null);
    set(SESSION_KEYS.loginBackground, user.home_link ?? null);
  };

  return {
    /** Bumped on every change so React can subscribe with useSyncExternalStore. */
    version: () => version,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    token: () => get(SESSION_KEYS.token) || undefined,
    user(): LoginUser | undefined {
      const raw = get(SESSION_KEYS.user);
      if (!raw) return undefined;
      try {
        const parsed: unknown = JSON.parse(raw);
        return isLoginUser(parsed) ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    lang(): Lang | undefined {
      const raw = get(SESSION_KEYS.lang);
      return isLang(raw) ? raw : undefined;
    },
    loginType(): LoginType | undefined {
      const raw = get(SESSION_KEYS.loginType);
      return raw === 'mail' || raw === 'tel' ? raw : undefined;
    },
    remember: () => get(SESSION_KEYS.remember) === 'true',
    rememberedAccount: () => get(SESSION_KEYS.account) || undefined,
    loginBackground: () => get(SESSION_KEYS.loginBackground) || undefined,

    /** Stores a successful sign-in. */
    signIn(input: { token: string; user: LoginUser; loginType: LoginType; remember: boolean; account: string }) {
      set(SESSION_KEYS.token, input.token);
      set(SESSION_KEYS.user, JSON.stringify(input.user));
      set(SESSION_KEYS.loginType, input.loginType);
      set(SESSION_KEYS.remember, String(input.remember));
      set(SESSION_KEYS.account, input.remember ? input.account : null);
      setPictures(input.user);
      changed();
    },
    setUser(user: LoginUser) {
      set(SESSION_KEYS.user, JSON.stringify(user));
      setPictures(user);
      changed();
    },
    setLang(lang: Lang) {
      set(SESSION_KEYS.lang, lang);
      changed();
    },
    /** Drops the token alone, as when the server says the session ended. */
    dropToken() {
      if (get(SESSION_KEYS.token) === null) return;
      set(SESSION_KEYS.token, null);
      changed();
    },
    /** Sign-out: token, user, logo, map path list and image URL go (spec section 2). */
    clear() {
      for (const key of SIGN_OUT_KEYS) set(key, null);
      changed();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

function browserStorage(): KeyValueStorage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The session of this browser tab. */
export const session = createSessionStore(browserStorage());

/** The sign-in page for a mode: SaaS signs in by e-mail, server mode by local account (spec section 2). */
export function loginRouteFor(mode: Mode): string {
  return mode === 'server' ? '/user/tel-login' : '/user/login';
}

/** Where signing out lands: the phone login when the last sign-in was by phone, or in server mode. */
export function signOutRoute(mode: Mode, loginType: LoginType | undefined): string {
  return mode === 'server' || loginType === 'tel' ? '/user/tel-login' : '/user/login';
}

/** Where a sign-in lands: the platform administrator on the accounts it administers, everyone else at home. */
export function landingPath(user: Pick<LoginUser, 'user_auth'>): string {
  return isPlatformAdmin({ userAuth: user.user_auth }) ? '/system/account' : '/home';
}

/** Where "/" goes (spec section 2). */
export function rootRedirect(hasToken: boolean, mode: Mode): string {
  return hasToken ? '/home' : loginRouteFor(mode);
}

/** Whether a path is one of the public /user pages. */
export function isUserPath(pathname: string): boolean {
  return pathname === '/user' || pathname.startsWith('/user/');
}

/**
 * The guard of spec section 2: every page other than /user needs a token, else the phone login, which
 * remembers the page asked for so sign-in can return to it.
 */
export function guardRedirect(pathname: string, search: string, hasToken: boolean, loginPath: string): string | undefined {
  if (isUserPath(pathname) || hasToken) return undefined;
  const back = safeRedirect(pathname + search);
  return back ? `${loginPath}?redirect=${encodeURIComponent(back)}` : loginPath;
}

/** An internal path to return to after sign-in; anything else (other sites, the /user pages) is refused. */
export function safeRedirect(target: string | null | undefined): string | undefined {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return undefined;
  const pathname = target.split(/[?#]/)[0] ?? '';
  if (pathname === '/' || isUserPath(pathname)) return undefined;
  return target;
}

/**
 * The language after sign-in: a choice made on this device wins (and is saved to the account when it
 * differs); without one, the account's saved language applies.
 */
export function languageAfterLogin(deviceChoice: Lang | undefined, accountLang: Lang): { lang: Lang; saveToAccount: boolean } {
  if (deviceChoice) return { lang: deviceChoice, saveToAccount: deviceChoice !== accountLang };
  return { lang: accountLang, saveToAccount: false };
}
