/** What a short message at the top of the window says, and how it looks. */
export type ToastKind = 'success' | 'error';

/**
 * Shows antd's message at the top of the window. antd loads with the first one, so the pages before
 * sign-in, which draw no antd, do not carry it; `key` replaces the message shown under the same key.
 */
export function toast(kind: ToastKind, content: string, key?: string): void {
  void import('./antd-toast.tsx').then(({ showToast }) => showToast(kind, content, key));
}
