import { Type, type Static } from 'typebox';
import { IdSchema, LangSchema } from './common.ts';
import { LIMITS } from './limits.ts';
import { MAIL_PATTERN, PHONE_PATTERN } from './validation.ts';

const PasswordInput = Type.String({ minLength: 1, maxLength: LIMITS.password.loginMax, description: 'Password' });
const NewPassword = Type.String({
  minLength: LIMITS.password.min,
  maxLength: LIMITS.password.max,
  description: '8-32 characters with upper case, lower case and a digit, no spaces',
});
const Mail = Type.String({ maxLength: LIMITS.mail.max, pattern: MAIL_PATTERN, description: 'E-mail address' });
const Phone = Type.String({ pattern: PHONE_PATTERN, description: 'Phone number, digits with an optional +' });
const Code = Type.String({ pattern: '^[0-9]{6}$', description: 'The six-digit verification code' });

/** The logged-in user of spec section 3, as the browser stores it. */
export const LoginUserSchema = Type.Object({
  id: IdSchema,
  account: Type.String({ description: 'The sign-in name: e-mail, phone or local account name' }),
  name: Type.String(),
  mail: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  head_img: Type.Union([Type.String(), Type.Null()]),
  remarks: Type.Union([Type.String(), Type.Null()]),
  company: Type.Union([Type.String(), Type.Null()], {
    description: "The company the account was registered for; a sub-account shows its account's",
  }),
  user_auth: Type.Integer({ description: '1 platform administrator, 2 account, 3 sub-account' }),
  operate_auth: Type.Integer({ description: '0 owner, 2 editable, 3 controllable, 4 view only' }),
  push_auth: Type.Boolean({ description: 'The push permission: reviews push news (platform administrators only)' }),
  demo: Type.Optional(
    Type.Boolean({ description: "True for the server's own demo account (DEMO): its menu leaves out the operator's features" }),
  ),
  company_logo: Type.Union([Type.String(), Type.Null()]),
  home_link: Type.Union([Type.String(), Type.Null()]),
  server_ip: Type.Union([Type.String(), Type.Null()], { description: 'The server address, in server mode' }),
  lang: LangSchema,
});
export type LoginUser = Static<typeof LoginUserSchema>;

const CaptchaId = Type.String({ minLength: 1, maxLength: 64, description: 'The id GET captcha answered' });
const CaptchaAnswer = Type.String({ minLength: 1, maxLength: 10, description: 'The letters of the captcha picture' });

export const LoginBodySchema = Type.Object({
  account: Type.String({ minLength: 1, maxLength: 100, description: 'E-mail, phone, or the local account name' }),
  password: PasswordInput,
  remember: Type.Optional(Type.Boolean({ description: 'Keep the session for days rather than hours' })),
  captchaId: Type.Optional({ ...CaptchaId, description: 'Needed after too many failed sign-ins for the account (100021)' }),
  captcha: Type.Optional(CaptchaAnswer),
});
export type LoginBody = Static<typeof LoginBodySchema>;

export const LoginResultSchema = Type.Object({
  access_token: Type.String(),
  user: LoginUserSchema,
});
export type LoginResult = Static<typeof LoginResultSchema>;

export const CaptchaSchema = Type.Object({
  captchaId: Type.String(),
  image: Type.String({ description: 'The captcha picture as a data URL (PNG)' }),
});
export type Captcha = Static<typeof CaptchaSchema>;

export const CodePurposeSchema = Type.Union([Type.Literal('register'), Type.Literal('reset')]);
export type CodePurpose = Static<typeof CodePurposeSchema>;

export const SendCodeBodySchema = Type.Object({
  target: Type.String({ minLength: 1, maxLength: LIMITS.mail.max, description: 'The e-mail address or phone number' }),
  purpose: CodePurposeSchema,
  captchaId: CaptchaId,
  captcha: CaptchaAnswer,
});
export type SendCodeBody = Static<typeof SendCodeBodySchema>;

/** What a sign-up gives after the address it was sent the code to: the same by e-mail and by phone. */
const signUpFields = {
  code: Code,
  password: NewPassword,
  name: Type.Optional(Type.String({ maxLength: 100 })),
  company: Type.Optional(Type.String({ maxLength: 150 })),
  lang: Type.Optional(LangSchema),
};

export const RegisterMailBodySchema = Type.Object({ mail: Mail, ...signUpFields });
export type RegisterMailBody = Static<typeof RegisterMailBodySchema>;

export const RegisterPhoneBodySchema = Type.Object({ phone: Phone, ...signUpFields });
export type RegisterPhoneBody = Static<typeof RegisterPhoneBodySchema>;

export const ResetPasswordBodySchema = Type.Object({
  target: Type.String({ minLength: 1, maxLength: LIMITS.mail.max, description: 'The e-mail address or phone number' }),
  code: Code,
  password: NewPassword,
});
export type ResetPasswordBody = Static<typeof ResetPasswordBodySchema>;

export const ChangePasswordBodySchema = Type.Object({
  oldPassword: PasswordInput,
  newPassword: NewPassword,
});
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

export const UpdateLangBodySchema = Type.Object({ lang: LangSchema });
export type UpdateLangBody = Static<typeof UpdateLangBodySchema>;

export const AccountExistsSchema = Type.Object({ exists: Type.Boolean() });
export type AccountExists = Static<typeof AccountExistsSchema>;

/** check_account_exist answers only to a solved captcha (each captcha one try), so names cannot be listed by a script. */
export const AccountExistsQuerySchema = Type.Object({ captchaId: CaptchaId, captcha: CaptchaAnswer });
export type AccountExistsQuery = Static<typeof AccountExistsQuerySchema>;

/** The answer of a sign-up: the new account's name. */
export const RegisteredSchema = Type.Object({ account: Type.String() });
export type Registered = Static<typeof RegisteredSchema>;

/** {account}: an e-mail, phone number or account name. */
export const AccountParamsSchema = Type.Object({ account: Type.String({ minLength: 1, maxLength: 100 }) });
export type AccountParams = Static<typeof AccountParamsSchema>;
