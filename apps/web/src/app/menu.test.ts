import { describe, expect, it } from 'vitest';
import { buildMenu, canOpen } from './menu.ts';

const paths = (entries: ReturnType<typeof buildMenu>): string[] =>
  entries.flatMap((entry) => [entry.path, ...(entry.children ? paths(entry.children) : [])]);

describe('side menu (spec section 6)', () => {
  it('gives the platform administrator the outbox', () => {
    expect(paths(buildMenu({ user_auth: 1, operate_auth: 0 }, 'saas'))).toContain('/system/outbox');
    expect(canOpen('/system/outbox', { user_auth: 1, operate_auth: 0 })).toBe(true);
  });

  it('keeps the outbox from accounts, even by URL', () => {
    expect(paths(buildMenu({ user_auth: 2, operate_auth: 0 }, 'saas'))).not.toContain('/system/outbox');
    expect(canOpen('/system/outbox', { user_auth: 2, operate_auth: 0 })).toBe(false);
  });

  it('hides the system menu from sub-accounts other than editable ones', () => {
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 3 }, 'saas'))).not.toContain('/system');
    expect(paths(buildMenu({ user_auth: 3, operate_auth: 2 }, 'saas'))).toContain('/system/center');
  });
});
