import type { StoredUser } from '@lumigrid/contract/browser';
import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useUserMay } from './use-user-may.ts';

const fake = vi.hoisted(() => ({ me: undefined as StoredUser | undefined }));
vi.mock('../features/auth/api.ts', () => ({ useMe: () => ({ data: fake.me }) }));

beforeEach(() => {
  fake.me = undefined;
});

describe('useUserMay', () => {
  it('grants nothing before the user is known', () => {
    expect(renderHook(() => useUserMay('read')).result.current).toBe(false);
  });

  it("answers from the signed-in user's role", () => {
    fake.me = { user_auth: 2, operate_auth: 0 };
    expect(renderHook(() => useUserMay('write')).result.current).toBe(true);
    expect(renderHook(() => useUserMay('admin')).result.current).toBe(false);
  });
});
