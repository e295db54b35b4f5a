import type { SsoSettings, SsoSettingsBody } from '@lumigrid/contract/browser';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import SsoSettingsPage from './sso-settings-page.tsx';

const fake = vi.hoisted(() => ({ settings: undefined as unknown, saved: [] as unknown[] }));

vi.mock('../../features/sso/api.ts', () => ({
  useSsoSettings: () => ({ data: fake.settings }),
  useSaveSsoSettings: () => ({
    isPending: false,
    mutateAsync: async (body: SsoSettingsBody) => {
      fake.saved.push(body);
      return fake.settings;
    },
  }),
}));

const KEPT: SsoSettings = {
  configured: true,
  enabled: true,
  issuer: 'https://login.acme.test/realms/acme',
  clientId: 'lumigrid',
  clientSecretSet: true,
  claim: 'email',
  domain: 'acme.test',
  defaultOperateAuth: 3,
  localSignInOff: false,
  redirectUri: 'https://lumigrid.acme.test/user/sso/callback',
};

beforeEach(() => {
  fake.settings = KEPT;
  fake.saved = [];
});

describe('SsoSettingsPage', () => {
  it('shows the redirect URI to register and keeps the secret it never shows when left empty', async () => {
    await renderInApp(<SsoSettingsPage />);
    expect(screen.getByTestId('sso-redirect-uri').textContent).toContain(KEPT.redirectUri);
    expect((screen.getByTestId('sso-client-secret') as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByTestId('sso-local-off'));
    fireEvent.click(screen.getByTestId('sso-save'));
    await waitFor(() => expect(fake.saved).toHaveLength(1));
    const body = fake.saved[0] as SsoSettingsBody;
    expect(body).toMatchObject({ issuer: KEPT.issuer, domain: 'acme.test', defaultOperateAuth: 3, localSignInOff: true });
    expect('clientSecret' in body).toBe(false);
  });

  it('asks for the client secret the first time', async () => {
    fake.settings = { ...KEPT, configured: false, enabled: false, issuer: '', clientId: '', clientSecretSet: false, domain: '' };
    await renderInApp(<SsoSettingsPage />);
    fireEvent.change(screen.getByTestId('sso-issuer'), { target: { value: 'https://login.acme.test' } });
    fireEvent.change(screen.getByTestId('sso-client-id'), { target: { value: 'lumigrid' } });
    fireEvent.change(screen.getByTestId('sso-domain-setting'), { target: { value: 'acme.test' } });
    fireEvent.click(screen.getByTestId('sso-save'));
    // antd validates every field before it shows the messages: on a busy machine that takes more than a second.
    await screen.findByText('Enter the client secret', {}, { timeout: 10_000 });
    expect(fake.saved).toHaveLength(0);
  });
});
