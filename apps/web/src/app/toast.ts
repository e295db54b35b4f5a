/** What a short message at the top of the window says, and how it looks. */
export type ToastKind = 'success' | 'error';

/**
 * Shows antd's message at the top of the window. antd loads with the first one, so the pages before
 * sign-in, which draw no antd, do not carry it; `key` replaces the message shown under the same key.
 */
export function toast(kind: ToastKind, content: string, key?: string): void {
  void import('./antd-toast.tsx').then(({ showToast }) => showToast(kind, content, key));
}

/**
 * Shows a dialog that stays open across pages until it is closed: a tab signed out by the server tells why on
 * the sign-in page it is sent to, where the signed-in shell and its dialogs are gone.
 */
export function notice(title: string, content: string): void {
  void import('./antd-toast.tsx').then(({ showNotice }) => showNotice(title, content));
}
