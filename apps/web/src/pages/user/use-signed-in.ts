import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { LoginResult } from '@lumigrid/contract/browser';
import { useBoot } from '../../app/boot.tsx';
import { toast } from '../../app/toast.ts';
import { languageAfterLogin, landingPath, safeRedirect, session, type LoginType } from '../../api/session.ts';
import { authKeys, saveAccountLanguage } from '../../features/auth/api.ts';

/** What a sign-in keeps besides its answer: how it was made and what to remember of it. */
export interface SignInKept {
  loginType: LoginType;
  remember: boolean;
  account: string;
  /** Where the guard sent the user from, when it did. */
  redirect?: string | null;
}

/** Stores a session the server opened (by password or by single sign-on), settles the language and opens the app. */
export function useSignedIn() {
  const { t } = useTranslation();
  const { adoptLang } = useBoot();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (result: LoginResult, kept: SignInKept) => {
    session.signIn({ token: result.access_token, user: result.user, ...kept });
    const language = languageAfterLogin(session.lang(), result.user.lang);
    if (language.saveToAccount) void saveAccountLanguage({ lang: language.lang });
    else adoptLang(language.lang);
    queryClient.setQueryData(authKeys.me(), result.user);
    toast('success', t('login.success'));
    void navigate(safeRedirect(kept.redirect) ?? landingPath(result.user), { replace: true });
  };
}
