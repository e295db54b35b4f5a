import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../../test/render.tsx';
import RegisterPage from './register-page.tsx';

const fake = vi.hoisted(() => ({ sent: [] as unknown[], registered: [] as unknown[] }));

vi.mock('../../app/boot.tsx', () => ({
  useBoot: () => ({ mode: 'saas', info: { signUp: true }, branding: { loginMode: 'all' }, lang: 'en' }),
}));
vi.mock('../../app/toast.ts', () => ({ toast: () => undefined }));
vi.mock('../../features/auth/api.ts', () => {
  const mutation = (into: 'sent' | 'registered', answer: unknown) => () => ({
    isPending: false,
    mutateAsync: async (body: unknown) => {
      fake[into].push(body);
      return answer;
    },
  });
  return {
    useSendCode: mutation('sent', null),
    useRegisterMail: mutation('registered', { account: 'ann@example.com' }),
    useRegisterPhone: mutation('registered', { account: '+8613800000000' }),
    useCaptcha: () => ({
      data: { captchaId: 'cap-9', image: 'data:image/png;base64,AAAA' },
      isFetching: false,
      refetch: async () => undefined,
    }),
  };
});
vi.mock('./use-compact.ts', () => ({ useCompact: () => false }));

const open = () =>
  renderInApp(
    <MemoryRouter initialEntries={['/user/registered']}>
      <RegisterPage method="mail" />
    </MemoryRouter>,
  );
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

beforeEach(() => {
  fake.sent = [];
  fake.registered = [];
});

describe('the sign-up drawn without antd', () => {
  it('names every missing field when sent empty, but not the optional ones', async () => {
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(alerts()).toEqual([
      'Enter your e-mail address',
      'Enter the verification code',
      'Enter the password',
      'Enter the password again',
    ]);
    expect(fake.registered).toEqual([]);
  });

  it('sends a code only for a valid address and a typed picture code, with the picture id', async () => {
    const { user } = await open();
    const send = screen.getByRole('button', { name: 'Send code' });
    await user.click(send);
    expect(alerts()).toEqual(['Enter your e-mail address']);
    await user.type(screen.getByRole('textbox', { name: 'E-mail address' }), 'ann@example.com');
    await user.click(send);
    expect(alerts()).toEqual(['Enter the characters in the picture']);
    await user.type(screen.getByRole('textbox', { name: 'Picture code' }), 'AB12');
    await user.click(send);
    await waitFor(() =>
      expect(fake.sent).toEqual([{ target: 'ann@example.com', purpose: 'register', captchaId: 'cap-9', captcha: 'AB12' }]),
    );
    await screen.findByRole('button', { name: /Resend in \d+ s/ });
  });

  it('checks the confirmation again when the password changes, and signs up once they match', async () => {
    const { user } = await open();
    await user.type(screen.getByRole('textbox', { name: 'E-mail address' }), 'ann@example.com');
    await user.type(screen.getByRole('textbox', { name: 'Verification code' }), '123456');
    await user.type(screen.getByLabelText('Password'), 'Lights-On-2026');
    await user.type(screen.getByLabelText('Confirm password'), 'Lights-On-2026');
    await user.type(screen.getByLabelText('Password'), '7');
    expect(alerts()).toEqual(['The two passwords do not match']);
    await user.type(screen.getByLabelText('Confirm password'), '7');
    await user.type(screen.getByRole('textbox', { name: 'Your name (optional)' }), ' Ann ');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(fake.registered).toHaveLength(1));
    expect(fake.registered[0]).toMatchObject({
      mail: 'ann@example.com',
      code: '123456',
      password: 'Lights-On-20267',
      name: 'Ann',
      lang: 'en',
    });
  });
});
