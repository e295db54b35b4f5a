import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountExists,
  Captcha,
  ChangePasswordBody,
  LoginBody,
  LoginResult,
  LoginUser,
  RegisterMailBody,
  RegisterPhoneBody,
  ResetPasswordBody,
  SendCodeBody,
  UpdateLangBody,
} from '@lumigrid/contract';
import { api } from '../../api/client.ts';
import { session } from '../../api/session.ts';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
  captcha: (purpose: string) => [...authKeys.all, 'captcha', purpose] as const,
  accountExists: (account: string) => [...authKeys.all, 'exists', account] as const,
};

/** A fresh picture code; the key is per form, refetch() draws a new one. */
export function useCaptcha(purpose: string) {
  return useQuery({
    queryKey: authKeys.captcha(purpose),
    queryFn: ({ signal }) => api.get<Captcha>('/api1/user/v1/captcha', { signal }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

export function useSendCode() {
  return useMutation({ mutationFn: (body: SendCodeBody) => api.post<null>('/api1/user/v1/send_code', body) });
}

export function useLogin() {
  return useMutation({ mutationFn: (body: LoginBody) => api.post<LoginResult>('/api1/user/v1/login', body) });
}

export function useRegisterMail() {
  return useMutation({
    mutationFn: (body: RegisterMailBody) => api.post<{ account: string }>('/api1/user/v1/register/mail', body),
  });
}

export function useRegisterPhone() {
  return useMutation({
    mutationFn: (body: RegisterPhoneBody) => api.post<{ account: string }>('/api1/user/v1/register/tel', body),
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: (body: ResetPasswordBody) => api.post<null>('/api1/user/v1/reset_password', body) });
}

export function checkAccountExists(account: string) {
  return api.get<AccountExists>(`/api1/user/v1/check_account_exist/${encodeURIComponent(account)}`, { silent: true });
}

/** The signed-in user, seeded from the stored copy so the shell draws at once; kept in the session. */
export function useMe() {
  return useQuery({
    queryKey: authKeys.me(),
    queryFn: async ({ signal }) => {
      const user = await api.get<LoginUser>('/api1/user/v1/me', { signal });
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
  return api.post<null>('/api1/user/v1/logout', undefined, { silent: true }).catch(() => undefined);
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => api.post<null>('/api1/user/v1/change_password', body),
  });
}

/** Saves the language on the account; used when a signed-in user switches. */
export function saveAccountLanguage(body: UpdateLangBody) {
  return api.post<null>('/api1/user/v1/lang', body, { silent: true }).catch(() => undefined);
}

export function useInvalidateMe() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: authKeys.me() });
}
