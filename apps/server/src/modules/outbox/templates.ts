import type { CodePurpose, Lang } from '@lumigrid/contract';

const SUBJECT: Record<CodePurpose, Record<Lang, string>> = {
  register: { en: 'Your Lumigrid sign-up code', cn: 'Lumigrid 注册验证码', tc: 'Lumigrid 註冊驗證碼', ja: 'Lumigrid 登録認証コード' },
  reset: {
    en: 'Your Lumigrid password reset code',
    cn: 'Lumigrid 重置密码验证码',
    tc: 'Lumigrid 重設密碼驗證碼',
    ja: 'Lumigrid パスワード再設定コード',
  },
};

const BODY: Record<Lang, (code: string, minutes: number, url: string) => string> = {
  en: (code, minutes, url) => `Your verification code is ${code}. It is valid for ${minutes} minutes.\n\n${url}`,
  cn: (code, minutes, url) => `您的验证码是 ${code}，${minutes} 分钟内有效。\n\n${url}`,
  tc: (code, minutes, url) => `您的驗證碼是 ${code}，${minutes} 分鐘內有效。\n\n${url}`,
  ja: (code, minutes, url) => `認証コードは ${code} です。有効期限は ${minutes} 分です。\n\n${url}`,
};

/** The verification-code message in the recipient's language; links use PUBLIC_URL, never a Host header. */
export function verificationCodeMessage(args: { purpose: CodePurpose; lang: Lang; code: string; minutes: number; publicUrl: string }) {
  const path = args.purpose === 'register' ? '/user/registered' : '/user/forgetPwd';
  return {
    subject: SUBJECT[args.purpose][args.lang],
    body: BODY[args.lang](args.code, args.minutes, `${args.publicUrl}${path}`),
  };
}

const NEW_PASSWORD_SUBJECT: Record<Lang, string> = {
  en: 'Your new Lumigrid password',
  cn: '您的 Lumigrid 新密码',
  tc: '您的 Lumigrid 新密碼',
  ja: 'Lumigrid の新しいパスワード',
};

const NEW_PASSWORD_BODY: Record<Lang, (password: string, url: string) => string> = {
  en: (password, url) =>
    `Your administrator gave your account a new password: ${password}\nSign in and change it in the user centre.\n\n${url}`,
  cn: (password, url) => `管理员已为您的账号设置新密码：${password}\n请登录后在用户中心修改。\n\n${url}`,
  tc: (password, url) => `管理員已為您的帳號設定新密碼：${password}\n請登入後在用戶中心修改。\n\n${url}`,
  ja: (password, url) =>
    `管理者がアカウントに新しいパスワードを設定しました：${password}\nサインイン後、ユーザーセンターで変更してください。\n\n${url}`,
};

/** The message carrying a password an administrator reset, in the account's language. */
export function newPasswordMessage(args: { lang: Lang; password: string; publicUrl: string }) {
  return { subject: NEW_PASSWORD_SUBJECT[args.lang], body: NEW_PASSWORD_BODY[args.lang](args.password, `${args.publicUrl}/user/login`) };
}
