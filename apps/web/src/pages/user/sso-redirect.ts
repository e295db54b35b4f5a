import { safeRedirect } from '../../api/session.ts';

const KEY = 'ssoRedirect';

/** Keeps, for this tab, the page the guard sent the user from while the provider has the browser. */
export function rememberSsoRedirect(target: string | null): void {
  try {
    const safe = safeRedirect(target);
    if (safe) sessionStorage.setItem(KEY, safe);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Without storage the user lands on the home page.
  }
}

/** The page kept before the provider's sign-in, once. */
export function takeSsoRedirect(): string | null {
  try {
    const target = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return target;
  } catch {
    return null;
  }
}
