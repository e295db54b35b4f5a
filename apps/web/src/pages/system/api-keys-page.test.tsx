import type { ApiKey, ApiKeyCreateBody, ApiKeyCreated } from '@lumigrid/contract/browser';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import ApiKeysPage from './api-keys-page.tsx';

const fake = vi.hoisted(() => ({
  list: [] as unknown[],
  created: [] as unknown[],
  revoked: [] as string[],
  me: { user_auth: 3, operate_auth: 3 },
}));

vi.mock('../../features/api-keys/api.ts', () => ({
  useApiKeys: () => ({ data: fake.list, isFetching: false, refetch: async () => undefined }),
  useCreateApiKey: () => ({
    isPending: false,
    mutateAsync: async (body: ApiKeyCreateBody): Promise<ApiKeyCreated> => {
      fake.created.push(body);
      return { ...key('9', { name: body.name, scope: body.scope }), secret: 'lg_9_' + 'S'.repeat(43) };
    },
  }),
  useRevokeApiKey: () => ({
    mutateAsync: async (id: string) => {
      fake.revoked.push(id);
      return null;
    },
  }),
}));
vi.mock('../../features/auth/api.ts', () => ({ useMe: () => ({ data: fake.me }) }));
vi.mock('../../features/projects/api.ts', () => ({
  WHOLE_TREE: '0',
  useProjectTree: () => ({ data: { projects: [{ id: '11', name: 'Harbour' }] } }),
}));

function key(id: string, over: Partial<ApiKey> = {}): ApiKey {
  return {
    id,
    name: `Key ${id}`,
    scope: 'read',
    projectIds: null,
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: '2026-11-23T08:00:00.000Z',
    userId: '7',
    userName: 'Site Owner',
    lastUsedAt: null,
    lastUsedIp: null,
    revokedAt: null,
    prefix: `lg_${id}_`,
    ...over,
  };
}

beforeEach(() => {
  fake.list = [];
  fake.created = [];
  fake.revoked = [];
  fake.me = { user_auth: 3, operate_auth: 3 };
});

describe('ApiKeysPage', () => {
  it('lists each key with its scope, projects, last use and status', async () => {
    fake.list = [
      key('1', { scope: 'control', projectIds: ['11'], lastUsedAt: '2026-11-23T09:00:00.000Z', lastUsedIp: '10.9.8.7' }),
      key('2', { revokedAt: '2026-11-23T10:00:00.000Z' }),
    ];
    await renderInApp(<ApiKeysPage />);
    const first = screen.getByTestId('api-key-row-1');
    expect(within(first).getByText('Control')).toBeTruthy();
    expect(within(first).getByText('Harbour')).toBeTruthy();
    expect(screen.getByTestId('api-key-last-used-1').textContent).toContain('10.9.8.7');
    expect(screen.getByTestId('api-key-last-used-2').textContent).toBe('Never');
    expect(screen.getByTestId('api-key-status-1').textContent).toBe('Active');
    expect(screen.getByTestId('api-key-status-2').textContent).toBe('Revoked');
    // A revoked key has nothing left to revoke.
    expect(screen.queryByTestId('api-key-revoke-2')).toBeNull();
  });

  it('offers only the scopes the user holds', async () => {
    const { user } = await renderInApp(<ApiKeysPage />);
    await user.click(screen.getByTestId('api-key-create'));
    // antd opens a select on mouse down; one event instead of a whole pointer sequence keeps the test quick.
    fireEvent.mouseDown(within(await screen.findByTestId('api-key-scope')).getByRole('combobox'));
    // antd names each option by its value for assistive technology and draws its label beside it.
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).toEqual(['read', 'control']);
    expect(screen.getAllByText('Control — also switch, dim and run scenes').length).toBeGreaterThan(0);
    expect(screen.queryByText('Edit — also change the installation')).toBeNull();
  });

  it('shows the new secret once, with a copy button, until the dialog closes', async () => {
    const { user } = await renderInApp(<ApiKeysPage />);
    await user.click(screen.getByTestId('api-key-create'));
    // One change event rather than a keystroke each: the test is about the secret, not typing.
    fireEvent.change(await screen.findByTestId('api-key-name'), { target: { value: 'Building management' } });
    await user.click(screen.getByTestId('api-key-submit'));
    const secret = await screen.findByTestId('api-key-secret');
    expect(secret.textContent).toContain('lg_9_' + 'S'.repeat(43));
    expect(within(secret).getByRole('button', { name: /copy/i })).toBeTruthy();
    expect(fake.created).toEqual([
      { name: 'Building management', scope: 'read', projectIds: null, expiresAt: expect.any(String) as string },
    ]);
    await user.click(screen.getByTestId('api-key-done'));
    await waitFor(() => expect(screen.queryByTestId('api-key-secret')).toBeNull());
  });

  it('revokes a key after confirmation', async () => {
    fake.list = [key('1')];
    const { user } = await renderInApp(<ApiKeysPage />);
    await user.click(screen.getByTestId('api-key-revoke-1'));
    expect(fake.revoked).toEqual([]);
    await user.click(await screen.findByTestId('api-key-revoke-ok'));
    await waitFor(() => expect(fake.revoked).toEqual(['1']));
  });
});
