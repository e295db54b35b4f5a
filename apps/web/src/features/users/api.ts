import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { userEndpoints, type AddAccountBody, type ResetAccountPasswordBody, type UpdateAccountBody } from '@lumigrid/contract/browser';
import { call } from '../../api/client.ts';
import { useRefreshingMutation } from '../../api/refreshing-mutation.ts';

export interface AccountListQuery {
  /** 1 administrators, 2 accounts, 3 sub-accounts. */
  userAuth: number;
  page: number;
  pageSize: number;
  name?: string;
}

export const userKeys = {
  all: ['users'] as const,
  list: (query: AccountListQuery) => [...userKeys.all, 'list', query] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
};

/** One account the signed-in manager manages; off without an id. */
export function useAccountDetail(id: string | undefined) {
  return useQuery({
    queryKey: userKeys.detail(id ?? ''),
    queryFn: ({ signal }) => call(userEndpoints.detail, { params: { id: id! } }, { signal }),
    enabled: id !== undefined,
  });
}

/** One page of the accounts the signed-in manager manages. */
export function useAccounts(query: AccountListQuery) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) =>
      call(
        userEndpoints.list,
        { params: { userAuth: query.userAuth, page: query.page, pageSize: query.pageSize }, query: query.name ? { name: query.name } : {} },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

const useAccountMutation = <I>(send: (input: I) => Promise<unknown>) => useRefreshingMutation(send, [userKeys.all]);

export const useAddAccount = () => useAccountMutation((body: AddAccountBody) => call(userEndpoints.add, { body }));
export const useUpdateAccount = () => useAccountMutation((body: UpdateAccountBody) => call(userEndpoints.update, { body }));
export const useRemoveAccount = () => useAccountMutation((id: string) => call(userEndpoints.remove, { body: { id } }));
export const useResetAccountPassword = () =>
  useAccountMutation((body: ResetAccountPasswordBody) => call(userEndpoints.resetPassword, { body }));
