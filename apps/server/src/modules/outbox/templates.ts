import type { CodePurpose, Lang } from '@lumigrid/contract';
import { fillText, serverTexts } from '../../i18n/server-texts.ts';

/** The verification-code message in the recipient's language; links use PUBLIC_URL, never a Host header. */
export function verificationCodeMessage(args: { purpose: CodePurpose; lang: Lang; code: string; minutes: number; publicUrl: string }) {
  const path = args.purpose === 'register' ? '/user/registered' : '/user/forgetPwd';
  const text = serverTexts(args.lang).accountMail;
  return {
    subject: text.codeSubject[args.purpose],
    body: fillText(text.codeBody, { code: args.code, minutes: args.minutes, url: `${args.publicUrl}${path}` }),
  };
}

/** The message carrying a password an administrator reset, in the account's language. */
export function newPasswordMessage(args: { lang: Lang; password: string; publicUrl: string }) {
  const text = serverTexts(args.lang).accountMail;
  return {
    subject: text.newPasswordSubject,
    body: fillText(text.newPasswordBody, { password: args.password, url: `${args.publicUrl}/user/login` }),
  };
}
