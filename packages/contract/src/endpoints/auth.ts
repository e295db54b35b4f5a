import { endpoint } from '../endpoint.ts';
import { EmptySchema } from '../common.ts';
import {
  CaptchaSchema,
  LoginBodySchema,
  LoginResultSchema,
  RegisterMailBodySchema,
  RegisterPhoneBodySchema,
  RegisteredSchema,
  ResetPasswordBodySchema,
  SendCodeBodySchema,
} from '../auth.ts';

/** Sign-up, sign-in, verification codes, the captcha and sign-out. */
export const authEndpoints = {
  captcha: endpoint({
    method: 'GET',
    path: '/api1/user/v1/captcha',
    tags: ['auth'],
    summary: 'A new graphic captcha',
    access: 'public',
    response: CaptchaSchema,
  }),
  sendCode: endpoint({
    method: 'POST',
    path: '/api1/user/v1/send_code',
    tags: ['auth'],
    summary: 'Send a verification code by mail or text message',
    access: 'public',
    body: SendCodeBodySchema,
    response: EmptySchema,
  }),
  registerByMail: endpoint({
    method: 'POST',
    path: '/api1/user/v1/register/mail',
    tags: ['auth'],
    summary: 'Sign up by e-mail',
    access: 'public',
    body: RegisterMailBodySchema,
    response: RegisteredSchema,
  }),
  registerByPhone: endpoint({
    method: 'POST',
    path: '/api1/user/v1/register/tel',
    tags: ['auth'],
    summary: 'Sign up by phone',
    access: 'public',
    body: RegisterPhoneBodySchema,
    response: RegisteredSchema,
  }),
  login: endpoint({
    method: 'POST',
    path: '/api1/user/v1/login',
    tags: ['auth'],
    summary: 'Sign in with e-mail, phone or account name and password',
    description:
      'An unknown account and a wrong password answer the same 100018. Attempts are reserved before the password is checked: ' +
      'five per account from one address and twenty per address in 15 minutes, then 429 (100003) with Retry-After. ' +
      'After ten failures for an account from anywhere within an hour of each other, a device that has not signed in to it ' +
      'before must send a solved captcha (`captchaId`, `captcha`; 100021 without, 240101 wrong) and waits between attempts, ' +
      '1 s after the tenth failure and doubling up to 15 minutes (429 with Retry-After). A successful sign-in sets the ' +
      'HttpOnly cookie `lg_device` that makes the device known to the account. The answer is never cached (Cache-Control: no-store).',
    access: 'public',
    body: LoginBodySchema,
    response: LoginResultSchema,
    errors: [100018, 100003, 100021, 240101, 250018, 250020],
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/api1/user/v1/reset_password',
    tags: ['auth'],
    summary: 'Set a new password with a verification code',
    access: 'public',
    body: ResetPasswordBodySchema,
    response: EmptySchema,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api1/user/v1/logout',
    tags: ['auth'],
    summary: 'Sign out: the token dies on the server',
    access: 'signedIn',
    response: EmptySchema,
  }),
};
