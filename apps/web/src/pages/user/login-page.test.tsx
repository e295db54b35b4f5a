import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Lang } from '@lumigrid/contract/browser';
import { ApiError } from '../../api/client.ts';
import ja from '../../i18n/ja.json';
import { renderInApp } from '../../test/render.tsx';
import LoginPage from './login-page.tsx';

const fake = vi.hoisted(() => ({
  logins: [] as unknown[],
  answer: undefined as undefined | (() => Promise<unknown>),
  captchaFetches: 0,
  signedIn: [] as unknown[],
  mode: 'saas' as 'saas' | 'server',
}));

vi.mock('../../app/boot.tsx', () => ({
  useBoot: () => ({ mode: fake.mode, info: { signUp: true }, branding: { loginMode: 'all' }, lang: 'en' }),
}));
vi.mock('../../features/auth/api.ts', () => ({
  useLogin: () => ({
    isPending: false,
    mutateAsync: async (body: unknown) => {
      fake.logins.push(body);
      return fake.answer ? fake.answer() : undefined;
    },
  }),
  useCaptcha: (_purpose: string, enabled: boolean) => {
    if (enabled) fake.captchaFetches++;
    return {
      data: enabled ? { captchaId: 'cap-1', image: 'data:image/png;base64,AAAA' } : undefined,
      isFetching: false,
      refetch: async () => undefined,
    };
  },
}));
vi.mock('./use-signed-in.ts', () => ({ useSignedIn: () => (result: unknown, kept: unknown) => fake.signedIn.push({ result, kept }) }));
vi.mock('./use-compact.ts', () => ({ useCompact: () => false }));

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

async function open(path = '/user/login', lang: Lang = 'en') {
  return renderInApp(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/user/login" element={<LoginPage method="mail" />} />
        <Route path="/user/tel-login" element={<LoginPage method="tel" />} />
      </Routes>
      <Where />
    </MemoryRouter>,
    { lang },
  );
}

const submit = () => screen.getByRole('button', { name: 'Sign in' });

beforeEach(() => {
  fake.logins = [];
  fake.answer = undefined;
  fake.captchaFetches = 0;
  fake.signedIn = [];
  fake.mode = 'saas';
  localStorage.clear();
});

describe('the sign-in drawn without antd', () => {
  it('sends nothing while a field is empty, and announces each problem tied to its field', async () => {
    const { user } = await open();
    await user.click(submit());
    const mail = screen.getByRole('textbox', { name: 'E-mail address' });
    const password = screen.getByLabelText('Password');
    expect(mail.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(mail.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Enter your e-mail address');
    expect(document.getElementById(password.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Enter the password');
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Enter your e-mail address', 'Enter the password']);
    expect(fake.logins).toEqual([]);
  });

  it('checks a filled field on leaving it, takes the problem away while typing, and says nothing of fields tabbed through', async () => {
    const { user } = await open();
    const mail = screen.getByRole('textbox', { name: 'E-mail address' });
    await user.click(mail);
    await user.tab();
    await user.tab();
    expect(screen.queryAllByRole('alert')).toEqual([]);
    await user.type(mail, 'ann@');
    await user.tab();
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid e-mail address of at most 50 characters');
    await user.type(mail, 'x');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(mail.hasAttribute('aria-invalid')).toBe(false);
  });

  it('shows a field emptied by typing as required at once', async () => {
    const { user } = await open();
    const mail = screen.getByRole('textbox', { name: 'E-mail address' });
    await user.type(mail, 'a');
    await user.clear(mail);
    expect(screen.getByRole('alert').textContent).toBe('Enter your e-mail address');
  });

  it('says its problems in the chosen language', async () => {
    const { user } = await open('/user/login', 'ja');
    await user.click(screen.getByRole('button', { name: ja.login.submit }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      ja.validation.mailRequired,
      ja.validation.passwordRequired,
    ]);
  });

  it('signs in with Enter, the account trimmed and the remember choice sent', async () => {
    fake.answer = async () => ({ access_token: 't', user: { id: '1' } });
    const { user } = await open();
    await user.type(screen.getByRole('textbox', { name: 'E-mail address' }), '  ann@example.com ');
    await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await user.type(screen.getByLabelText('Password'), 'Lights-On-2026{Enter}');
    await waitFor(() => expect(fake.signedIn).toHaveLength(1));
    expect(fake.logins).toEqual([{ account: 'ann@example.com', password: 'Lights-On-2026', remember: true }]);
    expect(fake.signedIn[0]).toMatchObject({ kept: { loginType: 'mail', remember: true, account: 'ann@example.com' } });
  });

  it('asks for the picture code once the server wants it, and sends it with the next try', async () => {
    fake.answer = async () => {
      throw new ApiError({ kind: 'business', code: 100021, message: 'Too many failed sign-ins' }, 'Too many failed sign-ins');
    };
    const { user } = await open();
    expect(screen.queryByPlaceholderText('Picture code')).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'E-mail address' }), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'Lights-On-2026');
    await user.click(submit());
    const code = await screen.findByPlaceholderText('Picture code');
    expect(fake.captchaFetches).toBeGreaterThan(0);
    await user.click(submit());
    expect(screen.getByRole('alert').textContent).toBe('Enter the characters in the picture');
    expect(fake.logins).toHaveLength(1);
    await user.type(code, ' AB12 ');
    await user.click(submit());
    await waitFor(() => expect(fake.logins).toHaveLength(2));
    expect(fake.logins[1]).toMatchObject({ captchaId: 'cap-1', captcha: 'AB12' });
  });

  it('switches to the phone sign-in with the arrow keys on the tabs, and checks a phone number there', async () => {
    const { user } = await open();
    const mailTab = screen.getByRole('tab', { name: 'E-mail' });
    expect(mailTab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Phone' }).tabIndex).toBe(-1);
    mailTab.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByTestId('where').textContent).toBe('/user/tel-login');
    expect(screen.getByRole('tab', { name: 'Phone' }).getAttribute('aria-selected')).toBe('true');
    await user.click(submit());
    expect(screen.getAllByRole('alert')[0]?.textContent).toBe('Enter your phone number');
  });

  it('shows and hides the password with a named button', async () => {
    const { user } = await open();
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('asks for the local account in server mode, without tabs or sign-up', async () => {
    fake.mode = 'server';
    const { user } = await open('/user/tel-login');
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign up' })).toBeNull();
    await user.click(submit());
    expect(screen.getAllByRole('alert')[0]?.textContent).toBe('Enter your account');
  });
});
