import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountImageKind,
  ChangePasswordBody,
  LoginUser,
  LoginBody,
  RegisterMailBody,
  RegisterPhoneBody,
  ResetPasswordBody,
  SendCodeBody,
  UpdateLangBody,
  UpdateProfileBody,
} from '@lumigrid/contract/browser';
import { accountEndpoints, authEndpoints } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import { uploadForm } from '../../api/upload.ts';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
  captcha: (purpose: string) => [...authKeys.all, 'captcha', purpose] as const,
};

/** A fresh picture code; the key is per form, refetch() draws a new one. Drawn only while `enabled`. */
export function useCaptcha(purpose: string, enabled = true) {
  return useQuery({
    queryKey: authKeys.captcha(purpose),
    queryFn: ({ signal }) => call(authEndpoints.captcha, {}, { signal }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    enabled,
  });
}

export function useSendCode() {
  return useMutation({ mutationFn: (body: SendCodeBody) => call(authEndpoints.sendCode, { body }) });
}

export function useLogin() {
  return useMutation({ mutationFn: (body: LoginBody) => call(authEndpoints.login, { body }) });
}

export function useRegisterMail() {
  return useMutation({
    mutationFn: (body: RegisterMailBody) => call(authEndpoints.registerByMail, { body }),
  });
}

export function useRegisterPhone() {
  return useMutation({
    mutationFn: (body: RegisterPhoneBody) => call(authEndpoints.registerByPhone, { body }),
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: (body: ResetPasswordBody) => call(authEndpoints.resetPassword, { body }) });
}

/** The signed-in user, seeded from the stored copy so the shell draws at once; kept in the session. */
export function useMe() {
  return useQuery({
    queryKey: authKeys.me(),
    queryFn: async ({ signal }) => {
      const user = await call(accountEndpoints.profile, {}, { signal });
      session.setUser(user);
      return user;
    },
    initialData: session.user,
    initialDataUpdatedAt: 0,
    staleTime: 60_000,
  });
}

/** Ends the server session; failures are silent because the client forgets the token either way. */
export function logout(): Promise<null | void> {
  return call(authEndpoints.logout, { body: undefined }, { silent: true }).catch(() => undefined);
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => call(accountEndpoints.changePassword, { body }),
  });
}

/** Saves the language on the account; used when a signed-in user switches. */
export function saveAccountLanguage(body: UpdateLangBody) {
  return call(accountEndpoints.setLang, { body }, { silent: true }).catch(() => undefined);
}

export function useInvalidateMe() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: authKeys.me() });
}

/** Keeps a new copy of the signed-in user the server answered, so the shell shows it at once. */
function useKeepMe() {
  const client = useQueryClient();
  return (user: LoginUser) => {
    session.setUser(user);
    client.setQueryData(authKeys.me(), user);
  };
}

/** Saves the signed-in user's own info; the shell shows the new name at once. */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => call(accountEndpoints.updateProfile, { body }),
    onSuccess: useKeepMe(),
  });
}

const PICTURE_CALLS = {
  avatar: { upload: accountEndpoints.uploadAvatar, remove: accountEndpoints.removeAvatar },
  logo: { upload: accountEndpoints.uploadLogo, remove: accountEndpoints.removeLogo },
  background: { upload: accountEndpoints.uploadBackground, remove: accountEndpoints.removeBackground },
} as const;

/** Uploads (a file) or removes (null) one of the account's pictures; the shell shows the change at once. */
export function useAccountPicture(kind: AccountImageKind) {
  return useMutation({
    mutationFn: (file: File | null) => {
      if (file === null) return call(PICTURE_CALLS[kind].remove, {});
      return call(PICTURE_CALLS[kind].upload, { body: uploadForm(file) });
    },
    onSuccess: useKeepMe(),
  });
}
